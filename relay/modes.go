package relay

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/parser"
)

// Messages with delivery options: what `agentmux send` and the session socket will ask
// for (the socket calls Post; Send and Remind are the same as events).
//
// A message's Mode places it in the target's queue: Urgent ahead of Important ahead of
// Sequential, each in the order they came. Sequential (every relayed turn) waits for the
// target to be idle and its person not drafting, then goes with everything else waiting
// for it in one paste (batch.go). Important goes at the target's first idle moment in a
// paste of important messages only, ahead of what waits, still never over a draft.
// Urgent goes now: a busy target is interrupted with its profile's interrupt keys; once
// it shows idle, or UrgentDelay passed, its input line is cleared (a person's draft set
// aside first and put back after the answer, aside.go), the message typed and submitted.
// A held pane, an approval prompt or a person typing in the last TypingHold still hold
// an urgent message: a person's screen is never written over.
//
// A message not typed within its timeout expires (the log says so); it is never typed
// later. A sender asking to be notified is told when the message is confirmed
// ("[agentmux] delivered to bob (2): "first words…""), and NotifyAfter later is
// reminded of it and of `agentmux capture bob`; a reminder to a pane comes after its
// delay as "[agentmux] reminder: …". Notices and reminders are typed into a pane like a
// delivery, costing no turn; the turn answering a delivery notice is not relayed. For a
// sender that is not a pane they are Mail, which the host routes (TakeMail).

// Mode is how urgently a message goes.
type Mode int

// The modes, least urgent first.
const (
	// Sequential waits for the target to be idle, in turn, batched with what waits.
	Sequential Mode = iota
	// Important goes ahead of sequential messages at the target's first idle moment.
	Important
	// Urgent interrupts a busy target and goes now.
	Urgent
)

// String names the mode as the wire and the log do.
func (m Mode) String() string {
	switch m {
	case Important:
		return "important"
	case Urgent:
		return "urgent"
	}
	return "sequential"
}

// Options are a message's delivery options.
type Options struct {
	// ID is the caller's id of the message, carried and never read by the relay: the
	// delivery's entries (Entry.ID) and the mail about it (Mail.ID) carry it.
	ID   string
	Mode Mode
	// Timeout: a message not typed by then expires (0: Config.DefaultTimeout; that 0:
	// never).
	Timeout time.Duration
	// NotifyOnDelivery tells the sender when the message is confirmed; NotifyAfter
	// (when positive) reminds it that long after the confirmation.
	NotifyOnDelivery bool
	NotifyAfter      time.Duration
	// Person marks a message from the person at the keyboard (`agentmux send` from a
	// shell outside every pane, sender "you"): a person is no loop, so it spends no
	// budget. Only the host can say so; a client's claim is never taken for it.
	Person bool
	// Link, when set, says the message is a turn of the link with another session of
	// that tag (LinkRemote), from its external member, and Spent the turns that side
	// has spent on the link, this one included: it spends no turn here.
	Link  string
	Spent int
	// BeforeSubmit is the host's, carried and never called by the relay: the host calls
	// it just before it first writes the carriage return that submits the message (the
	// Submit of the batch that typed it), so that it can record durably that the pane's
	// program may read it from then on (write-ahead). nil: nothing to call.
	BeforeSubmit func() error
}

// Send queues Text for pane To. From is the sending pane (it spends its group's budget
// or the pair's direct budget, as its @relay commands do); 0 means a sender that is not
// a pane, named FromName (a protocol client: its budgets are the socket's).
type Send struct {
	From     int
	FromName string
	To       int
	Text     string
	Options
}

// Remind types "[agentmux] reminder: Text" into Pane After from now.
type Remind struct {
	Pane  int
	Text  string
	After time.Duration
	// ID is the caller's id of the reminder, which its entries carry (Entry.ID).
	ID string
}

func (Send) isEvent()   {}
func (Remind) isEvent() {}

// Mail is for a member that is not a pane, and the host routes it (for the socket, a
// DELIVER): a notice for a sender (From "", Kind "": a DELIVER of kind state), or a
// pane's relay command addressed to an external member (external.go).
type Mail struct {
	To   string
	At   time.Time
	Text string
	// Delivery is the message a notice is about (0 for a relay command), ID its
	// caller's id (Options.ID).
	Delivery int
	ID       string
	// From and FromPane are the sending pane's name and number, Kind and Thread its
	// command's ("" for a notice).
	From     string
	FromPane int
	Kind     parser.Kind
	Thread   string
	// Link is the tag of the link with another session a pane's turn crosses on
	// (Spent: the turns this side spent on it, this one included), or that ended here
	// (End, Text saying why): remote.go.
	Link  string
	Spent int
	End   bool
	// Rename (with Link) says the pane of the link is now called From (Text: its
	// name before).
	Rename bool
}

// timer is something scheduled: a reminder into a pane, or mail.
type timer struct {
	at   time.Time
	pane int    // the pane it is typed into (0: mail)
	to   string // mail's addressee
	text string
	id   int    // the delivery it is about (0: none)
	msg  string // the id of the message (Options.ID) it is about, or is (a reminder's)
	hush bool   // a delivery notice: the answer to it is not relayed
	// delivery is the number it is typed as, taken when it was scheduled (0: a new one)
	delivery int
}

// Post queues a message as Send does and returns its delivery number (0 when it was
// refused: the log says why) and what the host must write now.
func (r *Relay) Post(s Send, now time.Time) (int, []Action) {
	id, acts, _ := r.Message(s, now)
	return id, acts
}

// Message is Post that also says why a message was refused (ErrNoAddressee, ErrEmpty,
// ErrBudgetSpent, wrapped): the one path every message from outside the screen takes
// (`agentmux send`, the socket's SEND, a Send event).
func (r *Relay) Message(s Send, now time.Time) (int, []Action, error) {
	if now.After(r.now) {
		r.now = now
	}
	acts := r.step(now)
	id, err := r.post(s, now)
	return id, append(acts, r.step(now)...), err
}

// post queues s and returns its delivery number, or 0 and why it was refused (also
// noted in the log). A sender that is not a pane but has a name (an external member)
// spends the direct budget of Config.Turns into the pane, which every such sender
// shares, renewed by a link; the person (Options.Person) spends none.
func (r *Relay) post(s Send, now time.Time) (int, error) {
	q := r.live(s.To)
	if q == nil {
		r.notice(now, s.From, "message to %d: no such pane: not sent", s.To)
		return 0, fmt.Errorf("send to %d: %w", s.To, ErrNoAddressee)
	}
	text := strings.TrimSpace(s.Text)
	if text == "" {
		r.notice(now, s.From, "empty message to %d %s: not sent", q.id, q.name)
		return 0, fmt.Errorf("send to %d %s: %w", q.id, q.name, ErrEmpty)
	}
	name := s.FromName
	if name == "" {
		name = "agentmux"
	}
	var p *pane
	var linked *group // the link whose turn it spends: the turn it starts counts to it
	var err error
	note := ""
	if s.From != 0 {
		switch p = r.live(s.From); {
		case p == nil:
			r.notice(now, s.From, "message from %d to %d %s: no such pane: not sent", s.From, q.id, q.name)
			return 0, fmt.Errorf("send from %d: %w", s.From, ErrNoAddressee)
		case p == q:
			r.notice(now, s.From, "%d %s sent a message to itself: not sent", p.id, p.name)
			return 0, fmt.Errorf("send from %d %s to itself: %w", p.id, p.name, ErrNoAddressee)
		}
		name = p.name
		if g := p.group; g != nil && g == q.group {
			linked = g // a message within a link (a pane's send, one retyped after a restart)
		}
		if !r.spend(p, q, now) {
			return 0, fmt.Errorf("send from %s to %s: %w", p.name, q.name, ErrBudgetSpent)
		}
	} else if s.Link != "" {
		if linked, err = r.fromRemote(s, q); err != nil {
			r.notice(now, q.id, "%v", err)
			return 0, err
		}
		note = "turn of " + linked.label()
	} else if s.Person {
		note = "sent by " + name
		switch {
		case r.capped:
			r.notice(now, q.id, "session spend cap reached (%s of %s): your message to %d %s goes; the agents' deliveries are held", r.session, r.cfg.SessionBudget, q.id, q.name)
		case q.capped:
			r.notice(now, q.id, "pane spend cap reached (%s of %s): your message to %d %s goes; the agents' deliveries into it are held", q.spent, r.cfg.PaneBudget, q.id, q.name)
		}
	} else if s.FromName != "" {
		// The pair's budget (which the pane's commands to the member spend too), and
		// one budget into the pane for every client sender together: a sender that
		// takes a new name for every message gets no new turns.
		k, all := extPair{strings.ToLower(s.FromName), q.id}, extPair{"", q.id}
		if r.external[k] >= r.cfg.Turns {
			r.notice(now, 0, "budget spent (%d/%d) for %s into %d %s: not sent; link %d to renew it", r.external[k], r.cfg.Turns, s.FromName, q.id, q.name, q.id)
			return 0, fmt.Errorf("send from %s to %s: %w (%d/%d)", s.FromName, q.name, ErrBudgetSpent, r.external[k], r.cfg.Turns)
		}
		if r.external[all] >= r.cfg.Turns {
			r.notice(now, 0, "budget spent (%d/%d) for clients into %d %s: message from %s not sent; link %d to renew it", r.external[all], r.cfg.Turns, q.id, q.name, s.FromName, q.id)
			return 0, fmt.Errorf("send from %s to %s: %w (%d/%d from clients)", s.FromName, q.name, ErrBudgetSpent, r.external[all], r.cfg.Turns)
		}
		if r.external == nil {
			r.external = map[extPair]int{}
		}
		r.external[k]++
		r.external[all]++
		note = "sent by " + s.FromName
	}
	words := cut(sanitize(text, true), r.cfg.Limit)
	framed := frame(r.cfg.Template, name, s.From, words)
	if p == nil {
		framed = frame(externalFrame, name, 0, words)
	}
	r.nDeliv++
	d := &delivery{id: r.nDeliv, from: s.From, fromName: name, to: q.id, words: words, framed: framed, phase: Waiting, opts: s.Options, link: linked}
	if linked != nil {
		d.linkName = linked.label()
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = r.cfg.DefaultTimeout
	}
	if timeout > 0 {
		d.expires = now.Add(timeout)
	}
	d.entry = r.log(Entry{
		At: now, Delivery: d.id, From: s.From, FromName: name, To: q.id, ToName: q.name, ID: s.ID,
		Size: utf8.RuneCountInString(words), Words: summary(words), Body: words, Phase: Waiting, Mode: s.Mode, Note: note,
	})
	r.enqueue(q, d)
	if linked != nil && linked.spent() >= linked.budget {
		r.sever(linked, now) // what was paid for still goes
	}
	return d.id, nil
}

// spend takes a turn for a message from pane p to q: its group's budget when both are
// members, else the pair's direct budget. false: spent (noted).
func (r *Relay) spend(p, q *pane, now time.Time) bool {
	if g := p.group; g != nil && g == q.group {
		if g.spent() >= g.budget {
			r.notice(now, p.id, "budget spent (%d/%d): message from %d %s not sent; relink to continue", g.spent(), g.budget, p.id, p.name)
			return false
		}
		g.used++
		if g.spent() >= g.budget {
			r.sever(g, now)
		}
		return true
	}
	k := pairOf(p.id, q.id)
	if r.direct[k] >= r.cfg.Turns {
		r.notice(now, p.id, "direct budget spent (%d/%d) between %d and %d: message from %d %s not sent; link them to continue", r.direct[k], r.cfg.Turns, k[0], k[1], p.id, p.name)
		return false
	}
	r.direct[k]++
	return true
}

// enqueue puts d in q's queue behind every delivery as urgent as it or more.
func (r *Relay) enqueue(q *pane, d *delivery) {
	i := len(q.queue)
	for i > 0 && q.queue[i-1].opts.Mode < d.opts.Mode {
		i--
	}
	q.queue = slices.Insert(q.queue, i, d)
}

// Reminder schedules a reminder as a Remind event does and returns the delivery number
// it will be typed as (0 when refused: no such pane, or no words) and what the host
// must write now. The number is taken now, so the host can follow the reminder's
// phases from the start.
func (r *Relay) Reminder(e Remind, now time.Time) (int, []Action) {
	if now.After(r.now) {
		r.now = now
	}
	acts := r.step(now)
	id := r.remind(e, now)
	return id, append(acts, r.step(now)...)
}

// remind schedules a reminder into a pane and returns its delivery number.
func (r *Relay) remind(e Remind, now time.Time) int {
	p := r.live(e.Pane)
	if p == nil || strings.TrimSpace(e.Text) == "" {
		r.notice(now, e.Pane, "reminder for %d: no such pane, or no words: not kept", e.Pane)
		return 0
	}
	r.nDeliv++
	r.timers = append(r.timers, &timer{at: now.Add(max(e.After, 0)), pane: p.id, delivery: r.nDeliv, msg: e.ID, text: "[agentmux] reminder: " + strings.TrimSpace(e.Text)})
	if e.After <= 0 {
		r.fire(now)
	}
	return r.nDeliv
}

// notify tells d's sender that d was confirmed, and schedules its NotifyAfter reminder.
func (r *Relay) notify(d *delivery, now time.Time) {
	o := d.opts
	if !o.NotifyOnDelivery && o.NotifyAfter <= 0 {
		return
	}
	q := r.panes[d.to]
	first := fmt.Sprintf("%q", firstWordsOf(d.words))
	if o.NotifyOnDelivery {
		r.tell(d, fmt.Sprintf("[agentmux] delivered to %s (%d): %s", q.name, q.id, first), now, now, true)
	}
	if o.NotifyAfter > 0 {
		text := fmt.Sprintf("[agentmux] reminder: your message to %s (%d) %s was delivered %s ago; to see what %s did: agentmux capture %s",
			q.name, q.id, first, o.NotifyAfter, q.name, q.name)
		r.tell(d, text, now.Add(o.NotifyAfter), now, false)
	}
}

// tell schedules text for d's sender at at: into its pane, or as mail; hush: the
// pane's answer to it is not relayed.
func (r *Relay) tell(d *delivery, text string, at, now time.Time, hush bool) {
	t := &timer{at: at, pane: d.from, text: text, id: d.id, msg: d.opts.ID, hush: hush}
	if d.from == 0 {
		t.to = d.fromName
	}
	r.timers = append(r.timers, t)
	if !at.After(now) {
		r.fire(now)
	}
}

// fire runs the timers due at now: mail is posted, a pane's notice queued like a
// delivery (no turn spent; a delivery notice's answer is not relayed).
func (r *Relay) fire(now time.Time) {
	var keep []*timer
	for _, t := range r.timers {
		if t.at.After(now) {
			keep = append(keep, t)
			continue
		}
		if t.pane == 0 {
			r.mail = append(r.mail, Mail{To: t.to, At: now, Text: t.text, Delivery: t.id, ID: t.msg})
			continue
		}
		p := r.live(t.pane)
		if p == nil {
			r.notice(now, t.pane, "not typed into %d, gone: %s", t.pane, t.text)
			continue
		}
		n, id := t.delivery, t.msg // a reminder's number and id, taken when scheduled
		if n == 0 {
			r.nDeliv++
			n, id = r.nDeliv, "" // a notice is no message of its own
		}
		d := &delivery{id: n, to: p.id, fromName: "agentmux", words: t.text, framed: t.text, phase: Waiting, quiet: t.hush}
		d.entry = r.log(Entry{
			At: now, Delivery: d.id, FromName: "agentmux", To: p.id, ToName: p.name, ID: id,
			Size: utf8.RuneCountInString(t.text), Words: summary(t.text), Phase: Waiting, Note: "notice",
		})
		r.enqueue(p, d)
	}
	r.timers = keep
}

// firstWordsOf returns the first words of text for a notice: at most 40 characters on
// one line, "…" when cut.
func firstWordsOf(text string) string {
	s := strings.Join(strings.Fields(text), " ")
	if rs := []rune(s); len(rs) > 40 {
		s = strings.TrimRight(string(rs[:39]), " ") + "…"
	}
	return s
}

// TakeMail returns the notices for senders that are not panes since the last call, in
// order, and forgets them.
func (r *Relay) TakeMail() []Mail {
	m := r.mail
	r.mail = nil
	return m
}

// expire marks the deliveries waiting for p whose timeout passed as expired: they are
// never typed.
func (r *Relay) expire(p *pane, now time.Time) {
	p.queue = slices.DeleteFunc(p.queue, func(d *delivery) bool {
		if d.expires.IsZero() || now.Before(d.expires) {
			return false
		}
		r.setPhase(d, Expired, now, "not typed within its timeout")
		return true
	})
}
