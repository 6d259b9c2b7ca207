package web

import (
	"strconv"
	"time"

	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
)

// item is one line of the page's conversation: a delivery (its phase changes in
// place: the page keeps the newest item of each Key), a notice, a thinking or state
// line, or a message from the store's history.
type item struct {
	// Key identifies the item across updates: "d12" a delivery of this run, "n…" a
	// notice, "s<ID>/<to>" a stored message.
	Key   string `json:"key"`
	At    int64  `json:"at"` // ms since the epoch
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Kind  string `json:"kind"`            // message, action, thinking, state, turn, notice
	Phase string `json:"phase,omitempty"` // a delivery's: waiting for idle, typed, submitted, confirmed, failed, dropped, expired…
	Final bool   `json:"final,omitempty"`
	Text  string `json:"text,omitempty"` // the whole body
	Note  string `json:"note,omitempty"`
	Mode  string `json:"mode,omitempty"`
}

// entryItem is a relay log entry as the page shows it.
func entryItem(e session.Entry) item {
	it := item{At: e.At.UnixMilli(), From: e.FromName, To: e.ToName, Kind: string(e.Kind), Text: e.Body, Note: e.Note}
	if it.Text == "" {
		it.Text = e.Words
	}
	if e.Delivery == 0 {
		if it.Kind == "" {
			it.Kind = "notice"
		}
		// Notices carry no number: their time and text name them, so the log read at
		// connect and the same notice's event meet in one item.
		it.Key = "n" + strconv.FormatInt(e.At.UnixNano(), 36) + ":" + e.Note + ":" + e.Body
		return it
	}
	if it.Kind == "" {
		it.Kind = "turn"
	}
	it.Key = "d" + strconv.Itoa(e.Delivery)
	it.Phase, it.Final = e.Phase.String(), e.Phase.Final()
	if e.Mode != session.Sequential {
		it.Mode = e.Mode.String()
	}
	return it
}

// storedItem is a message from the store's history.
func storedItem(m store.Message) item {
	it := item{Key: "s" + m.ID + "/" + m.To, At: m.Queued, From: m.From, To: m.To, Kind: m.Kind, Text: m.Body, Phase: "queued"}
	if it.Kind == "" {
		it.Kind = "message"
	}
	for _, p := range []struct {
		at   int64
		name string
	}{{m.Typed, "typed"}, {m.Submitted, "submitted"}, {m.Confirmed, "confirmed"}, {m.Failed, "failed"}, {m.Dropped, "dropped"}} {
		if p.at != 0 {
			it.Phase = p.name
		}
	}
	it.Final = m.Confirmed != 0 || m.Failed != 0 || m.Dropped != 0
	return it
}

// history is the conversation a page opens with: the store's messages from before
// the relay's log begins (earlier runs, and entries the log has let go), then the log.
func (s *Server) history() []item {
	entries, logged := s.sess.Log()
	out := []item{} // a JSON list even when empty: the page iterates it
	if s.o.Store != nil {
		cut := s.o.Since
		if len(entries) > 0 && logged > len(entries) {
			cut = entries[0].At // the log let older entries go: the store has them
		}
		ms, err := s.o.Store.History(store.Query{Session: s.o.Session, Limit: 500})
		if err != nil {
			s.log.Warn("web view: history", "err", err)
		}
		for _, m := range ms {
			if time.UnixMilli(m.Queued).Before(cut) {
				out = append(out, storedItem(m))
			}
		}
	}
	for _, e := range entries {
		out = append(out, entryItem(e))
	}
	return out
}
