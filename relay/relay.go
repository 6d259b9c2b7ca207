package relay

import (
	"slices"
	"time"

	"github.com/agentmux/agentmux/parser"
)

// Relay is the state machine. It is not safe for concurrent use: one goroutine (the
// session's loop) owns it and calls Handle, Tick and the accessors.
type Relay struct {
	cfg     Config
	panes   map[int]*pane
	order   []int // pane numbers, ascending: every pass visits panes in this order
	groups  map[int]*group
	nGroups int          // groups ever made, for IDs
	nDeliv  int          // deliveries ever made, for IDs
	direct  map[pair]int // turns spent by @relay commands between panes not in one group
	// left is what each pane's last group had spent when the pane left it, until a
	// person links the pane again: a link a pane's program makes starts there
	// (LinkByPane).
	left map[int]spent
	// external counts the turns external members spent into each pane (message.go).
	external map[extPair]int
	entries  []*Entry
	logged   int       // entries ever logged
	now      time.Time // the latest time seen
	timers   []*timer  // reminders and notices to come (modes.go)
	mail     []Mail    // notices for senders that are not panes, until taken
	turns    []Turn    // panes' finished turns, until taken (TakeTurns)
	// members are the external members' names (external.go), by lower-case name.
	members map[string]string
	person  int          // the pane a person's event is about, while the deadlines before it run
	resets  []InputReset // for the host's draft tracking, until taken (drafts.go)
	// printing is the pane whose output an event reports, while the deadlines before it
	// run: its screen already shows that output.
	printing int
	// session is everything the panes spent (Spend); capped is set once it reached
	// Config.SessionBudget (spend.go).
	session SpendTotal
	capped  bool
	// rolled are the entries of deliveries that left the log (past Config.LogLimit)
	// before they ended: their phase still changes, and the host reads it (Rolled).
	rolled []*Entry
}

// New returns a relay with no panes.
func New(c Config) *Relay {
	return &Relay{
		cfg:    c.withDefaults(),
		panes:  map[int]*pane{},
		groups: map[int]*group{},
		direct: map[pair]int{},
		left:   map[int]spent{},
	}
}

// Config returns the configuration in effect, defaults filled in.
func (r *Relay) Config() Config { return r.cfg }

// Handle applies an event that happened at now and returns what the host must write
// now, in order. Events about panes never opened, or already exited, are ignored.
func (r *Relay) Handle(ev Event, now time.Time) []Action {
	if now.After(r.now) {
		r.now = now
	}
	// Deadlines that passed before the event count first, even if the host's timer was
	// late: a pane quiet for --idle before this output had started, a turn had ended.
	// But a person's key is the final check before a draft is set aside or an urgent
	// message clears an input line: it wins over a deadline at the same moment.
	// Output also counts first for clear keys sent before it: the pane printed after them.
	switch e := ev.(type) {
	case Keystroke:
		r.person = e.Pane
	case Sent:
		r.person = e.Pane
	case Output:
		if p := r.live(e.Pane); p != nil && p.clearing != nil {
			p.clearing.answered = true
		}
		r.printing = e.Pane // its screen shows the new output already: not settled
	}
	acts := r.step(now)
	r.person, r.printing = 0, 0
	switch e := ev.(type) {
	case Open:
		r.open(e, now)
	case Output:
		if p := r.live(e.Pane); p != nil {
			r.output(p, now)
		}
	case Keystroke:
		if p := r.live(e.Pane); p != nil {
			if e.Draft && !p.draft {
				p.echo = p.started && !p.printed && !p.turn && p.inflight == nil
				p.draftBegan(e.Text)
			}
			if e.Draft != p.draft || e.Text != p.draftText {
				p.said = false // a new draft: said anew if it cannot be set aside
			}
			p.draft, p.lastKey, p.draftText, p.draftAfter = e.Draft, now, e.Text, e.After
			if !e.Draft {
				p.draftText, p.draftPrompt, p.draftAfter = "", nil, 0
			}
		}
	case Sent:
		if p := r.live(e.Pane); p != nil {
			text := e.Text
			if text == "" && p.draft {
				text = p.shownInput() // a draft the host does not know: what its input shows
			}
			r.submitted(p, now)
			p.personStarted()
			p.blankStart = false
			p.hookIdle = false
			if text != "" {
				p.remember(text)
			}
			p.draft, p.lastKey, p.draftText, p.draftAfter, p.echo, p.said, p.draftPrompt = false, now, "", 0, false, false, nil
			p.turn = true
		}
	case Send:
		_, _ = r.post(e, now)
	case Remind:
		_ = r.remind(e, now)
	case TurnEnd:
		r.hookEnded(e, now)
	case Spend:
		r.spent(e, now)
	case SpentBefore:
		r.spentBefore(e, now)
	case RestoreBudgets:
		r.restoreBudgets(e, now)
	case SetBudget:
		r.setBudget(e, now)
	case Hold:
		if p := r.live(e.Pane); p != nil && p.held != e.On {
			p.held = e.On
			if e.On {
				r.notice(now, p.id, "deliveries into %d %s held", p.id, p.name)
			} else {
				r.notice(now, p.id, "deliveries into %d %s released", p.id, p.name)
			}
		}
	case Link:
		r.link(e.Pane, e.With, now, nil, e.Turns)
	case LinkAll:
		r.linkAll(e, now)
	case Unlink:
		if p := r.live(e.Pane); p != nil && p.group != nil {
			r.notice(now, p.id, "%d %s unlinked", p.id, p.name)
			r.leave(p, now, "target unlinked")
		}
	case Exit:
		if p := r.live(e.Pane); p != nil {
			r.exit(p, now, e.Closed, e.Status)
		} else if p := r.panes[e.Pane]; p != nil && e.Closed {
			p.letGo() // its program had exited before
		}
	case Shell:
		if p := r.live(e.Pane); p != nil {
			p.shell = e.On
			if e.On && !e.Kept && p.group != nil {
				r.leave(p, now, "target runs a shell")
				r.notice(now, p.id, "%d %s now runs a shell (%s), which would run agents' answers as commands: unlinked (prefix l then %d links it, asking first)", p.id, p.name, e.Program, p.id)
			}
		}
	case Rename:
		if p := r.panes[e.Pane]; p != nil && e.Name != "" && e.Name != p.name {
			r.notice(now, p.id, "%d %s renamed %s", p.id, p.name, e.Name)
			was := p.name
			p.name = e.Name
			r.renamedLocal(p, was, now)
		}
	case Address:
		r.setAddress(e, now)
	case Brief:
		if p := r.live(e.Pane); p != nil {
			r.queueBrief(p, now)
		}
	case External:
		r.externalMember(e)
	case LinkRemote:
		r.linkRemote(e, now)
	case UnlinkRemote:
		r.unlinkRemote(e, now)
	case RenameRemote:
		r.renameRemote(e, now)
	case Tell:
		r.tellMember(e, now)
	case Note:
		r.notice(now, e.Pane, "%s", e.Text)
	}
	return append(acts, r.step(now)...)
}

// Tick advances the clock to now (the wake-up NextWake asked for, or any time) and
// returns what the host must write.
func (r *Relay) Tick(now time.Time) []Action {
	if now.After(r.now) {
		r.now = now
	}
	return r.step(now)
}

// NextWake returns when the relay next needs Tick if no event comes first: a quiet
// deadline, the end of a typing hold, a submit delay or a confirm window. false means
// nothing is pending: only an event can change anything. The host keeps one timer for
// it (re-armed after every Handle and Tick; a stale timer is harmless).
func (r *Relay) NextWake() (time.Time, bool) {
	var best time.Time
	ok := false
	consider := func(t time.Time) {
		if t.After(r.now) && (!ok || t.Before(best)) {
			best, ok = t, true
		}
	}
	for _, t := range r.timers {
		consider(t.at)
	}
	for _, id := range r.order {
		p := r.panes[id]
		if p.exited {
			continue
		}
		if p.cand != nil { // a frame becomes whole once nothing followed it (settle)
			consider(p.lastOut.Add(frameGap))
		}
		for _, d := range p.queue {
			if !d.expires.IsZero() {
				consider(d.expires)
			}
		}
		if c := p.clearing; c != nil {
			consider(c.deadline)
			consider(c.at.Add(r.clearGap()))
			continue
		}
		if !p.interrupted.IsZero() {
			consider(p.interrupted.Add(r.clearGap()))
			consider(p.interrupted.Add(r.cfg.UrgentDelay))
		}
		if p.aside != nil && p.inflight == nil {
			if at, ok := p.idleAt(r.cfg); ok {
				consider(at)
			}
		}
		if p.draft && p.aside == nil && r.draftHolds(p) {
			// The typing hold ends and the pane goes quiet: the screen may show the
			// input gone (drafts.go).
			consider(p.lastKey.Add(r.cfg.TypingHold))
			if at, ok := p.idleAt(r.cfg); ok {
				consider(at)
			}
		}
		if p.draft && p.aside == nil && len(p.queue) > 0 {
			// Stale at InputStale (set aside, or said); at twice that, cleared blind or
			// what waited that long behind it expires.
			since := later(p.lastKey, p.restoredAt)
			consider(since.Add(r.cfg.InputStale))
			consider(since.Add(2 * r.cfg.InputStale))
			for _, d := range p.queue {
				consider(r.abandonAt(p, d))
			}
		}
		if !p.started {
			if at, ok := p.startAt(r.cfg); ok {
				consider(at)
			}
		}
		if at, ok := p.turnQuietAt(r.cfg); ok && p.started && p.printed && p.inflight == nil {
			if p.turnEndable() && !at.After(r.now) {
				// Due already: what kept it (a clearing of its input, a message waiting
				// there that expired since) went after this step's endTurns. The next
				// Tick ends it, so this asks for one at once.
				at = r.now.Add(time.Nanosecond)
			}
			consider(at)
		}
		idle, idleKnown := p.idleAt(r.cfg)
		if d := p.inflight; d != nil {
			switch d.phase {
			case Typed:
				consider(d.submitAt)
				if d.readLate { // the read comes with output; this if it never does
					consider(d.typedAt.Add(readWait))
				}
			case Submitted:
				consider(d.deadline)
			}
			continue
		}
		if len(p.queue) > 0 {
			if idleKnown {
				consider(idle)
			}
			// The typing hold ends: a delivery may go, or an urgent message set a
			// draft aside (any other waits for the draft to go stale, above).
			if !p.lastKey.IsZero() && (!p.draft || p.queue[0].opts.Mode == Urgent) {
				consider(p.lastKey.Add(r.cfg.TypingHold))
			}
		}
	}
	return best, ok
}

// live returns an opened pane that has not exited, or nil.
func (r *Relay) live(id int) *pane {
	if p := r.panes[id]; p != nil && !p.exited {
		return p
	}
	return nil
}

// open registers a pane, replacing any earlier one with its number.
func (r *Relay) open(e Open, now time.Time) {
	if e.Screen == nil {
		return
	}
	if old := r.live(e.Pane); old != nil {
		r.exit(old, now, false, "")
	}
	p := &pane{id: e.Pane, name: e.Name, program: e.Program, prof: e.Profile, scr: e.Screen}
	p.lastOut, p.hooks, p.shell = now, e.Hooks, e.Shell
	if p.prof.Name == "" {
		p.prof = parser.Generic()
	}
	if _, seen := r.panes[e.Pane]; !seen {
		r.order = append(r.order, e.Pane)
		slices.Sort(r.order)
	}
	r.panes[e.Pane] = p
	p.observe()
}

// output handles new bytes in a pane's terminal.
func (r *Relay) output(p *pane, now time.Time) {
	p.notePrompt(now, r.cfg.Settle)
	p.lastOut, p.outSeen = now, true
	p.observe()
	p.noteEcho()
	if p.hookIdle {
		// Its hook said the turn ended and nothing was typed since: what it draws now
		// is that turn's tail (Gemini CLI redraws an "Executing Hook" row and its
		// footer after its hook reported), not a turn of its own to read from the
		// screen. It is old from here; a turn it takes by itself ends by its hook.
		p.setBaseline()
		p.tail = true
	} else {
		p.printed = true
	}
	if d := p.inflight; d != nil && d.phase == Submitted {
		r.confirm(p, d, now)
	} else if d != nil && d.phase == Typed && !d.shown {
		d.shown = stillInInput(p, d) // the echo of its typing: then whether it goes
	}
}

// step runs every decision that may be due at now and returns the writes.
func (r *Relay) step(now time.Time) []Action {
	var acts []Action
	for _, id := range r.order {
		r.panes[id].settle(now)
	}
	for _, id := range r.order {
		p := r.panes[id]
		if !p.exited && !p.started && p.startedBy(now, r.cfg) {
			r.start(p, now)
		}
	}
	r.dropGoneDrafts(now)
	r.endTurns(now)
	advanced := false
	for _, id := range r.order {
		if p := r.panes[id]; !p.exited && p.inflight != nil {
			acts = r.advance(p, now, acts)
			advanced = true
		}
	}
	if advanced {
		// A delivery that landed (failed, confirmed) leaves its pane free: a draft its
		// screen shows gone and a turn that ended meanwhile are due now, not at some
		// later event, which no wake-up awaits.
		r.dropGoneDrafts(now)
		r.endTurns(now)
	}
	r.fire(now)
	for _, id := range r.order {
		p := r.panes[id]
		if p.exited {
			continue
		}
		r.expire(p, now)
		if p.inflight != nil {
			continue
		}
		switch {
		case p.clearing != nil:
			acts = r.cleared(p, now, acts)
		case r.restoreDue(p, now):
			acts = r.restore(p, now, acts)
		case len(p.queue) > 0:
			acts = r.ready(p, now, acts)
		}
	}
	return acts
}

// dropGoneDrafts forgets the draft of every pane whose screen shows it gone while it
// holds something back (drafts.go): the screen wins; a turn may end and deliveries go.
func (r *Relay) dropGoneDrafts(now time.Time) {
	for _, id := range r.order {
		if p := r.panes[id]; !p.exited && p.draft && r.draftHolds(p) && r.inputGone(p, now) {
			r.dropDraft(p, now)
		}
	}
}

// endTurns ends the turn of every pane that printed and has been quiet long enough
// (since the person's last key in it too: turnQuietAt), with nothing in flight, no
// draft and no clear keys pending.
func (r *Relay) endTurns(now time.Time) {
	for _, id := range r.order {
		p := r.panes[id]
		if !p.turnEndable() {
			continue
		}
		if at, ok := p.turnQuietAt(r.cfg); ok && !now.Before(at) {
			r.turnEnded(p, now)
		}
	}
}

// turnEndable reports whether p's turn ends once it has been quiet long enough
// (endTurns): it printed since it started, and nothing is in flight, drafted or being
// cleared in it.
func (p *pane) turnEndable() bool {
	return !p.exited && p.started && p.printed && p.inflight == nil && !p.draft && p.clearing == nil
}

// start marks p started: it finished starting (or its hook said a turn ended).
func (r *Relay) start(p *pane, now time.Time) {
	p.started = true
	if len(p.typed) == 0 && !p.bootTurn {
		p.setBaseline() // a banner printed while starting is no turn
		p.blankStart = blank(p.scr.Read(NoLines).Rows)
	}
	if r.cfg.Brief || p.prof.Brief {
		r.queueBrief(p, now)
	}
}

// submitted moves p's baseline to where a person's text was just submitted, its cursor
// on the input row, unless a turn is under way: what the pane printed before (a turn of
// its own the person's draft held back, relayed now, or a banner while it started) is
// not part of the turn the text starts.
func (r *Relay) submitted(p *pane, now time.Time) {
	switch {
	case p.inflight != nil || p.turn || p.bootTurn:
	case p.blankStart:
		// What it drew since it started on a blank screen is its UI and the draft
		// being sent: old, whatever the UI holds.
		p.rebase()
	case p.started && p.printed && !p.echo:
		r.endTurn(p, now)
	case !p.started:
		p.setBaseline()
		p.base.Starting = true // the rest of its start-up may follow
	}
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
