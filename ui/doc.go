// Package ui is agentmux's screen: the bubbletea model that shows every pane side by side
// and forwards what the person types to the focused one. It owns the layout tree, focus,
// zoom, scroll and copy mode, the prefix key map, the overlays (help, relay log and one
// entry opened whole), the styles, the composition of the frame and where the outer
// cursor goes. It is the only package that imports bubbletea and
// lipgloss. Panes live in a session.Session: ui reaches them only through its API
// (commands, Screen for pictures, events from a subscription) and never imports ptyhost,
// relay or parser. The outer terminal is package tty's. Every terminal is a client of
// the session server, entered through Attach (attach.go), the terminal a session runs in
// (agentmux demo, --in-process) too; Fit sizes a session's panes before it starts.
//
// Event flow (one goroutine owns each piece of mutable state):
//
//	tty: the client's terminal (modes, probe) tty.Input (decode loop over the input frames)
//	     ▲ changed rows, one synchronized         │ tty.Batch ─► forwardInput ─► Send
//	     │ update (tty.Screen goroutine)           ▼
//	┌──── bubbletea event loop (no renderer): model.Update ─────────────────────┐
//	│ inputMsg ─► prefix state machine ─► session.Key/Paste/Mouse/Link/Hold…     │
//	│ sessionMsg{Output, MemberChanged, Exit, Alert, Notice, StatusChanged, …}   │
//	│   ─► mark dirty / borders / status ─► framePacer (≤60/s, echo early)      │
//	│ frameMsg ─► Screen.Snapshot of dirty panes ─► View: cached rows ─► Present │
//	│   (rows + the outer cursor); copies: Screen.Send(OSC 52) after a frame     │
//	└─────────────────────────────────────────────────────────────────────────────┘
//	     ▲ forwardSession ─► Send: events, and frameMsg when the one frame timer fires
//	session loop: panes, relay, typing gate, one timer (package session)
//
// Frames from pane output are at most frameInterval (1/60 s) apart, except the echo of a
// key: the first output of the pane a key or paste was just written to draws as soon as
// echoGap (2 ms) has passed since the last frame, once per key (frame.go framePacer), so
// typing fast is not held to the 60 Hz cap while floods still are. That early frame takes
// only the echo's pane: another pane's output (a flood) waits for the next full frame, one
// frame interval after the last full one (right after the echo's when that is already
// due), so the echo's frame stays small and never waits behind the flood's rows. Output
// observed at a pause of its program (session.Output.Quiet, the end of a burst) draws a
// full frame at once, once between two frames in their slots: the last lines of a
// command or an answer never wait up to a frame interval.
//
// Nothing runs on a timer while nothing changes: the one frame timer (frameTimer) is
// armed only by pane output, the session's timer only while the relay or paced output
// has a deadline.
//
// Lock rule: the model is touched only by bubbletea's event loop. A pane's picture is
// read through session.Screen (vterm locks internally). The forwarders and Cmds only
// wait on channels and build messages.
//
// Files: model.go, update.go (one handler per message), msgs.go, frame.go (frame
// bookkeeping), actions.go (the prefix state machine and commands), keymap.go (the key
// map), panenum.go (pane numbers of two digits), relaycmds.go (link, hold, addressing,
// brief and the border's state words), bell.go, mouse.go, scroll.go, copy.go (selection,
// search, OSC 52), relaylog.go and logentry.go (the relay log, one entry whole), view.go
// and help.go (composition, the outer cursor), render.go (cells to SGR runs), styles.go,
// layout.go (the pure split tree), attach.go (a terminal's entry, Fit), run.go (the
// program over one terminal).
package ui
