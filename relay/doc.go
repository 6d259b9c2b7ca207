// Package relay links panes so the agents in them talk: when a member of a group finishes
// a turn, the words it wrote since its baseline are typed into every other member, framed
// with attribution, once that member is idle and no person is typing there, within a
// turn budget.
//
// It owns groups and links, per-pane baselines, idle gating, the delivery queue, submit
// confirmation, turn budgets, the relay log and the status summary. It is a pure state
// machine: events and the time come in (Handle, Tick), the writes to make come out as
// Actions, and NextWake says when to call Tick next. It has no goroutines, never sleeps,
// does no I/O and reads no clock; it reads terminals only through the small Screen
// interface it declares.
//
// A turn's words are found by where the program took its input (parser.MainTurn,
// parser.Transcript): the baseline keeps the screen's lines with their absolute row
// numbers and the cursor's row, taken when a turn ends, before a delivery is typed, and
// when a person submits text. A member's turn that yields no words is never silent: the
// log says "N name finished a turn: nothing new found to relay".
//
// Explicit addressing (address.go): every pane's turns are watched, linked or not, for
// `@relay:NAME message` lines and [[RELAY]]{"to": NAME, "text": ...}[[/RELAY]] blocks
// (parser.Commands). They are the agents' own requests, so they work between any two
// panes, by name or number; a turn holding one delivers each message to its addressee
// only, instead of the whole turn to the group. They stay loop-limited: within a group a
// command spends the group's turns; between panes not in one group it spends a direct
// budget of --turns per pair, renewed when a person links either pane. Malformed or
// misaddressed commands are not sent and are noted in the log.
//
// Event flow for a host (the ui package):
//
//	pane started      ──► Handle(Open{pane, name, profile, screen}, now)
//	pane output burst ──► Handle(Output{pane}, now) ───┐
//	person's key      ──► Handle(Keystroke{...}, now) ─┤
//	person's Enter    ──► Handle(Sent{...}, now) ──────┤
//	prefix l/L/u/p    ──► Handle(Link{...}, now) ──────┼─► []Action ─► write a.Bytes() to pane a.Target()
//	pane exit/close   ──► Handle(Exit{pane}, now) ─────┤               through its ordered writer
//	timer fires       ──► Tick(now) ───────────────────┘
//	after each call: NextWake() ─► (re)arm one timer; false: no timer needed
//
// Between a Type and its Submit (PaneStatus.Typed, about 200 ms) the host holds what a
// person types into that pane and writes it right after the Submit's carriage return;
// the Keystroke events still come at once, so the relay holds further deliveries for
// the draft they start.
//
// relay imports only parser (profiles and text functions). It must not import ui,
// ptyhost, vterm, keys, bubbletea or lipgloss.
package relay
