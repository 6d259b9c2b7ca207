package hub

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// target is one recipient of a message: a client member or a pane (by name).
type target struct {
	name   string
	member *member // nil for a pane
}

func (s *state) panes() []proto.Member {
	if s.cfg.Core == nil {
		return nil
	}
	return s.cfg.Core.Panes()
}

// paneLike is the pane whose name name would pass for (SameName), or "".
func (s *state) paneLike(name string) string {
	for _, p := range s.panes() {
		if proto.SameName(p.Name, name) {
			return p.Name
		}
	}
	return ""
}

// targets resolves to (a name, a pane number, "*" for every member but from) and topic.
// A SEND without to but with a topic goes to the members subscribed to the topic.
func (s *state) targets(from, to, topic string) ([]target, error) {
	var out []target
	switch {
	case to == "" && topic != "":
		for _, m := range s.sortedMembers() {
			if m.topics[topic] && m.name != from {
				out = append(out, target{m.name, m})
			}
		}
		return out, nil
	case to == "":
		return nil, errors.New("missing field to")
	case to == "*":
		for _, p := range s.panes() {
			if p.Name != from && p.State != "exited" {
				out = append(out, target{name: p.Name})
			}
		}
		for _, m := range s.sortedMembers() {
			if m.name != from {
				out = append(out, target{m.name, m})
			}
		}
		return out, nil
	}
	if i := strings.LastIndexByte(to, '@'); i > 0 && to[i+1:] == s.cfg.Session {
		// NAME@SESSION of this session is NAME: recorded for it, so that the phases
		// the core reports for the pane mark this message.
		to = to[:i]
	}
	if m := s.member(to); m != nil {
		return []target{{m.name, m}}, nil
	}
	if strings.Contains(to, "@") && s.cfg.Core != nil {
		// NAME@SESSION: a member of another session, which the core (the mesh in
		// front of it) reaches or refuses.
		return []target{{name: to}}, nil
	}
	if p, ok := s.resolve(to); ok {
		return []target{{name: p.Name}}, nil
	}
	return nil, fmt.Errorf("no member %q", to)
}

// member is the client member named name in any case (no two members' names pass for
// one another: SameName), or nil.
func (s *state) member(name string) *member {
	if m := s.members[name]; m != nil {
		return m
	}
	for other, m := range s.members {
		if strings.EqualFold(other, name) {
			return m
		}
	}
	return nil
}

// canonical is name as the store records it: the name of the pane it names or
// numbers (resolve) or of the client member it names in any case; else name as it is
// (a member gone, a member of another session).
func (s *state) canonical(name string) string {
	if m := s.member(name); m != nil {
		return m.name
	}
	if p, ok := s.resolve(name); ok {
		return p.Name
	}
	return name
}

// resolve is the pane ref names or numbers, by the core's one resolver (Core.Resolve);
// false when there is none (or no core).
func (s *state) resolve(ref string) (proto.Member, bool) {
	if s.cfg.Core == nil {
		return proto.Member{}, false
	}
	id, err := s.cfg.Core.Resolve(ref)
	if err != nil {
		return proto.Member{}, false
	}
	for _, p := range s.panes() {
		if p.Number == id && !p.Client {
			return p, true
		}
	}
	return proto.Member{}, false
}

func (s *state) sortedMembers() []*member {
	ms := make([]*member, 0, len(s.members))
	for _, m := range s.members {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].name < ms[j].name })
	return ms
}

// nextSeq gives the next seq of (to, topic), reading the recipient's streams from the
// store the first time so seqs continue across restarts.
func (s *state) nextSeq(to, topic string) (int64, error) {
	seqs := s.seqs[to]
	if seqs == nil {
		streams, err := s.cfg.Store.Streams(s.cfg.Session, to)
		if err != nil {
			return 0, err
		}
		seqs = make(map[string]int64, len(streams)+1)
		for _, st := range streams {
			seqs[st.Topic] = st.LastSeq
		}
		s.seqs[to] = seqs
	}
	seqs[topic]++
	return seqs[topic], nil
}

// sendIn answers SEND: the message is written to the store for every recipient, then
// queued (client members) or handed to the core (panes), then the sender gets ACK with
// the message id, or NACK, or BUSY when a recipient's queue is full. Consecutive SENDs
// are written in one transaction (commit) before any of them is queued or answered.
func (s *state) sendIn(cs *connState, e *proto.Envelope) {
	p, err := proto.DecodePayload[proto.Send](e)
	if err != nil {
		s.badPayload(cs, e, err)
		return
	}
	from, err := s.sender(cs, e.From)
	if err != nil {
		s.reply(cs, proto.TypeNack, proto.Nack{AckID: e.ID, Code: proto.NackInvalid, Message: err.Error()})
		return
	}
	if e.To == "" && e.Topic == "" {
		s.badPayload(cs, e, errors.New("SEND: missing field to"))
		return
	}
	ts, err := s.targets(from, e.To, e.Topic)
	if err != nil {
		s.reply(cs, proto.TypeNack, proto.Nack{AckID: e.ID, Code: proto.NackInvalid, Message: err.Error()})
		return
	}
	if len(ts) == 0 {
		s.reply(cs, proto.TypeNack, proto.Nack{AckID: e.ID, Code: proto.NackInvalid, Message: "no recipient"})
		return
	}
	n, all := len(p.Body)+len(p.Data), 0 // a copy for each client member it goes to
	for _, t := range ts {
		if t.member == nil {
			continue
		}
		all += n
		d := t.member.depth() + s.batched[t.member]
		if d >= s.cfg.MaxQueue || d > 0 && t.member.bytes+s.batchedBytes[t.member]+n > s.cfg.QueueBytes ||
			s.held+s.batchBytes+all > s.cfg.HeldBytes {
			s.reply(cs, proto.TypeBusy, proto.Busy{RetryAfterMs: s.cfg.Heartbeat.Milliseconds() / 10, QueueDepth: d, AckID: e.ID})
			return
		}
	}
	if err := s.fitsDeliver(e, from, p, ts); err != nil {
		s.reply(cs, proto.TypeNack, proto.Nack{AckID: e.ID, Code: proto.NackInvalid, Message: err.Error()})
		return
	}
	var meta string
	if e.PayloadMeta != nil {
		b, _ := json.Marshal(e.PayloadMeta)
		meta = string(b)
	}
	if err := s.prepare(cs, e.ID, "", from, e.Topic, p, meta, ts); err != nil {
		s.reply(cs, proto.TypeNack, proto.Nack{AckID: e.ID, Code: proto.NackInvalid, Message: err.Error()})
	}
}

// pendingSend is a message in the batch: its rows, and whom to answer once written.
type pendingSend struct {
	cs    *connState // nil: nobody to answer (a relay from the core)
	ackID string
	rows  []store.Message
	ts    []target
	// own marks a delivery the core queued itself ("relayed"): the message is
	// recorded, never handed to the core again.
	own bool
}

// maxBatch bounds the rows written in one transaction.
const maxBatch = 256

// prepare gives a message its id (id, or a new one when "") and per-recipient seqs and
// adds it to the batch.
func (s *state) prepare(cs *connState, ackID, id, from, topic string, p proto.Send, meta string, ts []target) error {
	now := s.now()
	if id == "" {
		id = proto.NewID(now)
	}
	rows := make([]store.Message, len(ts))
	for i, t := range ts {
		seq, err := s.nextSeq(t.name, topic)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		rows[i] = store.Message{
			ID: id, Session: s.cfg.Session, From: from, To: t.name, Topic: topic,
			Kind: p.Kind, Body: p.Body, Data: string(p.Data), Meta: meta, Seq: seq, Queued: now.UnixMilli(),
		}
		if t.member != nil {
			s.batched[t.member]++
			s.batchedBytes[t.member] += size(rows[i])
			s.batchBytes += size(rows[i])
		}
	}
	s.batch = append(s.batch, pendingSend{cs: cs, ackID: ackID, rows: rows, ts: ts})
	s.batchRows += len(rows)
	if s.batchRows >= maxBatch {
		s.commit()
	}
	return nil
}

// commit writes the batch in one transaction, then queues each message (client
// members) or hands it to the core (panes), and answers its sender, in order. The loop
// commits before anything but another SEND, and whenever it has nothing else to do.
func (s *state) commit() {
	if len(s.batch) == 0 {
		return
	}
	batch := s.batch
	s.batch, s.batchRows = nil, 0
	clear(s.batched)
	clear(s.batchedBytes)
	s.batchBytes = 0
	rows := make([]store.Message, 0, len(batch))
	for _, ps := range batch {
		rows = append(rows, ps.rows...)
	}
	if err := s.cfg.Store.Insert(rows...); err != nil {
		s.cfg.Logger.Error("store messages", "n", len(rows), "err", err)
		for _, ps := range batch {
			if ps.cs != nil {
				s.reply(ps.cs, proto.TypeNack, proto.Nack{AckID: ps.ackID, Code: proto.NackInvalid, Message: err.Error()})
			}
		}
		return
	}
	for _, ps := range batch {
		id := ps.rows[0].ID
		s.event(proto.Event{Kind: proto.EventMessage, ID: id, Member: ps.rows[0].From, From: ps.rows[0].From, To: peers(ps.ts), Phase: proto.PhaseQueued, Text: firstWords(ps.rows[0].Body)})
		failed := 0
		var why error // the first refusal, said when no recipient took the message
		for i, t := range ps.ts {
			if ps.own {
				continue
			}
			if t.member != nil {
				if s.hold(t.member, ps.rows[i]) {
					t.member.backlog = append(t.member.backlog, ps.rows[i])
				}
				s.pump(t.member)
			} else if err := s.toPane(ps.rows[i]); err != nil {
				failed++
				why = cmp.Or(why, err)
			}
		}
		switch {
		case ps.cs == nil:
		case failed == len(ps.ts):
			msg := "no recipient took it"
			if len(ps.ts) == 1 && why != nil {
				msg = why.Error()
			} else if why != nil {
				msg += ": " + why.Error()
			}
			s.reply(ps.cs, proto.TypeNack, proto.Nack{AckID: ps.ackID, Code: proto.NackInvalid, Message: msg})
		default:
			s.reply(ps.cs, proto.TypeAck, proto.Ack{AckID: ps.ackID, MessageID: id, Queued: len(ps.ts) - failed, XNote: s.outboxNote(ps.rows)})
		}
	}
}

// Outbox is what a core with the mesh in front says of its way out: nil while the
// mesh's hub is reachable, else why not (and what waits).
type Outbox interface {
	Unreachable() error
}

// outboxNote is the ACK's note for a message to a member of another session sent while
// the mesh's hub is unreachable: it waits in the outbox and goes when the hub is back.
func (s *state) outboxNote(rows []store.Message) string {
	ob, ok := s.cfg.Core.(Outbox)
	if !ok {
		return ""
	}
	for _, r := range rows {
		if s.otherSession(r.To) {
			if ob.Unreachable() != nil {
				return "hub unreachable: delivered when it comes back"
			}
			return ""
		}
	}
	return ""
}

// toPane hands a stored message to the core, cut to CutChars with a pointer to the
// rest, with the options its payload_meta asks for; a refusal marks it failed. Times
// count from when it was queued, so a message handed again after a restart keeps its
// timeout and a reminder its due time; one whose timeout passed is dropped.
//
// Submitting is written ahead: the core calls BeforeSubmit just before the carriage
// return that submits the message, and it records the phase submitting at once, in the
// store, not in the loop's batch of marks. A message handed again after a restart that
// was submitting or submitted may have been read by the pane's program: it starts with
// RepeatNote, and so does one whose submitting only the reserve holds (unrecorded).
// One only typed was not: its text died with the program's terminal.
func (s *state) toPane(msg store.Message) error {
	text := msg.Body
	if r := []rune(text); len(r) > s.cfg.CutChars {
		text = string(r[:s.cfg.CutChars]) + "\n[cut: `agentmux read " + msg.ID + "` shows the rest]"
	}
	if msg.Submitting != 0 || msg.Submitted != 0 || s.unrecorded[msg.ID+"\x00"+msg.To] {
		text = RepeatNote(msg.ID) + text
	}
	meta := proto.StoredSendMeta(msg.Meta)
	now := s.now()
	queued := time.UnixMilli(msg.Queued)
	var err error
	switch {
	case meta.XRemindMs > 0:
		err = s.cfg.Core.Remind(msg.From, msg.To, text, max(queued.Add(time.Duration(meta.XRemindMs)*time.Millisecond).Sub(now), 0),
			proto.SendOptions{ID: msg.ID, Person: isPerson(msg.From)})
	default:
		o := proto.SendOptions{
			// Only the person's own connection stores PersonName as the sender (sender).
			Person: isPerson(msg.From),
			ID:     msg.ID, Mode: meta.Mode, NotifyOnDelivery: meta.XNotifyOnDelivery,
			NotifyAfter:  time.Duration(meta.XNotifyAfterMs) * time.Millisecond,
			BeforeSubmit: s.submitting(msg.ID, msg.To),
		}
		if exp := meta.Expiry(queued); !exp.IsZero() {
			if o.Timeout = exp.Sub(now); o.Timeout <= 0 {
				s.mark(msg.ID, msg.To, store.Expired, now.UnixMilli())
				s.event(proto.Event{Kind: proto.EventDelivery, ID: msg.ID, Member: msg.To, To: msg.To, From: msg.From, Phase: proto.PhaseExpired, Text: "not typed within its timeout"})
				return errExpired
			}
		}
		err = s.cfg.Core.Send(msg.From, msg.To, text, o)
	}
	if errors.Is(err, proto.ErrNotStarted) && !strings.Contains(msg.From, "@") {
		// Kept, not failed: typed once the pane's program runs (a message from another
		// session fails, as the mesh hands it no more).
		if s.notStarted == nil {
			s.notStarted = map[string]map[string]bool{}
		}
		if s.notStarted[msg.To] == nil {
			s.notStarted[msg.To] = map[string]bool{}
		}
		s.notStarted[msg.To][msg.ID] = true
		s.event(proto.Event{Kind: proto.EventDelivery, ID: msg.ID, Member: msg.To, To: msg.To, From: msg.From, Phase: proto.PhaseHeld, Text: err.Error() + ": the message is kept until it runs"})
		return nil
	}
	if err != nil {
		s.mark(msg.ID, msg.To, store.Failed, now.UnixMilli())
		s.event(proto.Event{Kind: proto.EventDelivery, ID: msg.ID, Member: msg.To, To: msg.To, From: msg.From, Phase: proto.PhaseFailed, Text: err.Error()})
		return err
	}
	return nil
}

// errExpired is toPane's refusal of a message whose timeout passed before it reached
// the core (after a restart).
var errExpired = errors.New("expired: not typed within its timeout")

// RepeatNote starts the text of a message typed into a pane again after a restart when
// its carriage return was about to be sent before it: the pane's program may have read
// it already, and the note tells the reader so, with the message's id (`agentmux read
// ID`). A message recorded as confirmed is never typed again; one never submitted is
// typed again without the note.
func RepeatNote(id string) string {
	return "[agentmux: possible repeat of " + id + ", typed before a restart] "
}

// submitting returns the write-ahead of message id to pane to: the phase submitting
// recorded in the store at once. The core calls it from its own goroutine: it touches
// nothing of the loop's (the store is safe for concurrent use). A write the store
// refuses (a full disk) is handed to the loop, which writes it with its own marks once
// the store takes them again.
func (s *state) submitting(id, to string) func() error {
	st, now, h := s.cfg.Store, s.cfg.Now, s.h
	return func() error {
		m := store.Mark{ID: id, To: to, Phase: store.Submitting, Ms: now().UnixMilli()}
		_, err := st.Mark(m.ID, m.To, m.Phase, m.Ms)
		if err != nil {
			h.keepLost(m)
		}
		return err
	}
}

func peers(ts []target) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.name
	}
	return strings.Join(names, ",")
}

func firstWords(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}

// relayIn stores and queues a message the core routed to a client member.
func (s *state) relayIn(rm proto.RelayMessage) {
	m := s.member(rm.To)
	if m == nil {
		s.cfg.Logger.Warn("relay to a name that is no client member", "to", rm.To)
		return
	}
	kind := rm.Kind
	if kind == "" {
		kind = proto.KindMessage
	}
	if err := s.prepare(nil, "", "", rm.From, "", proto.Send{Kind: kind, Body: rm.Text, Thread: rm.Thread}, "", []target{{m.name, m}}); err != nil {
		s.cfg.Logger.Error("relay to member", "to", rm.To, "err", err)
	}
}

// coreEvent records a delivery phase in the store (by the message id the core's event
// carries: the one toPane handed it, or the core's own) and passes the event on to
// subscribers. A "relayed" event is a delivery the core queued by itself: it is
// recorded as a message (relayed) under the id the core gave it. Mail (a notice about
// a message sent with x_notify_on_delivery or x_notify_after_ms) is passed on; a
// member sender gets the notice itself through its sink (relayIn: a DELIVER of kind
// state from agentmux).
func (s *state) coreEvent(ev proto.Event) {
	if ev.Kind == proto.EventRelayed {
		s.relayed(ev)
		return
	}
	if ev.Kind == proto.EventSpend && ev.Spend != nil {
		s.spent(ev)
	}
	if ev.Kind == proto.EventDelivery && ev.ID != "" && ev.Phase.Recorded() {
		s.mark(ev.ID, ev.Member, store.Phase(ev.Phase), s.now().UnixMilli())
	}
	if kept := s.notStarted[ev.Member]; ev.Kind == proto.EventMember && kept != nil {
		delete(s.notStarted, ev.Member)
		s.resumePane(ev.Member, kept) // refused again, and kept, while its program has not started
	}
	if ev.Kind == proto.EventClosed && len(s.notStarted) > 0 {
		s.failKeptOfGone()
	}
	if kept := s.notStarted[ev.From]; ev.Kind == proto.EventRenamed && kept != nil {
		delete(s.notStarted, ev.From)
		s.notStarted[ev.Member] = kept
	}
	if ev.Kind == proto.EventRenamed && s.cfg.Store != nil {
		s.commit() // the marks before, under the old name
		if err := s.cfg.Store.Readdress(s.cfg.Session, ev.From, ev.Member); err != nil {
			s.cfg.Logger.Error("waiting messages of a renamed pane", "from", ev.From, "to", ev.Member, "err", err)
		}
		if err := s.cfg.Store.RenameSpend(s.cfg.Session, ev.From, ev.Member); err != nil {
			s.cfg.Logger.Error("spend of a renamed pane", "from", ev.From, "to", ev.Member, "err", err)
		}
	}
	s.event(ev)
}

// relayed records a message the core queued by itself for a pane (a pane's turn relayed
// to its group, or its @relay command) under the id the core gave it, at once, so its
// phases that follow find it and history shows the whole conversation; subscribers
// get its "message" event. It is written as soon as the core says it queued it, not
// before: a crash in between loses it (its sender's pane is gone with agentmux too).
func (s *state) relayed(ev proto.Event) {
	kind := ev.MsgKind
	if kind == "" {
		kind = proto.KindMessage
	}
	s.commit()
	if err := s.prepare(nil, "", ev.ID, ev.From, "", proto.Send{Kind: kind, Body: ev.Text}, "", []target{{name: ev.To}}); err != nil {
		s.cfg.Logger.Error("record relayed", "from", ev.From, "to", ev.To, "err", err)
		return
	}
	s.batch[len(s.batch)-1].own = true
	s.commit()
}

// resumePanes hands the core again every message a pane's program was not recorded to
// have taken (confirmed: it reacted) nor to have failed (agentmux was killed while they
// waited, or while typing or submitting them): delivery to panes is at least once, as
// to members, whose ACK is their confirmation. Submitted is not enough: a line the
// program had not read yet when agentmux died is discarded with its terminal. One that
// was submitting or submitted goes with RepeatNote (toPane); a confirmed one is never
// typed again.
func (s *state) resumePanes() {
	defer s.settle()
	for _, p := range s.panes() {
		s.resumePane(p.Name, nil)
	}
	// Messages to members of other sessions (NAME@SESSION) go to the core again too:
	// the mesh in front of it sends each under its id, which the other side keeps once.
	if s.cfg.Core == nil {
		return
	}
	remote, err := s.cfg.Store.PendingRemote(s.cfg.Session)
	if err != nil {
		s.cfg.Logger.Error("pending for other sessions", "err", err)
		return
	}
	for _, msg := range remote {
		_ = s.toPane(msg) // a refusal is marked failed and said as an event
	}
}

// failKeptOfGone ends the messages kept for a pane whose program did not start
// (notStarted) once no pane has its name any more (closed before its program ran): no
// member event of its will hand them again, so they are failed, as the relay fails what
// waited for a pane closed, not left waiting.
func (s *state) failKeptOfGone() {
	here := map[string]bool{}
	for _, p := range s.panes() {
		here[p.Name] = true
	}
	now := s.now().UnixMilli()
	for name, ids := range s.notStarted {
		if here[name] {
			continue
		}
		delete(s.notStarted, name)
		for id := range ids {
			s.mark(id, name, store.Failed, now)
			s.event(proto.Event{Kind: proto.EventDelivery, ID: id, Member: name, To: name, Phase: proto.PhaseFailed,
				Text: "its pane was closed before its program ran"})
		}
	}
}

// resumePane hands the core again the messages for pane name it has not taken (see
// resumePanes): those of ids only, when ids is not nil.
func (s *state) resumePane(name string, ids map[string]bool) {
	pending, err := s.cfg.Store.Pending(s.cfg.Session, name, store.Confirmed)
	if err != nil {
		s.cfg.Logger.Error("pending for pane", "pane", name, "err", err)
		return
	}
	for _, msg := range pending {
		if strings.Contains(msg.From, "@") || ids != nil && !ids[msg.ID] {
			continue // from another session (the mesh hands it again itself), or not asked for
		}
		_ = s.toPane(msg) // a refusal is marked failed and said as an event
	}
}

// settle ends, at start-up, the deliveries that were submitting or submitted when
// agentmux died and that no one will take further: their pane is not in the session
// any more (resumePanes typed again, with RepeatNote, those whose pane is). They are
// recorded dropped (abandoned: the program may or may not have read them, and nothing
// will type them again), logged one by one and said to the person once, with their
// number. Messages from other sessions are left to the mesh, which hands them again.
func (s *state) settle() {
	if s.cfg.Core == nil {
		return
	}
	rows, err := s.cfg.Store.Unsettled(s.cfg.Session)
	if err != nil {
		s.cfg.Logger.Error("settle deliveries after a restart", "err", err)
		return
	}
	now := s.now().UnixMilli()
	here := map[string]bool{}
	for _, p := range s.panes() {
		here[p.Name] = true
	}
	n := 0
	for _, msg := range rows {
		if here[msg.To] || strings.Contains(msg.From, "@") || strings.Contains(msg.To, "@") {
			continue
		}
		s.mark(msg.ID, msg.To, store.Dropped, now)
		s.event(proto.Event{Kind: proto.EventDelivery, ID: msg.ID, Member: msg.To, To: msg.To, From: msg.From, Phase: proto.PhaseDropped, Text: "settled after a restart: its pane is gone; it may have been read before"})
		s.cfg.Logger.Warn("settled after a restart: dropped", "id", msg.ID, "to", msg.To)
		n++
	}
	if n == 0 {
		return
	}
	s.flush()
	s.warn(fmt.Sprintf("after the restart, %d messages that were being submitted to panes no longer here were settled as dropped: they may have been read before (`agentmux read ID` shows each)", n))
}

// prune applies retention.
func (s *state) prune() {
	s.flush()
	n, err := s.cfg.Store.Prune(s.now().Add(-s.cfg.Retention).UnixMilli())
	if err != nil {
		s.cfg.Logger.Error("prune", "err", err)
	} else if n > 0 {
		s.cfg.Logger.Info("pruned", "messages", n)
	}
}

// spent records a pane's spend (a "spend" event) in the store, so totals outlive the
// session; a record that cannot be written is logged and lost (the session's own total
// still counts it).
func (s *state) spent(ev proto.Event) {
	sp := ev.Spend
	err := s.cfg.Store.AddSpend(store.Spend{Session: s.cfg.Session, Pane: ev.Member, Link: sp.Link, Model: sp.Model,
		AtMs: s.now().UnixMilli(), Requests: int64(sp.Requests), Input: sp.Tokens.Input, Output: sp.Tokens.Output,
		CacheRead: sp.Tokens.CacheRead, CacheWrite: sp.Tokens.CacheWrite, CostUSD: sp.CostUSD})
	if err != nil {
		s.cfg.Logger.Error("record spend", "pane", ev.Member, "err", err)
	}
}
