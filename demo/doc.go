// Package demo is a simulated agent CLI: a small program that looks and behaves enough like
// Claude Code, Codex or a plain line REPL for agentmux to be shown working (agentmux demo)
// and tested end to end without any real agent installed.
//
// Main runs one agent in the current terminal. It draws in one of three screen styles:
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
//   - plain: a line REPL. A "> " prompt, typed keys echoed, plain answers, no title, no
//     bracketed paste.
//
// After each message the agent is busy for a while (a spinner animates on a time.Ticker that
// runs only while busy), then answers: a friendly conversational line quoting what it was
// told, or "NAME heard: first words" for tests. With -transcript FILE it also appends every
// message it receives and every answer it gives to FILE as JSON lines (transcript.go), so
// end-to-end tests can compare exactly what was delivered to it.
//
// The package owns the agent's state machine (agent.go), its input decoding (input.go), the
// three renderers (draw_*.go) and the reply generators (reply.go). Everything runs on one
// goroutine except the reader of stdin, which only hands chunks over a channel.
//
// It imports nothing of the agentmux project, so it can be built into the agentmux binary
// (agentmux __agent ARGS) and into the tests' fake agent (testdata/fakeagent) alike.
package demo
