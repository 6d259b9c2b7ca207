package mesh

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/proto"
)

// The sending side hears a crossing message's delivery phases (amux.FROM.ph.TO): each
// is an event of the session (Kind "delivery", ID the message's ref, so `agentmux send
// --wait` and `events` follow it as within the session); its final phase is noted in
// the relay log; and a sender that asked for notices (--notify-on-delivery,
// --notify-after) is told once the other side's pane took it: a pane sender has the
// notice typed into it (costing no turn, its answer not relayed), any other gets it as
// a "mail" event.

// outgoing is a message a member of this session sent to another session, kept until
// its final phase comes back.
type outgoing struct {
	from, to string // the sender's name here; NAME@SESSION
	words    string // its first words
	notify   bool
	after    time.Duration
	// own: the node recorded it in the store (outItem.rec), not the session's socket.
	own bool
}

// maxTracked bounds the messages kept for their final phase's note: beyond it (a flood
// to a session that is down) only those that asked for notices are kept.
const maxTracked = 4096

// sentLog is the outgoing messages by id (Send runs on the hub's goroutine, their
// phases come back on the node's loop).
type sentLog struct {
	mu      sync.Mutex
	m       map[string]outgoing
	timers  map[*time.Timer]bool // reminders due later (--notify-after), until they ran
	stopped bool
}

// later runs f after d, unless stop comes first.
func (l *sentLog) later(d time.Duration, f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	if l.timers == nil {
		l.timers = map[*time.Timer]bool{}
	}
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		l.mu.Lock()
		delete(l.timers, t)
		l.mu.Unlock()
		f()
	})
	l.timers[t] = true
}

// stop stops the reminders not yet due (the node closes).
func (l *sentLog) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	for t := range l.timers {
		t.Stop()
	}
	l.timers = nil
}

func (l *sentLog) add(id string, o outgoing) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]outgoing{}
	}
	if len(l.m) < maxTracked || o.notify || o.after > 0 || o.own {
		l.m[id] = o
	}
}

func (l *sentLog) peek(id string) (outgoing, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	o, ok := l.m[id]
	return o, ok
}

func (l *sentLog) take(id string) (outgoing, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	o, ok := l.m[id]
	delete(l.m, id)
	return o, ok
}

// phaseBack handles a phase of a message a member of this session sent (on the loop).
func (n *Node) phaseBack(fromSession string, p *wirePhase) {
	to := p.To + "@" + fromSession
	final := p.Phase.Final()
	var o outgoing
	var ok bool
	if final {
		o, ok = n.sent.take(p.ID)
	} else {
		o, ok = n.sent.peek(p.ID)
	}
	// The session's socket records the phase in the store (by id and recipient), for
	// the messages it stored and those the node did (outItem.rec) alike.
	n.evq.Put(proto.Event{Kind: proto.EventDelivery, ID: p.ID, Member: to, To: to, Phase: p.Phase, Text: p.Text})
	if !final || !ok {
		return // not the last phase; or sent before a restart, or not kept (maxTracked)
	}
	lk, ok := n.linker()
	if !ok {
		return
	}
	note := fmt.Sprintf("%s → %s (other session)  %q  %s", o.from, to, o.words, p.Phase)
	if p.Text != "" && p.Phase != proto.PhaseConfirmed {
		note += " (" + oneLine(p.Text) + ")"
	}
	lk.Note(o.from, note)
	if p.Phase != proto.PhaseConfirmed || !o.notify && o.after <= 0 {
		return
	}
	pane := n.isPane(o.from)
	tell := func(text string, after time.Duration, hush bool) {
		if pane {
			lk.Tell(o.from, text, after, hush)
			return
		}
		// The message's id as the session's store has it (the hub sends under it), not
		// its ref, which the hub forgets at the final phase.
		ev := proto.Event{Kind: proto.EventMail, ID: p.ID, Member: o.from, Text: text}
		if after <= 0 {
			n.evq.Put(ev)
			return
		}
		n.sent.later(after, func() { n.evq.Put(ev) })
	}
	if o.notify {
		tell(fmt.Sprintf("[agentmux] delivered to %s: %q", to, o.words), 0, true)
	}
	if o.after > 0 {
		tell(fmt.Sprintf("[agentmux] reminder: your message to %s %q was delivered %s ago", to, o.words, o.after), o.after, false)
	}
}

// isPane says whether name names or numbers one of this session's panes, by the
// core's one resolver.
func (n *Node) isPane(name string) bool {
	core := n.core.Load()
	if core == nil {
		return false
	}
	_, err := (*core).Resolve(name)
	return err == nil
}

// firstWordsOf returns a message's first words for a notice: at most 40 characters on
// one line, "…" when cut (as the relay's notices).
func firstWordsOf(text string) string {
	s := oneLine(text)
	if rs := []rune(s); len(rs) > 40 {
		s = strings.TrimRight(string(rs[:39]), " ") + "…"
	}
	return s
}

func oneLine(text string) string { return strings.Join(strings.Fields(text), " ") }
