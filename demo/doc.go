// Package demo is the simulated agent CLI: a small program that looks and behaves enough like
// Claude Code, Codex, a REPL or another chat program for agentmux to be shown working
// (agentmux demo) and tested, on a fake clock and end to end, without any real agent
// installed. It is the project's one simulator: every screen style shares one state machine,
// one input decoder, one reply path and one transcript.
//
// Main runs one agent in the current terminal (see -h for its flags); Bot runs one without a
// terminal or timers, for tests that drive it on a fake clock. It draws in one of these
// screen styles (Style):
//
//   - inline: Claude Code's classic renderer. A banner, then the transcript scrolling up the
//     main screen above a live region that is redrawn in place with relative cursor moves: an
//     optional spinner row "✻ Thinking… (2s · esc to interrupt)", a "❯" input row between two
//     "─" rules, and a footer hint. Answers start with "● ". The title is "✳ NAME" when idle and
//     alternates "◐ NAME" / "◑ NAME" while busy.
//   - alt: Codex. The alternate screen, redrawn whole in synchronized-output frames
//     (CSI ? 2026 h … l), a "› " composer at the bottom, answers starting with "• ", kitty
//     keyboard flags pushed at start, mouse wheel reporting, and a braille spinner in the title
//     while busy.
//   - plain: a line REPL in raw mode. A "> " prompt, typed keys echoed, plain answers, no
//     title, no bracketed paste.
//   - line, bare, full, boxed, clear: chat programs no built-in profile knows, for testing
//     the relay under the generic profile: a REPL in cooked mode ("NAME> ", the terminal
//     echoes), a bare inline UI with its cursor in the input row, a full-screen UI, an
//     Ink-like boxed input with the cursor parked under it, and a full-screen UI that clears
//     its screen on every change with no synchronized output.
//
// After each message the agent is busy for a while, then answers: a friendly conversational
// line quoting what it was told, "NAME heard: first words", or an answer from a seeded corpus
// built to trip a relay (corpus.go). With -pace a long answer is printed a few lines at a
// time. Messages submitted while busy are queued; Escape or Ctrl+C cuts the answer short.
// With -transcript FILE it also appends every message it receives and every answer it gives
// to FILE as JSON lines (transcript.go), so end-to-end tests can compare exactly what was
// delivered to it.
//
// The package owns the agent's state machine (agent.go, turn.go), its input decoding
// (input.go), the three drawing engines (draw_main.go: a main-screen program's live region;
// draw_frame.go: a full-screen program's frames; draw_plain.go: a REPL) with each style's look
// (draw_*.go), and the reply generators (reply.go, corpus.go). Everything runs on one
// goroutine except the reader of stdin, which only hands chunks over a channel.
//
// It imports nothing of the agentmux project but keys, so it can be built into the agentmux
// binary (agentmux __agent ARGS) and into the tests' fake agent (testdata/fakeagent) alike.
package demo
