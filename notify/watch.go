package notify

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentmux/agentmux/session"
)

// Source is what Watch needs of the session: its members now and a subscription to
// what happens next (*session.Session is it).
type Source interface {
	Members() []session.Member
	Subscribe(limit int) *session.Subscription
}

// Watch turns the session's events into notes for n until ctx ends or the session
// stops: at most one note per pane per change of state (a pane that needs you is
// notified when it begins to, not again until it has stopped), an exit, a spent
// budget, an expired message and (when asked for) a finished turn. It subscribes
// before it returns (what happens after is seen) and watches on a goroutine of its
// own; done is closed when that ends. What happened before ctx ended is still told.
func Watch(ctx context.Context, src Source, n *Notifier) (done <-chan struct{}) {
	sub := src.Subscribe(0)
	w := watcher{n: n, state: map[int]session.State{}, names: map[int]string{}, pending: map[int]Note{}, asked: map[int]time.Time{}}
	for _, m := range src.Members() {
		w.state[m.Pane], w.names[m.Pane] = m.State, m.Name // waiting already: no note for it
	}
	d := make(chan struct{})
	go func() {
		defer close(d)
		defer sub.Close()
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		defer timer.Stop()
		for {
			armed := len(w.pending) > 0
			select {
			case <-ctx.Done():
				for _, ev := range sub.Next() {
					w.handle(ev)
				}
				w.flushPending()
				return
			case _, ok := <-sub.Ready():
				if !ok {
					w.flushPending()
					return
				}
				for _, ev := range sub.Next() {
					w.handle(ev)
				}
			case <-timer.C:
				w.flushPending() // the choices never came: the note goes without them
			}
			if !armed && len(w.pending) > 0 {
				timer.Reset(choicesWait)
			}
		}
	}()
	return d
}

// choicesWait is how long a note for a pane that began to need the person waits for
// its choices to be read (a prompt drawn in pieces: the marker first, the choices in a
// later frame) before it goes without them.
const choicesWait = time.Second

// flushPending sends the notes still waiting for their choices.
func (w *watcher) flushPending() {
	for pane, note := range w.pending {
		w.n.Notify(note)
		delete(w.pending, pane)
	}
}

// watcher holds what Watch knows of each pane (its goroutine alone).
type watcher struct {
	n     *Notifier
	state map[int]session.State
	names map[int]string
	// pending are needs-you notes waiting for their choices to be read, by pane.
	pending map[int]Note
	// asked is when the prompt each pane's last needs-you note was for began (its
	// Asks.Since): a prompt that began later is news, while still needing the person.
	asked map[int]time.Time
}

func (w *watcher) handle(ev session.Event) {
	switch ev := ev.(type) {
	case session.MemberChanged:
		m := ev.Member
		if m.External {
			return
		}
		was := w.state[m.Pane]
		w.state[m.Pane], w.names[m.Pane] = m.State, m.Name
		_, waiting := w.pending[m.Pane]
		fresh := m.Asks != nil && !m.Asks.Since.Equal(w.asked[m.Pane])
		switch {
		case m.State != session.NeedsYou:
			delete(w.pending, m.Pane) // answered before its choices were read: no news
			delete(w.asked, m.Pane)
		case m.Asks != nil && len(m.Asks.Options) > 0 && (was != session.NeedsYou || waiting || fresh):
			delete(w.pending, m.Pane)
			w.asked[m.Pane] = m.Asks.Since
			w.n.Notify(needsYou(m))
		case was != session.NeedsYou:
			w.pending[m.Pane] = needsYou(m) // its choices may come in the next frame
		}
	case session.Exit:
		code := session.ExitText(ev.Code)
		name := w.names[ev.Pane]
		w.n.Notify(Note{Event: Exited, Pane: ev.Pane, Name: name, Title: fmt.Sprintf("%s (%d) %s", name, ev.Pane, code), Message: code, At: nowMs()})
	case session.Notice:
		switch note := ev.Entry.Note; {
		case strings.Contains(note, "budget spent"):
			w.n.Notify(Note{Event: Budget, Pane: ev.Entry.From, Title: "relay budget spent", Message: note, At: ev.Entry.At.UnixMilli()})
		case spendCapped(note):
			w.n.Notify(Note{Event: Budget, Pane: ev.Entry.From, Name: w.names[ev.Entry.From], Title: strings.SplitN(note, " (", 2)[0],
				Message: note, At: ev.Entry.At.UnixMilli()})
		}
	case session.Delivery:
		e := ev.Entry
		if e.Phase.String() == "expired" {
			w.n.Notify(Note{Event: Expired, Pane: e.To, Name: e.ToName, Title: fmt.Sprintf("a message to %s (%d) expired", e.ToName, e.To),
				Message: e.Words, At: e.Changed.UnixMilli()})
		}
	case session.Turn:
		w.n.Notify(Note{Event: Turn, Pane: ev.Pane, Name: ev.Name, Title: fmt.Sprintf("%s (%d) finished a turn", ev.Name, ev.Pane),
			Message: clipText(ev.Text, 500), At: nowMs()})
	}
}

// spendCapped reports whether a relay notice says a spend cap was reached (the
// session's: every delivery held; a pane's: deliveries into it held), once per cap;
// the notices that the person's own message still goes past one are no news.
func spendCapped(note string) bool {
	return (strings.HasPrefix(note, "session spend cap reached") || strings.HasPrefix(note, "pane spend cap reached")) &&
		!strings.Contains(note, "your message to")
}

// needsYou is the note for member m, which began to need the person.
func needsYou(m session.Member) Note {
	note := Note{Event: NeedsYou, Pane: m.Pane, Name: m.Name, Title: fmt.Sprintf("%s (%d) needs you", m.Name, m.Pane), At: nowMs()}
	if m.Asks != nil {
		note.Asks = session.WireAsks(m.Asks)
		note.Message = m.Asks.Question
		note.Excerpt = m.Asks.Context
		note.At = m.Asks.Since.UnixMilli()
	}
	return note
}

// clipText cuts s to n bytes (on a rune's start), "…" ending it when cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// nowMs is the time now in Unix ms.
func nowMs() int64 { return time.Now().UnixMilli() }
