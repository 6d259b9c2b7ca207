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
// Explicit addressing (address.go, kinds.go): every pane's turns are read for relay
// commands (parser.Parser with the profile's syntax: `@relay:NAME message` lines,
// `@thinking:` lines, [[RELAY]] blocks), by name, number or `*` for every other pane. It
// is opt-in: members of one group may address each other; other panes only with
// addressing on for the session (Config.Address) or the sender (Address events). A turn
// holding commands delivers each to its addressee only, instead of the whole turn to the
// group; thinking and state commands are logged, never typed. They stay loop-limited:
// within a group a command spends the group's turns; between panes not in one group it
// spends a direct budget of --turns per pair, renewed when a person links either pane.
// Malformed, misaddressed or disallowed commands are not sent and are noted in the log.
// The brief (Config.Brief, a profile's Brief, Brief events) tells an agent all this.
//
// Delivery rules (modes.go, batch.go, aside.go, drafts.go): a message sent with options (Send,
// Post) is sequential, important or urgent, may expire, and may have its sender told
// when it is delivered and reminded later; Remind schedules a reminder into a pane.
// What waits for a pane goes in one paste when it is ready (at most MaxBatch parts). A
// person's draft unchanged for InputStale, or met by an urgent message, is set aside:
// the input line cleared with the profile's keys, the screen checked empty, the paste
// typed, and the draft typed back without Enter once the answer is complete; a draft
// the screen shows gone holds nothing, and one the relay cannot set aside holds what
// waits for twice InputStale at most (drafts.go; the host's draft tracking follows
// TakeInputResets). Notices
// for senders that are not panes are Mail (TakeMail). Message is the one path for
// messages from outside the screen (Post, the Send event), with the reason a message
// was refused.
//
// Hooks (hooks.go): a pane opened with Hooks ends its turn when its program's hook says
// so (TurnEnd), at once, delivering the hook's text (the answer as the model wrote it)
// instead of the screen's delta; without the hook within HookWait of its screen going
// idle, the delta goes. Entry.Source says which.
//
// Event flow for a host (package session):
//
//	pane started      ──► Handle(Open{pane, name, profile, screen}, now)
//	pane output burst ──► Handle(Output{pane}, now) ───┐
//	person's key      ──► Handle(Keystroke{...}, now) ─┤
//	person's Enter    ──► Handle(Sent{...}, now) ──────┤
//	prefix l/L/u/p    ──► Handle(Link{...}, now) ──────┼─► []Action ─► write a.Bytes() to pane a.Target()
//	pane exit/close   ──► Handle(Exit{pane}, now) ─────┤               through its ordered writer
//	send / remind     ──► Handle(Send / Remind, now) ──┤               (Type, Submit, Keys)
//	program's hook    ──► Handle(TurnEnd{...}, now) ───┤
//	timer fires       ──► Tick(now) ───────────────────┘
//	after each call: NextWake() ─► (re)arm one timer; false: no timer needed
//	                 TakeMail()  ─► notices for senders that are not panes
//
// Between a Type and its Submit (PaneStatus.Typed, about 200 ms) the host holds what a
// person types into that pane and writes it right after the Submit's carriage return;
// the Keystroke events still come at once, so the relay holds further deliveries for
// the draft they start.
//
// relay imports only parser (profiles and text functions). It must not import ui,
// ptyhost, vterm, keys, bubbletea or lipgloss.
package relay
