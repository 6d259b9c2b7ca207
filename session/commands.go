package session

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/usage"
	"github.com/agentmux/agentmux/vterm"
)

// This file is the session's API: commands (queued to the loop in call order) and
// queries (answered by the loop, as copies).

// Key sends a key a person typed to pane id, encoded for the modes its program set, and
// tells the relay (a draft holds deliveries into the pane). Dropped for an exited pane.
// The relay hears of the key first: at an Enter it reads the screen for the baseline of
// the turn the text starts, which must not depend on whether the echo of the Enter
// (the cursor moved to the next row) raced into the emulator already.
func (s *Session) Key(id int, k keys.Key) {
	s.post(func() {
		p := s.pane(id)
		if p == nil || p.exited {
			return
		}
		m, _ := s.mode(p)
		b := keys.Encode(k, m)
		s.act(s.rl.Handle(s.drafts.key(id, k), s.clock.Now()))
		if !p.exited {
			s.toPerson(p, b)
		}
	})
}

// Paste sends a person's paste to pane id: one bracketed paste when its program enabled
// mode 2004, plain bytes otherwise. It joins the pane's draft.
func (s *Session) Paste(id int, text string) {
	s.post(func() {
		p := s.pane(id)
		if p == nil || p.exited {
			return
		}
		_, md := s.mode(p)
		s.toPerson(p, keys.EncodePaste(text, md.BracketedPaste))
		for _, ev := range s.drafts.paste(id, text, !md.BracketedPaste) {
			s.act(s.rl.Handle(ev, s.clock.Now()))
		}
	})
}

// Mouse sends a mouse event to pane id at pane-local cell (x, y), encoded as its program
// asked (nothing when its mode does not report that event).
func (s *Session) Mouse(id int, ev keys.Mouse, x, y int) {
	s.post(func() {
		p := s.pane(id)
		if p == nil || p.exited {
			return
		}
		_, md := s.mode(p)
		s.toPerson(p, keys.EncodeMouse(ev, x, y, keys.MouseMode(md.Mouse), keys.MouseEncoding(md.MouseEnc)))
	})
}

// FocusReport tells every pane whose program asked for focus events (mode 1004) that
// the outer terminal gained (in) or lost focus.
func (s *Session) FocusReport(in bool) {
	s.post(func() {
		for _, p := range s.panes {
			if _, md := s.mode(p); !p.exited && md.FocusEvents {
				s.toPerson(p, keys.EncodeFocus(in))
			}
		}
	})
}

// Input writes raw bytes to pane id for the person (through the typing gate), without
// draft tracking: already-encoded keys such as the wheel's arrows.
func (s *Session) Input(id int, b []byte) {
	b = append([]byte(nil), b...)
	s.post(func() {
		if p := s.pane(id); p != nil {
			s.toPerson(p, b)
		}
	})
}

// Resize sets pane id's emulator and window size (at least 1×1); nothing when unchanged.
// It returns once the emulator has its new size, so a Snapshot taken next shows it.
func (s *Session) Resize(id, cols, rows int) {
	s.call(func() {
		p := s.pane(id)
		cols, rows := max(cols, 1), max(rows, 1)
		if p == nil || p.cols == cols && p.rows == rows {
			return
		}
		p.cols, p.rows = cols, rows
		p.term.Resize(cols, rows)
		if !p.exited {
			if err := p.proc.Resize(cols, rows); err != nil {
				s.log.Warn("resize pane", "pane", id, "err", err)
			}
		}
		// Its picture changed, whether or not its program draws again: a web page
		// (or another subscriber) redraws it at the new size now.
		s.emit(Output{Pane: id, Quiet: true})
	})
}

// SetColors hands the outer terminal's default colours to every emulator (for its OSC
// 10/11 answers), now and for panes started later.
func (s *Session) SetColors(c vterm.Colors) {
	s.post(func() {
		s.colors = c
		for _, p := range s.panes {
			p.term.SetColors(c)
		}
	})
}

// SetKittyKeyboard says whether keys may be encoded in the kitty keyboard protocol:
// every emulator then answers a program's CSI ? u query.
func (s *Session) SetKittyKeyboard(on bool) {
	s.post(func() {
		s.kitty = on
		for _, p := range s.panes {
			p.term.SetKittyKeyboard(on)
		}
	})
}

// Link puts pane a into pane b's relay group (a group of the two if b has none). A
// pane running a shell is refused (ErrShell): linked, it would run what an agent
// answered; LinkShell links it when the person said so.
func (s *Session) Link(a, b int) error { return s.link(a, b, false) }

// LinkShell is Link that also links a pane running a shell.
func (s *Session) LinkShell(a, b int) error { return s.link(a, b, true) }

func (s *Session) link(a, b int, shell bool) error {
	return s.command(func() error { return s.linkNow(a, b, shell, false, 0) })
}

// LinkByPane is Link as a pane's program asks for it (`agentmux link` from inside a
// pane): it renews no budget, and a link whose budget was spent since a person linked
// it is refused (relay.ErrBudgetSpent) until a person links it (relay.LinkByPane).
func (s *Session) LinkByPane(a, b int) error {
	return s.command(func() error { return s.linkNow(a, b, false, true, 0) })
}

// linkNow links pane a with pane b, in the loop; byPane says a pane's program asked;
// turns (above 0) is the link's turn budget, a person's.
func (s *Session) linkNow(a, b int, shell, byPane bool, turns int) error {
	pa, pb := s.pane(a), s.pane(b)
	switch {
	case pa == nil || pa.exited:
		return fmt.Errorf("link %d: %w", a, ErrNoPane)
	case pb == nil || pb.exited:
		return fmt.Errorf("link with %d: %w", b, ErrNoPane)
	case a == b:
		return ErrSelf
	case !shell && runsShell(pa):
		return fmt.Errorf("link %d %s (%s): %w", a, pa.name, pa.program(), ErrShell)
	case !shell && runsShell(pb):
		return fmt.Errorf("link with %d %s (%s): %w", b, pb.name, pb.program(), ErrShell)
	}
	// The person links them knowing (shell): a shell among them stays linked
	// (shellOK); any other link is made without that word, for either pane.
	pa.shellOK = shell && runsShell(pa)
	pb.shellOK = shell && runsShell(pb)
	if byPane {
		acts, err := s.rl.LinkByPane(a, b, s.clock.Now())
		s.act(acts)
		return err
	}
	s.act(s.rl.Handle(relay.Link{Pane: a, With: b, Turns: turns}, s.clock.Now()))
	return nil
}

// LinkAll puts the listed panes (when ids is empty: every running pane but those
// running a shell, see IsShell) into one new group with a fresh budget.
func (s *Session) LinkAll(ids ...int) error {
	return s.command(func() error {
		var shells []int
		named := len(ids) > 0 // the person named them, shells too
		if !named {
			ids, shells = s.agentIDs()
		}
		var live []int
		for _, id := range ids {
			if p := s.pane(id); p != nil && !p.exited {
				live = append(live, id)
				p.shellOK = p.shellOK || named && runsShell(p)
			}
		}
		if len(live) < 2 {
			if len(shells) > 0 {
				s.act(s.rl.Handle(relay.LinkAll{Left: shells}, s.clock.Now())) // says why
				return fmt.Errorf("%w (shells are left out)", ErrTooFew)
			}
			return ErrTooFew
		}
		s.act(s.rl.Handle(relay.LinkAll{Panes: live, Left: shells}, s.clock.Now()))
		return nil
	})
}

// RestoredLink is a restored session's relay group as it was: its members (pane
// numbers), the turns it spent of its budget, and its spend budget (zero: none) with
// what it spent of it.
type RestoredLink struct {
	Members      []int
	Used, Budget int
	Limit        usage.Budget
	Spent        SpendTotal
}

// LinkRestored puts the listed running panes into one new group that has spent what
// it had: a restored session's group as it was. Shells are linked as they were (the
// person linked them before).
func (s *Session) LinkRestored(l RestoredLink) error {
	return s.command(func() error {
		var live []int
		for _, id := range l.Members {
			if p := s.pane(id); p != nil && !p.exited {
				live = append(live, id)
				p.shellOK = p.shellOK || runsShell(p)
			}
		}
		if len(live) < 2 {
			return ErrTooFew
		}
		s.act(s.rl.Handle(relay.LinkAll{Panes: live, Used: l.Used, Budget: max(l.Budget, 1), Limit: l.Limit, Spent: l.Spent}, s.clock.Now()))
		return nil
	})
}

// Budgets returns what the budgets outside the live groups have spent (relay.Budgets),
// for a record that a restore hands back (RestoreBudgets).
func (s *Session) Budgets() Budgets {
	var b Budgets
	s.call(func() { b = s.rl.Budgets() })
	return b
}

// RestoreBudgets hands a restored session's Budgets back, by pane number, so a restart
// renews no budget a person did not. Call it after LinkRestored: a link renews its
// members' budgets as a person's does.
func (s *Session) RestoreBudgets(b Budgets) error {
	return s.command(func() error {
		s.act(s.rl.Handle(relay.RestoreBudgets{Budgets: b}, s.clock.Now()))
		return nil
	})
}

// Unlink takes pane a out of its group; deliveries waiting for it are dropped.
func (s *Session) Unlink(a int) error {
	return s.command(func() error {
		if ps, ok := s.rl.Pane(a); !ok || ps.Exited || s.pane(a) == nil {
			return fmt.Errorf("unlink %d: %w", a, ErrNoPane)
		} else if ps.Group == 0 {
			return fmt.Errorf("pane %d is %w", a, ErrNotLinked)
		}
		s.act(s.rl.Handle(relay.Unlink{Pane: a}, s.clock.Now()))
		s.pane(a).shellOK = false // the person's word was for that link
		return nil
	})
}

// Hold holds deliveries into pane a (a person is driving it) until Release.
func (s *Session) Hold(a int) error { return s.hold(a, true) }

// Release lets deliveries into pane a go again.
func (s *Session) Release(a int) error { return s.hold(a, false) }

func (s *Session) hold(a int, on bool) error {
	return s.command(func() error {
		if p := s.pane(a); p == nil || p.exited {
			return fmt.Errorf("hold %d: %w", a, ErrNoPane)
		}
		s.act(s.rl.Handle(relay.Hold{Pane: a, On: on}, s.clock.Now()))
		return nil
	})
}

// Address turns pane a's own addressing switch on or off: with it on, the relay commands
// pane a's program prints may reach panes it is not linked with (--address turns it on
// for every pane; see the README's Addressing: a risk). The relay notes the change in
// its log; Member.Addressing follows.
func (s *Session) Address(a int, on bool) error {
	return s.command(func() error {
		if p := s.pane(a); p == nil || p.exited {
			return fmt.Errorf("address %d: %w", a, ErrNoPane)
		}
		s.act(s.rl.Handle(relay.Address{Pane: a, On: on}, s.clock.Now()))
		return nil
	})
}

// Brief queues the brief for pane a again (its name, the other panes, how to address
// them), typed like a delivery once the pane is idle; it costs no turn.
func (s *Session) Brief(a int) error {
	return s.command(func() error {
		if p := s.pane(a); p == nil || p.exited {
			return fmt.Errorf("brief %d: %w", a, ErrNoPane)
		}
		s.act(s.rl.Handle(relay.Brief{Pane: a}, s.clock.Now()))
		return nil
	})
}

// Close removes pane a: it leaves the relay (deliveries to it are dropped), subscribers
// get Closed at once, and its process group is ended in the background (a second Closed
// with Done set carries how that went, and Options.Closed's note).
func (s *Session) Close(a int) error {
	return s.command(func() error {
		p := s.pane(a)
		if p == nil {
			return fmt.Errorf("close %d: %w", a, ErrNoPane)
		}
		for i, q := range s.panes {
			if q == p {
				s.panes = append(s.panes[:i:i], s.panes[i+1:]...)
				break
			}
		}
		if p.held != nil {
			p.held.resolve(fmt.Errorf("answer %d %s: the pane was closed before the answer could be typed: %w", a, p.name, ErrNoPane))
			p.held = nil
		}
		s.pace.forget(a)
		delete(s.drafts, a)
		s.gate.open(a)
		delete(s.members, a)
		s.act(s.rl.Handle(relay.Exit{Pane: a, Closed: true}, s.clock.Now()))
		s.log.Info("pane closed", "pane", a)
		s.emit(Closed{Pane: a})
		s.wg.Go(func() {
			err := p.proc.Close()
			var note string
			if s.opts.Closed != nil {
				note = s.opts.Closed(p.spec)
			}
			s.post(func() { s.emit(Closed{Pane: a, Done: true, Err: err, Note: note}) })
		})
		return nil
	})
}

// SendOptions are a message's delivery options (the socket's: proto.SendOptions): its
// id, mode ("" or proto.ModeSequential, ModeImportant, ModeUrgent), timeout, and the
// notices its sender asked for.
type SendOptions = proto.SendOptions

// The modes of a message, least urgent first, as the relay log shows them (Entry.Mode).
const (
	Sequential = relay.Sequential
	Important  = relay.Important
	Urgent     = relay.Urgent
)

// modeOf reads a message's mode.
func modeOf(m string) (relay.Mode, error) {
	switch m {
	case "", proto.ModeSequential:
		return Sequential, nil
	case proto.ModeImportant:
		return Important, nil
	case proto.ModeUrgent:
		return Urgent, nil
	}
	return 0, fmt.Errorf("mode %q: not sequential, important or urgent", m)
}

// Send types text into the pane named or numbered to, from the member named from,
// like a relay delivery: attributed, idle-gated, never over a person's draft, with
// the options o. A pane's name sends as that pane (its group's or its direct budget);
// any other name is an external member, framed "NAME:", with a direct budget of
// --turns per pane, and gets its notices as Mail events. The delivery's events carry
// o.ID (Entry.ID; Mail.ID), the caller's id of the message.
func (s *Session) Send(from, to, text string, o SendOptions) error {
	mode, err := modeOf(o.Mode)
	if err != nil {
		return fmt.Errorf("send: %w", err)
	}
	ro := relay.Options{ID: o.ID, Mode: mode, Timeout: o.Timeout, NotifyOnDelivery: o.NotifyOnDelivery,
		NotifyAfter: o.NotifyAfter, Person: o.Person, BeforeSubmit: o.BeforeSubmit, Link: o.Link, Spent: o.LinkSpent}
	return s.command(func() error {
		from = strings.TrimSpace(from)
		if from == "" {
			return fmt.Errorf("send: no sender name")
		}
		if err := s.notStarted(to); err != nil {
			return fmt.Errorf("send to %q: %w", to, err)
		}
		msg := relay.Send{FromName: from, To: s.live(to), Text: text, Options: ro}
		if msg.To == 0 && o.Link != "" {
			// A turn of a link with another session, sent before that side heard the
			// pane was renamed: the link names its pane.
			msg.To = s.rl.LinkedPane(o.Link)
		}
		if msg.To == 0 {
			if why, gone := s.rl.Gone(to); gone {
				return fmt.Errorf("%s: %w", why, relay.ErrGone)
			}
			return fmt.Errorf("send to %q: %w", to, relay.ErrNoAddressee)
		}
		if err := s.intoShell(msg.To, from, o.Person, o.Link); err != nil {
			return fmt.Errorf("send to %q: %w", to, err)
		}
		if n := s.live(from); n != 0 {
			msg.From, msg.FromName = n, ""
		}
		id, acts, err := s.rl.Message(msg, s.clock.Now())
		if err == nil && o.BeforeSubmit != nil {
			s.beforeSubmit[id] = o.BeforeSubmit
		}
		s.act(acts)
		return err
	})
}

// Remind types "[agentmux] reminder: TEXT" into the pane named or numbered to after
// the delay, for the member named from (the person when o.Person). Its Delivery events
// carry o.ID (Entry.ID), the caller's id of the reminder. A reminder names no sender and
// spends no budget: from anyone but the person it goes only into the sender's own pane
// (ErrRemindOther).
func (s *Session) Remind(from, to, text string, after time.Duration, o SendOptions) error {
	return s.command(func() error {
		if err := s.notStarted(to); err != nil {
			return fmt.Errorf("remind %q: %w", to, err)
		}
		n := s.live(to)
		if n == 0 {
			return fmt.Errorf("remind %q: %w", to, relay.ErrNoAddressee)
		}
		if strings.TrimSpace(text) == "" {
			return fmt.Errorf("remind %q: %w", to, relay.ErrEmpty)
		}
		if err := s.intoShell(n, from, o.Person, ""); err != nil {
			return fmt.Errorf("remind %q: %w", to, err)
		}
		if p := s.pane(n); !o.Person && p != nil && !proto.SameName(p.name, from) {
			return fmt.Errorf("remind %q from %s: %w", to, from, ErrRemindOther)
		}
		_, acts := s.rl.Reminder(relay.Remind{Pane: n, Text: text, After: after, ID: o.ID}, s.clock.Now())
		s.act(acts)
		return nil
	})
}

// notStarted is proto.ErrNotStarted when the pane named or numbered to shows a note
// in place of a program that could not start (PaneSpec.NotStarted), else nil.
func (s *Session) notStarted(to string) error {
	if p := s.find(to); p != nil && p.spec.NotStarted {
		return proto.ErrNotStarted
	}
	return nil
}

// intoShell refuses what from sends into pane to when it runs an interactive shell,
// which would run the text as commands (ErrShellSend), as linking one is refused
// (ErrShell): the person may send to it, and so may the pane itself (whatever runs in
// it runs commands there already), and a link with another session the person made
// with --shell may bring it its turns (link, the link's tag). The sender's name is
// the hub's, checked: a pane's program sends as its pane, or as a name it picks that
// names no pane.
func (s *Session) intoShell(to int, from string, person bool, link string) error {
	p := s.pane(to)
	switch {
	case p == nil || person || !runsShell(p):
		return nil
	case link != "" && s.rl.LinkedPane(link) == to:
		return nil
	case proto.SameName(p.name, from): // by name: a number is no sender's name
		return nil
	}
	return fmt.Errorf("%d %s (%s): %w", p.id, p.name, p.program(), ErrShellSend)
}

// Hook reports that the program in the pane named or numbered pane ended its turn, as
// its hook said (`agentmux hook`), with its answer as the model wrote it (text, "" when
// the hook had none) and the hook's name (source, for the relay log). A pane started
// without hooks ignores it: its turns end by its screen.
func (s *Session) Hook(pane, text, source string) error {
	return s.command(func() error {
		p := s.find(pane)
		if p == nil || p.exited {
			return fmt.Errorf("hook from %q: %w", pane, ErrNoPane)
		}
		if !p.hooks {
			s.log.Debug("hook from a pane without hooks: ignored", "pane", p.id, "source", source)
			return nil
		}
		s.log.Debug("hook", "pane", p.id, "source", source, "chars", len(text))
		p.hookAsk = ""
		s.act(s.rl.Handle(relay.TurnEnd{Pane: p.id, Text: text, Source: source}, s.clock.Now()))
		return nil
	})
}

// RegisterMember makes name an external member: a member that is not a pane (a protocol
// client). A pane's relay command addressed to it (`@relay:NAME`), or its broadcast,
// is handed to sink from the loop (which must not block), within the rules for an
// unlinked pane (relay.External: addressing opt-in, the pair's direct budget); so are
// the relay's notices for it as a sender (From "", Kind "state"). Send with from = name
// reaches panes. The returned func unregisters it.
func (s *Session) RegisterMember(name string, sink Sink) (func(), error) {
	name = strings.TrimSpace(name)
	err := s.command(func() error {
		if name == "" || s.find(name) != nil || s.external[strings.ToLower(name)] != nil {
			return fmt.Errorf("register %q: %w", name, ErrNameTaken)
		}
		s.external[strings.ToLower(name)] = sink
		s.act(s.rl.Handle(relay.External{Name: name}, s.clock.Now()))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return func() {
		s.post(func() {
			delete(s.external, strings.ToLower(name))
			s.act(s.rl.Handle(relay.External{Name: name, Gone: true}, s.clock.Now()))
		})
	}, nil
}

// Sync returns once every command called before it has run, and its events have gone
// to the subscribers.
func (s *Session) Sync() { s.call(func() {}) }

// Subscribe returns a new subscription to the session's events from now on, with a
// queue of at most limit events (0: DefaultQueue). Read Members and Status for the
// state it starts from.
func (s *Session) Subscribe(limit int) *Subscription {
	sub := newSubscription(limit)
	if !s.call(func() { s.subs = append(s.subs, sub) }) {
		sub.end(ErrStopped)
	}
	return sub
}

// Members returns every pane's member (in number order), then the external members.
func (s *Session) Members() []Member {
	var out []Member
	s.call(func() {
		for _, p := range s.panes {
			out = append(out, s.member(p))
		}
		for _, name := range slices.Sorted(maps.Keys(s.external)) {
			out = append(out, Member{Name: name, External: true, State: Idle})
		}
	})
	return out
}

// Resolve returns the number of the pane named (in any case) or numbered ref: the one
// place a pane's name or number is read, for every client.
func (s *Session) Resolve(ref string) (int, error) {
	id := 0
	if !s.call(func() {
		if p := s.find(ref); p != nil {
			id = p.id
		}
	}) {
		return 0, ErrStopped
	}
	if id == 0 {
		return 0, fmt.Errorf("%q: %w", ref, ErrNoPane)
	}
	return id, nil
}

// Member returns pane id's member.
func (s *Session) Member(id int) (Member, bool) {
	var m Member
	ok := false
	s.call(func() {
		if p := s.pane(id); p != nil {
			m, ok = s.member(p), true
		}
	})
	return m, ok
}

// Status returns the relay's summary.
func (s *Session) Status() Status {
	var st Status
	s.call(func() { st = s.relayStatus() })
	return st
}

// Log returns a copy of the relay log, oldest first, and how many entries were ever
// logged (older ones are dropped past the log's limit), so the absolute number of the
// first entry returned is logged-len(entries).
func (s *Session) Log() (entries []Entry, logged int) {
	s.call(func() { entries, logged = s.rl.Log(), s.rl.Logged() })
	return entries, logged
}

// Screen returns pane id's read-only screen, nil when there is no such pane.
func (s *Session) Screen(id int) *Screen {
	var sc *Screen
	s.call(func() {
		if p := s.pane(id); p != nil {
			sc = p.screen
		}
	})
	return sc
}

// command runs f on the loop and returns its error (ErrStopped once stopped).
func (s *Session) command(f func() error) error {
	var err error
	if !s.call(func() { err = f() }) {
		return ErrStopped
	}
	return err
}

// Capture returns pane id's text: up to history lines of its history, then its screen,
// one line per row with trailing blanks trimmed. With sgr each row also carries its
// colours and attributes as SGR sequences (starting and ending in the default style).
// It reads the emulator on the caller's goroutine.
func (s *Session) Capture(id int, history int, sgr bool) (string, error) {
	sc := s.Screen(id)
	if sc == nil {
		return "", fmt.Errorf("capture %d: %w", id, ErrNoPane)
	}
	var rows []*vterm.Line
	if n := min(max(history, 0), sc.HistoryLen()); n > 0 {
		rows = append(rows, sc.HistoryLines(sc.HistoryLen()-n, n)...)
	}
	rows = append(rows, sc.Snapshot().Lines...)
	var b strings.Builder
	for _, l := range rows {
		if sgr {
			b.WriteString(styledRow(l))
		} else {
			b.WriteString(plainRow(l))
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// plainRow is a row's text, trailing blanks trimmed.
func plainRow(l *vterm.Line) string {
	if l == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range l.Cells {
		b.WriteString(c.String())
	}
	return strings.TrimRight(b.String(), " ")
}
