// Package session is agentmux's core: the panes (each a program in a PTY drawn through
// its own vterm emulator), the relay that links them with its clock and its one timer,
// the members' names and numbers, and the event loop that serialises every change to
// them. It has no screen: the TUI (package ui) is its first client, the session socket
// (package hub) its second. *Session is the socket's Core as it is (socket.go: the
// panes as LIST gives them, the events in the form the socket passes on, the pane
// commands), with no adapter in between.
//
// The API is narrow and safe to call from any goroutine:
//
//   - commands go in (Key, Paste, Mouse, FocusReport, Input, Resize, Link, LinkAll,
//     Unlink, Hold, Release, Address, Brief, Close, Send with its SendOptions, Remind,
//     Hook, SetColors, SetKittyKeyboard); Send and Remind take the caller's message id,
//     which the delivery's events carry back (Entry.ID, Mail.ID);
//     each is queued to the loop in order, and the ones that can be refused wait for
//     the loop's answer;
//   - queries come back as copies (Members, Member, Status, Log, Capture, Sync); names
//     and numbers resolve in one place (Resolve, in any case);
//   - a pane's picture is read through its Screen (immutable vterm snapshots and history
//     lines: vterm locks internally, so a renderer reads it on its own goroutine);
//   - events go out to subscribers (Subscribe): output in a pane, a member's state,
//     deliveries and their phases, notices, mail for senders that are not panes,
//     groups, alerts, exits. A subscriber never
//     slows the loop: output events coalesce per pane, and a subscriber that lets its
//     queue overflow is disconnected (its Err says why).
//
// Event flow (one goroutine, the loop, owns every piece of mutable state here):
//
//	ptyhost reader: Read → vterm.Write → Updates() (cap 1); a pause → Quiet() (cap 1)
//	     │ watcher goroutine per pane: one signal, then parked until re-armed
//	     ▼ (a pause while parked is forwarded: the held end of a burst)
//	┌──────────────────────────── loop (session.run) ────────────────────────────┐
//	│ output ─► pacing (≤ 1 observation per OutputInterval, at once after input, │
//	│           at once at a pause once a slot; Output.Quiet says it paused)      │
//	│        ─► relay.Output ─► actions ─► gate ─► Proc.Write                    │
//	│ commands (Key, Paste, Link, Send…) ─► relay events / gate / Proc.Write      │
//	│ timer (one: the earliest of relay NextWake, paced output, held answers)    │
//	│ after each step: diff members, groups, log ─► events ─► subscribers         │
//	└─────────────────────────────────────────────────────────────────────────────┘
//	     │ events (non-blocking; output coalesced per pane)
//	     ▼
//	ui (bubbletea) / session socket / tests
//
// Hooks: Options.Hooks adds the programs' hook settings to a pane's spec before it
// starts (for profiles that pass hooks); Hook reports from such a pane end its turns at
// once with the answer as the model wrote it (relay.TurnEnd).
//
// The person's typing gate (gate.go) is the core's alone: between a delivery's Type and
// its Submit, whatever a client sends a pane for the person (keys, pastes, mouse and
// focus reports, Input) is held in order and written right after the submitting
// carriage return, so it never joins the delivery. The relay's own writes and the
// emulators' query replies go to the program directly.
//
// External members: a name registered with RegisterMember is a member that is not a
// pane (a protocol client of the session socket). Send from it reaches panes like an
// @relay command. The relay knows the name too (relay.External): an agent's
// `@relay:NAME` to it, or its broadcast, becomes the relay's Mail, which the loop hands
// to the member's sink after each step (the sink never blocks), within the same rules as
// addressing an unlinked pane: the opt-in, and the pair's direct budget.
//
// session imports ptyhost, vterm, relay, parser, keys and proto (the types it shares
// with the socket); it must not import bubbletea, lipgloss, ui, tty or hub
// (internal/archtest checks it).
package session
