// Package ui is agentmux's screen: the bubbletea model that shows every pane side by side
// and forwards what the person types to the focused one. It owns the panes' Host (their
// emulators and processes), the layout tree, focus, zoom, scroll mode, the prefix key
// map, the styles, and the composition of the frame. It is the only package that imports
// bubbletea and lipgloss; it must not be imported by vterm, ptyhost, keys, parser or
// relay.
//
// Event flow (one goroutine owns each piece of mutable state):
//
//	outer terminal (raw mode, alt screen, SGR mouse, paste, focus, kitty flags)
//	     │ bytes                                                ▲ changed rows, one
//	     ▼                                                      │ synchronized update
//	read loop ──chunks──▶ decode loop ──inputMsg──┐      screen writer goroutine
//	(cancelreader)       (keys.Decoder,           │      (newest-frame slot)
//	                      escape timer)           │             ▲ present(frame)
//	                                              ▼             │ after each Update
//	┌────────────── bubbletea event loop (no renderer): model.Update ───────────────┐
//	│ prefix state machine → keys.Encode → Host.Write ─────────────┐                │
//	│ paneOutputMsg → mark dirty → frame tick (≤60/s) → Snapshot() │ View: cached   │
//	│ paneExitedMsg → exit code in border; SIGWINCH → WindowSizeMsg│ frame, only    │
//	└──────────────────────────────────────────────────────────────┼─dirty rows─────┘
//	     ▲ waitForOutput(id): one per pane,        ▲ waitForExit   │ Proc.Write (FIFO,
//	     │ re-armed when the snapshot is taken     │               ▼ never blocks)
//	ptyhost reader: Read → vterm.Write → Updates() (cap 1)    ptyhost writer → PTY
//	                         │ replies (DA1, OSC 11, CSI ? u…) ──replySink──▶ writer
//
// The relay (relay.go, relay_update.go) lives in the same loop: a relayWire holds the
// relay.Relay, every pane opened in it with a Screen over its emulator, and the drafts a
// person is typing. Pane output, forwarded keys and pastes, prefix l/L/u/p and pane exits
// become relay events; the Actions they return are written through Host.Write (the
// pane's ordered writer); one tea.Tick with a generation number is armed for NextWake
// (a stale tick is ignored; nothing pending means no timer).
//
//	paneOutputMsg ─► Output ─┐   forwardKey/handlePaste ─► Keystroke/Sent ─┐
//	prefix l/L/u/p ─► Link… ─┼─► relay.Handle ─► []Action ─► Host.Write     │
//	relayWakeMsg{gen} ─► Tick┘        └─► NextWake ─► armWake (one tea.Tick)┘
//
// Frames from pane output are at most frameInterval (1/60 s) apart, except the echo of a
// key: the first output of the pane a key or paste was just written to draws as soon as
// echoGap (2 ms) has passed since the last frame, once per key (update.go scheduleEcho),
// so typing fast is not held to the 60 Hz cap while floods still are.
//
// Nothing runs on a timer while nothing changes: the frame tick is armed only by pane
// output, the escape timer only by an incomplete escape sequence, the relay's tick only
// while it has a deadline pending.
//
// Lock rule: the model and the Host are touched only by bubbletea's event loop. A
// pane's vterm.Terminal is written by its ptyhost reader and read (Snapshot, modes) by
// the event loop; vterm locks internally. Cmds only wait on channels and build messages.
//
// Files: host.go (panes, no bubbletea), relay.go (the relay's wiring, no bubbletea),
// relay_update.go (its messages, keys and timer), model.go, update.go (one handler per message),
// actions.go (the prefix state machine and commands), keys.go (the key map), mouse.go,
// scroll.go, view.go and help.go (composition), render.go (cells to SGR runs), screen.go
// (frames to the terminal), styles.go, layout.go (the pure split tree), input.go (raw
// input), term.go (the outer terminal), run.go (wiring and restore).
package ui
