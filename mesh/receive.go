package mesh

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
	"github.com/nats-io/nats.go/jetstream"
)

// The receiving side: one loop takes the session's stream in batches, records the
// messages for its members and hands them to the core, and sends their delivery
// phases back to the sending sessions.

// run is the loop: it types the crossing messages that arrive (in order) and sends
// back their delivery phases.
func (n *Node) run() {
	defer n.wg.Done()
	n.resume()
	n.ready = n.evs.Ready()
	for {
		select {
		case <-n.stop:
			return
		case m := <-n.in:
			batch := []jetstream.Msg{m}
		more:
			for len(batch) < maxBatch {
				select {
				case m := <-n.in:
					batch = append(batch, m)
				default:
					break more
				}
			}
			if n.ended {
				for _, m := range batch {
					_ = m.Nak() // for the session's next start
				}
				continue
			}
			n.handle(batch)
			if n.signalled {
				n.signalled = false
				n.coreEvents()
			}
		case _, ok := <-n.ready:
			if !ok {
				n.end()
				continue
			}
			n.coreEvents()
		}
	}
}

func (n *Node) coreEvents() {
	for _, ev := range n.evs.Next() {
		n.coreEvent(ev)
	}
}

// end is the core's end (the session stopped before the node): nothing more is taken
// from the stream; what was taken and not typed stays for the next start.
func (n *Node) end() {
	n.ended, n.ready = true, nil
	if n.cc != nil {
		n.cc.Stop()
	}
}

// coreGone says whether the core's events have ended (a Send refused by a stopped
// session is no failure of the message). A signal it takes is handled after the batch.
func (n *Node) coreGone() bool {
	if n.ended {
		return true
	}
	select {
	case _, ok := <-n.ready:
		if !ok {
			n.end()
			return true
		}
		n.signalled = true
	default:
	}
	return false
}

// maxBatch bounds the messages of the stream handled (and written to the store) at
// once.
const maxBatch = 256

// incoming is a message of the session's stream being handled.
type incoming struct {
	m           jetstream.Msg
	fromSession string
	msg         *wireMsg   // a message for a member here
	phase       *wirePhase // or a phase of one a member here sent
	link        *wireLink  // or a link made or ended
	dup         bool       // crossed before: acknowledged, not typed again
	refused     string     // why a message for no member here is refused, unstored
}

// handle takes a batch of the session's stream, in order: the new messages for its
// members are written to the store in one transaction, then handed to the core; the
// phases of messages its members sent go to the hub's events. Each is acknowledged
// once handled; a batch the store refuses is left for JetStream to deliver again.
func (n *Node) handle(batch []jetstream.Msg) {
	var ins []incoming
	var ids []string
	for _, m := range batch {
		in, err := n.decode(m)
		if err != nil {
			n.log.Warn("mesh: message refused", "subject", m.Subject(), "err", err)
			_ = m.Term()
			continue
		}
		if in.msg != nil {
			ids = append(ids, in.msg.ID)
		}
		ins = append(ins, in)
	}
	known, err := n.o.Store.Known(n.o.Session, ids...)
	if err != nil {
		n.log.Error("mesh: store", "err", err)
		for _, in := range ins {
			_ = in.m.Nak()
		}
		return
	}
	var rows []store.Message
	now := time.Now()
	for i := range ins {
		in := &ins[i]
		if in.msg == nil {
			continue
		}
		if known[in.msg.ID] {
			in.dup = true
			continue
		}
		known[in.msg.ID] = true
		w := in.msg
		if why := n.noPane(w); why != "" {
			// No such pane here: refused at once and not stored, so that another
			// session's messages to no one take no room in the store.
			in.refused = why
			continue
		}
		kind := w.Kind
		if kind == "" {
			kind = proto.KindMessage
		}
		meta, _ := json.Marshal(storedMeta{Mode: w.Mode, DeadlineMs: w.DeadlineMs, FromPane: w.FromPane, Link: w.Link, Spent: w.Spent})
		rows = append(rows, store.Message{ID: w.ID, Session: n.o.Session, From: w.From + "@" + in.fromSession, To: w.To,
			Kind: kind, Body: w.Text, Meta: string(meta), Queued: now.UnixMilli()})
	}
	if len(rows) > 0 {
		if err := n.o.Store.Insert(rows...); err != nil {
			n.log.Error("mesh: store", "n", len(rows), "err", err)
			for _, in := range ins {
				_ = in.m.Nak()
			}
			return
		}
	}
	for _, in := range ins {
		switch {
		case in.phase != nil:
			n.phaseBack(in.fromSession, in.phase)
		case in.link != nil:
			n.onLink(in.fromSession, in.link)
		case in.dup:
			n.phaseAgain(in.fromSession, in.msg)
		case in.refused != "":
			n.sendPhase(in.fromSession, wirePhase{ID: in.msg.ID, To: in.msg.To, Phase: proto.PhaseFailed, Text: in.refused})
		default:
			n.learn(in.msg.From + "@" + in.fromSession)
			n.deliver(in.fromSession, in.msg, now)
		}
		_ = in.m.Ack()
	}
}

// noPane says why message w names no pane of this session ("" when it does, or when
// that cannot be told now). A linked turn is taken whatever it names (the core finds
// the pane through its link, renamed since), and so is any message while the core is
// stopping (kept, and typed at the next start).
func (n *Node) noPane(w *wireMsg) string {
	if w.Link != "" {
		return ""
	}
	core := *n.core.Load()
	_, err := core.Resolve(w.To)
	if err == nil || len(core.Panes()) == 0 || n.coreGone() {
		return ""
	}
	return err.Error()
}

// decode reads a message of the stream; its subject names the sending session, as
// the hub checked it.
func (n *Node) decode(m jetstream.Msg) (incoming, error) {
	toks := strings.Split(m.Subject(), ".")
	if len(toks) != 4 || toks[0] != "amux" || toks[1] != n.o.Session || !validName.MatchString(toks[3]) {
		return incoming{}, errors.New("unexpected subject")
	}
	in := incoming{m: m, fromSession: toks[3]}
	if toks[3] == n.o.Session {
		return in, errors.New("a message from this session to itself")
	}
	first, err := n.keys.verify(toks[3], m.Subject(), m.Data(), m.Headers())
	if err != nil {
		return in, err
	}
	if first {
		n.log.Info("mesh: key of session pinned on first sight", "session", toks[3], "key", m.Headers().Get(hdrKey))
	}
	switch toks[2] {
	case "msg":
		var w wireMsg
		if err := json.Unmarshal(m.Data(), &w); err != nil {
			return in, fmt.Errorf("message: %w", err)
		}
		if w.ID == "" || w.To == "" || w.From == "" {
			return in, errors.New("message: missing id, from or to")
		}
		// Names reach a person's terminal and the pane's attribution: no control
		// or invisible characters, no second session.
		for _, name := range []string{w.From, w.To} {
			if err := proto.CheckVisible(name); err != nil {
				return in, fmt.Errorf("message: %w", err)
			}
		}
		if strings.Contains(w.From, "@") {
			return in, fmt.Errorf("message: sender %q names a session: the subject says which", w.From)
		}
		// The sender's name frames the message in the pane ("NAME@SESSION:"): a name
		// as every name is made, never words that would pass for someone else's.
		if err := proto.CheckNameShape(w.From); err != nil {
			return in, fmt.Errorf("message: sender: %w", err)
		}
		in.msg = &w
	case "ph":
		var p wirePhase
		if err := json.Unmarshal(m.Data(), &p); err != nil {
			return in, fmt.Errorf("phase: %w", err)
		}
		in.phase = &p
	case "ln":
		var l wireLink
		if err := json.Unmarshal(m.Data(), &l); err != nil {
			return in, fmt.Errorf("link: %w", err)
		}
		if l.Tag == "" || l.Op != "link" && l.Op != "end" && l.Op != "rename" && l.Op != "accept" || l.Op == "link" && (!validName.MatchString(l.From) || l.To == "") {
			return in, errors.New("link: missing tag, op, from or to")
		}
		if l.Op == "link" {
			if err := proto.CheckVisible(l.To); err != nil {
				return in, fmt.Errorf("link: %w", err)
			}
		}
		if l.Op == "rename" || l.Op == "accept" {
			// The member's new name, as a message's sender's: it reaches a person's
			// terminal, and the subject says its session.
			if err := proto.CheckVisible(l.From); err != nil || l.From == "" || strings.ContainsAny(l.From, "@ ") {
				return in, fmt.Errorf("link: rename to %q: not a member's name", l.From)
			}
		}
		if err := proto.CheckVisible(l.Why); err != nil {
			return in, fmt.Errorf("link: %w", err)
		}
		in.link = &l
	default:
		return in, fmt.Errorf("unknown kind %q", toks[2])
	}
	return in, nil
}

// deliver hands a recorded crossing message to the core.
func (n *Node) deliver(fromSession string, w *wireMsg, now time.Time) {
	from := w.From + "@" + fromSession
	if w.FromPane > 0 {
		from = fmt.Sprintf("%s (%d)", from, w.FromPane) // as a pane of this session is framed
	}
	st, id, to := n.o.Store, w.ID, w.To
	o := proto.SendOptions{ID: w.ID, Mode: w.Mode, Link: w.Link, LinkSpent: w.Spent, BeforeSubmit: func() error {
		// As the hub does: recorded before the pane may read it, so that after a
		// crash it is typed again marked as a possible repeat.
		_, err := st.Mark(id, to, store.Submitting, time.Now().UnixMilli())
		return err
	}}
	if w.DeadlineMs > 0 {
		if o.Timeout = time.UnixMilli(w.DeadlineMs).Sub(now); o.Timeout <= 0 {
			n.final(w.ID, fromSession, w.To, store.Expired, "not typed within its timeout")
			return
		}
	}
	err := (*n.core.Load()).Send(from, w.To, w.Text, o)
	if err != nil {
		if n.coreGone() {
			return // recorded, not typed: the next start hands it again (resume)
		}
		n.final(w.ID, fromSession, w.To, store.Failed, err.Error())
		if w.Link != "" { // the link is not in force here: end it there too
			n.sendLink(fromSession, wireLink{Op: "end", Tag: w.Link, From: w.To, Why: "could not take a turn: " + err.Error()})
		}
		return
	}
	n.received[w.ID] = received{fromSession: fromSession, to: w.To}
}

// storedMeta is what the store keeps of a crossing message's options (its Meta).
type storedMeta struct {
	Mode       string `json:"mode,omitempty"`
	DeadlineMs int64  `json:"x_deadline_ms,omitempty"`
	FromPane   int    `json:"x_from_pane,omitempty"`
	Link       string `json:"x_link,omitempty"`
	Spent      int    `json:"x_link_spent,omitempty"`
}

// resume hands the core again the crossing messages recorded here that a pane's
// program was not recorded to have taken (confirmed) nor failed to (the session ended
// in between): the hub leaves them to the mesh. As the hub does for its own, one that
// was submitting or submitted may have been read already and goes again marked a
// possible repeat (hub.RepeatNote); one only typed died unread with its terminal.
func (n *Node) resume() {
	now := time.Now()
	for _, m := range (*n.core.Load()).Panes() {
		pending, err := n.o.Store.Pending(n.o.Session, m.Name, store.Confirmed)
		if err != nil {
			n.log.Error("mesh: pending", "member", m.Name, "err", err)
			continue
		}
		for _, row := range pending {
			from, fromSession, ok := SplitAddress(row.From)
			if !ok {
				continue
			}
			var meta storedMeta
			_ = json.Unmarshal([]byte(row.Meta), &meta) // written by handle
			text := row.Body
			if row.Submitting != 0 || row.Submitted != 0 {
				text = hub.RepeatNote(row.ID) + text
			}
			n.deliver(fromSession, &wireMsg{ID: row.ID, From: from, To: row.To, Text: text, Kind: row.Kind,
				Mode: meta.Mode, DeadlineMs: meta.DeadlineMs, FromPane: meta.FromPane, Link: meta.Link, Spent: meta.Spent}, now)
		}
	}
}

// phaseAgain tells the sender of a message that crossed again (it sent it again after
// a restart, having heard no final phase of it) the final phase recorded here, so that
// its store and history have it; one still on its way here says its phases when they
// come.
func (n *Node) phaseAgain(fromSession string, w *wireMsg) {
	rows, err := n.o.Store.Get(w.ID)
	if err != nil {
		n.log.Warn("mesh: read", "id", w.ID, "err", err)
		return
	}
	for _, m := range rows {
		if m.Session != n.o.Session || m.To != w.To {
			continue
		}
		var ph store.Phase
		switch {
		case m.Confirmed != 0:
			ph = store.Confirmed
		case m.Failed != 0:
			ph = store.Failed
		case m.Dropped != 0:
			ph = store.Dropped
		case m.Expired != 0:
			ph = store.Expired
		default:
			return
		}
		n.sendPhase(fromSession, wirePhase{ID: w.ID, To: w.To, Phase: proto.Phase(ph)})
		return
	}
}

// final records that a message ended without reaching a pane and tells its sender.
func (n *Node) final(id, fromSession, to string, ph store.Phase, text string) {
	if _, err := n.o.Store.Mark(id, to, ph, time.Now().UnixMilli()); err != nil {
		n.log.Warn("mesh: mark", "id", id, "err", err)
	}
	n.sendPhase(fromSession, wirePhase{ID: id, To: to, Phase: proto.Phase(ph), Text: text})
}

// coreEvent passes the phases of crossing messages back to their senders.
func (n *Node) coreEvent(ev proto.Event) {
	if ev.Kind != proto.EventDelivery || ev.ID == "" {
		return
	}
	r, ok := n.received[ev.ID]
	if !ok {
		return
	}
	if ev.Phase.Recorded() {
		if _, err := n.o.Store.Mark(ev.ID, r.to, store.Phase(ev.Phase), time.Now().UnixMilli()); err != nil {
			n.log.Warn("mesh: mark", "id", ev.ID, "err", err)
		}
	}
	if ev.Phase.Final() {
		delete(n.received, ev.ID)
	}
	n.sendPhase(r.fromSession, wirePhase{ID: ev.ID, To: r.to, Phase: ev.Phase, Text: ev.Text})
}

func (n *Node) sendPhase(toSession string, p wirePhase) {
	b, _ := json.Marshal(p)
	n.out.push(outItem{subject: "amux." + toSession + ".ph." + n.o.Session, data: b, id: p.ID + "/" + p.To + "/" + string(p.Phase)})
}
