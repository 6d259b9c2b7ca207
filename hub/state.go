package hub

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// state is everything the loop owns. No other goroutine touches it.
type state struct {
	h       *Hub
	cfg     *Config
	conns   map[*conn]*connState
	members map[string]*member // protocol clients that said HELLO with a name
	// seqs are the last seq given per recipient, per topic: a recipient's are read from
	// the store the first time (nextSeq), and dropped with a member forgotten.
	seqs    map[string]map[string]int64
	events  proto.Events // the core's, or nil
	nextID  int
	awaySeq int64        // members gone away so far
	marks   []store.Mark // phases reached, not yet written (flush)
	// unrecorded are the submissions an earlier run began that the reserve holds and
	// the store refused at this start (a disk still full), keyed id NUL recipient:
	// typed again with RepeatNote as the store would have them. Kept until resumePanes
	// has handed them.
	unrecorded map[string]bool
	// notStarted are the messages the core refused because their pane's program did
	// not start (proto.ErrNotStarted), by pane name then id: kept in the store, and
	// handed again at the pane's next member event (a respawn that starts its program).
	notStarted map[string]map[string]bool
	// markFailing is set from a flush that failed to the next that succeeds; the marks
	// are kept meanwhile, and retry waits retryWait to write them again.
	markFailing bool
	retry       *time.Timer
	retryWait   time.Duration
	// batch holds consecutive SENDs until commit writes them in one transaction;
	// batched counts its rows per client member (for BUSY).
	batch     []pendingSend
	batchRows int
	batched   map[*member]int
	// batchedBytes are the bytes of its rows per client member; held the bytes every
	// member's queue holds (member.bytes summed). For BUSY (Config.HeldBytes).
	batchedBytes map[*member]int
	batchBytes   int
	held         int
}

// size is what a queued message holds in memory: its body and data.
func size(msg store.Message) int { return len(msg.Body) + len(msg.Data) }

// hold counts msg, queued for m, in m's bytes and the hub's; a member forgotten (no
// longer s.members') holds nothing: what is stored for it is read again if it comes back.
func (s *state) hold(m *member, msg store.Message) bool {
	if s.members[m.name] != m {
		return false
	}
	m.bytes += size(msg)
	s.held += size(msg)
	return true
}

// unhold takes msg, which left m's queue (answered, failed, expired, dropped), off the
// counts.
func (s *state) unhold(m *member, msg store.Message) {
	if s.members[m.name] == m {
		m.bytes -= size(msg)
		s.held -= size(msg)
	}
}

// mark records a phase; the loop writes marks in one transaction when it has nothing
// else to do (flush), and before any read of the store. Losing them in a crash costs at
// most a redelivery, which at-least-once allows: messages themselves are written at once.
func (s *state) mark(id, to string, ph store.Phase, ms int64) {
	s.marks = append(s.marks, store.Mark{ID: id, To: to, Phase: ph, Ms: ms})
	if len(s.marks) >= 1024 {
		s.flush()
	}
}

// Marks that failed to be written are kept and written again: at the next flush, and
// while nothing else comes, after a wait of markRetryMin doubling to markRetryMax. At
// most maxKeptMarks are kept (the oldest go first).
const (
	markRetryMin = time.Second
	markRetryMax = time.Minute
	maxKeptMarks = 1 << 16
)

// flush writes the pending marks. A failure (a full disk) is logged and said to the
// person, once until a write succeeds again (which is logged too); the marks are kept and written once the
// store takes them again (the disk has room), so that a message the pane's program may
// have read still carries the note that it may repeat when it is typed again after a
// restart.
func (s *state) flush() {
	s.marks = append(s.marks, s.h.takeLost()...)
	if len(s.marks) == 0 {
		return
	}
	err := s.cfg.Store.MarkAll(s.marks)
	n := len(s.marks)
	if err == nil {
		s.marks = s.marks[:0]
		if s.markFailing {
			s.cfg.Logger.Info("delivery phases recorded again", "n", n)
			s.h.clearReserve()
		}
		s.markFailing = false
		s.stopRetry()
		return
	}
	if drop := len(s.marks) - maxKeptMarks; drop > 0 {
		s.cfg.Logger.Error("delivery phases dropped: too many waiting to be recorded", "n", drop)
		s.marks = append(s.marks[:0], s.marks[drop:]...)
	}
	s.armRetry()
	if s.markFailing {
		return
	}
	s.markFailing = true
	s.cfg.Logger.Error("delivery phases not recorded: kept to be written again", "n", n, "err", err)
	s.warn(fmt.Sprintf("could not record %d delivery phases in the store (%v): they are written once it takes them again; if agentmux ends before, these messages may be typed again", n, err))
}

// keepUnrecorded takes the reserve's records the store refused at this start: the
// messages they name are typed again with RepeatNote (toPane), and the records are
// written with the loop's marks once the store takes them, which empties the reserve.
func (s *state) keepUnrecorded(ms []store.Mark) {
	if len(ms) == 0 {
		return
	}
	s.unrecorded = make(map[string]bool, len(ms))
	for _, m := range ms {
		s.unrecorded[m.ID+"\x00"+m.To] = true
	}
	s.marks = append(s.marks, ms...)
	s.flush() // refused again, most likely: said to the person, and tried again later
	if !s.markFailing {
		s.h.clearReserve() // taken after all: the reserve holds nothing more
	}
}

// armRetry starts the wait before the kept marks are written again (doubling each
// time, up to markRetryMax), unless one runs.
func (s *state) armRetry() {
	if s.retry != nil {
		return
	}
	s.retryWait = min(max(2*s.retryWait, markRetryMin), markRetryMax)
	s.retry = time.NewTimer(s.retryWait)
}

// stopRetry ends the wait: nothing is kept.
func (s *state) stopRetry() {
	if s.retry != nil {
		s.retry.Stop()
	}
	s.retry, s.retryWait = nil, 0
}

// retryC is the kept marks' wait, nil when none runs.
func (s *state) retryC() <-chan time.Time {
	if s.retry == nil {
		return nil
	}
	return s.retry.C
}

// connState is the loop's view of one connection.
type connState struct {
	c       *conn
	hello   bool
	control bool
	member  *member
	pane    string       // the pane whose proof the HELLO showed ("" none): it speaks for it
	origin  proto.Origin // where the client process runs, as the kernel says (set at HELLO)
	events  bool         // X_EVENTS subscriber
	closing bool         // out is closed: nothing more is sent
}

// person reports whether cs acts as the person: a control client that speaks for no
// pane, from a process outside every pane of every session.
func (cs *connState) person() bool {
	return cs.member == nil && cs.pane == "" && cs.origin.Person
}

// self is the pane of this session cs speaks for or runs in ("" none).
func (cs *connState) self() string {
	if cs.pane != "" {
		return cs.pane
	}
	return cs.origin.Pane
}

// where names cs for a refusal: "pane NAME", "member NAME", or where its process runs.
func (cs *connState) where() string {
	switch {
	case cs.pane != "":
		return "pane " + cs.pane
	case cs.member != nil:
		return "member " + cs.member.name
	}
	return cs.origin.Where()
}

// member is a protocol client with a name. It outlives its connections: messages wait
// for it while it is away, and it gets them when it comes back.
type member struct {
	name        string
	program     string
	sessionID   string
	token       string
	cs          *connState // nil while disconnected
	maxInflight int
	inflight    map[string]store.Message // sent on cs, not yet ACKed, by id
	backlog     []store.Message          // waiting to be sent, in order
	topics      map[string]bool
	// unregister forgets the name in the core (nil without a core, or once called).
	unregister func()
	// awaySeq orders the members by when they went away (trimAway).
	awaySeq int64
	// bytes are the bytes its queue (inflight and backlog) holds (hold, unhold).
	bytes int
}

func (m *member) depth() int { return len(m.inflight) + len(m.backlog) }

func newState(h *Hub) *state {
	return &state{
		h: h, cfg: &h.cfg,
		conns:   map[*conn]*connState{},
		members: map[string]*member{},
		seqs:    map[string]map[string]int64{},
		batched: map[*member]int{}, batchedBytes: map[*member]int{},
	}
}

func (s *state) now() time.Time { return s.cfg.Now() }

func (s *state) handle(ev any) {
	if !batchable(ev) {
		s.commit()
	}
	switch ev := ev.(type) {
	case connOpened:
		cs := &connState{c: ev.c}
		s.conns[ev.c] = cs
		if len(s.conns) > s.cfg.MaxConns {
			s.fatal(cs, proto.CodeInternal, fmt.Sprintf("too many connections (%d)", s.cfg.MaxConns), "")
		}
	case frameIn:
		if cs := s.open(ev.c); cs != nil {
			s.guard(cs, ev.e, func() { s.frame(cs, ev.e) })
		}
	case offDone:
		s.sendOff(ev)
	case connEnded:
		cs := s.conns[ev.c]
		if cs == nil {
			return
		}
		if ev.bad && !cs.closing {
			s.fatal(cs, ev.code, ev.err.Error(), "")
		}
		s.close(cs, ev.err)
		delete(s.conns, ev.c)
	}
}

// guard runs handle, the handling of frame e from cs. A panic in it (a bug reached
// by what a client sent) ends that connection with an INTERNAL error and is logged
// with its stack, and the person is told: the hub, and every pane's program with it,
// goes on.
func (s *state) guard(cs *connState, e *proto.Envelope, handle func()) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		s.cfg.Logger.Error("panic handling a frame: the connection is closed", "conn", cs.c.id, "type", e.Type, "panic", p, "stack", string(debug.Stack()))
		s.fatal(cs, proto.CodeInternal, fmt.Sprintf("internal error handling %s: %v", e.Type, p), e.ID)
		s.warn(fmt.Sprintf("agentmux hit an internal error handling a %s request and closed that client's connection; the session goes on (the log has the details)", e.Type))
	}()
	handle()
}

// warn tells the person of a fault: on the status line through the core, else as a
// notice to subscribers.
func (s *state) warn(text string) {
	if w, ok := s.cfg.Core.(Warner); ok {
		w.Warn(text) // the status line; subscribers get it from the core as a notice
		return
	}
	s.event(proto.Event{Kind: proto.EventNotice, Text: text})
}

// batchable reports whether ev may be handled with SENDs still waiting in the batch:
// another SEND, or frames that touch only messages already written (ACK) or nothing
// (PONG). Anything else sees the batch committed first.
func batchable(ev any) bool {
	f, ok := ev.(frameIn)
	if !ok {
		return false
	}
	switch f.e.Type {
	case proto.TypeSend, proto.TypeAck, proto.TypePong:
		return true
	}
	return false
}

// send encodes e and queues it for cs without blocking; a connection whose queue is full
// does not read, and is dropped.
func (s *state) send(cs *connState, e *proto.Envelope) bool {
	if cs.closing {
		return false
	}
	body, err := proto.Encode(e)
	if err != nil {
		s.cfg.Logger.Error("encode", "type", e.Type, "err", err)
		return false
	}
	frame := proto.AppendFrame(make([]byte, 0, 4+len(body)), body)
	if cs.c.queued.Load()+int64(len(frame)) > int64(s.cfg.OutBytes) {
		s.cfg.Logger.Warn("connection does not read: dropped", "conn", cs.c.id, "queued bytes", cs.c.queued.Load())
		s.close(cs, errors.New("outbound bytes over the limit"))
		cs.c.nc.Close()
		return false
	}
	cs.c.queued.Add(int64(len(frame)))
	select {
	case cs.c.out <- frame:
		return true
	default:
		s.cfg.Logger.Warn("connection does not read: dropped", "conn", cs.c.id)
		s.close(cs, errors.New("outbound queue full"))
		cs.c.nc.Close()
		return false
	}
}

// reply sends a server frame of type typ with payload p.
func (s *state) reply(cs *connState, typ string, p any) bool {
	s.nextID++
	e, err := proto.New(typ, "s-"+strconv.Itoa(s.nextID), s.now().UnixMilli(), p)
	if err != nil {
		s.cfg.Logger.Error("encode", "type", typ, "err", err)
		return false
	}
	return s.send(cs, e)
}

// fail answers a request with a non-fatal ERROR.
func (s *state) fail(cs *connState, code, msg, re string) {
	s.reply(cs, proto.TypeError, proto.Error{Code: code, Message: msg, Re: re})
}

// fatal sends ERROR and closes the connection once it is written.
func (s *state) fatal(cs *connState, code, msg, re string) {
	s.reply(cs, proto.TypeError, proto.Error{Code: code, Message: msg, Fatal: true, Re: re})
	s.close(cs, errors.New(msg))
}

// close ends cs: what is queued is still written, then the socket closes. Its member is
// away from now on.
func (s *state) close(cs *connState, why error) {
	if cs.closing {
		return
	}
	cs.closing = true
	close(cs.c.out)
	s.cfg.Logger.Debug("connection closed", "conn", cs.c.id, "why", why)
	if m := cs.member; m != nil && m.cs == cs {
		s.away(m)
		s.trimAway()
	}
}

// idle reports whether m is away with nothing waiting for it.
func (s *state) idle(m *member) bool {
	return m.cs == nil && m.depth() == 0 && s.batched[m] == 0
}

// left forgets cs's member when it said BYE and nothing waits for it: a member that
// left is not listed for ever. One whose connection merely dropped stays away (it
// will likely be back, and messages to it wait), within maxIdleAway.
func (s *state) left(cs *connState) {
	if m := cs.member; m != nil && s.members[m.name] == m && s.idle(m) {
		s.forget(m)
	}
}

// maxIdleAway bounds the members kept away with nothing waiting for them (connections
// that dropped without BYE); past it the one away longest is forgotten.
const maxIdleAway = 256

// trimAway forgets the idle away members that have been away longest while there are
// more than maxIdleAway of them.
func (s *state) trimAway() {
	for {
		var oldest *member
		n := 0
		for _, m := range s.members {
			if s.idle(m) {
				n++
				if oldest == nil || m.awaySeq < oldest.awaySeq {
					oldest = m
				}
			}
		}
		if n <= maxIdleAway {
			return
		}
		s.forget(oldest)
	}
}

// forget drops m: coming back, it is a new member (messages stored for it, and its
// streams' seqs, are read from the store again). It is idle: none of its rows wait in
// the batch, so the store has its last seqs.
func (s *state) forget(m *member) {
	s.held -= m.bytes
	delete(s.members, m.name)
	delete(s.seqs, m.name)
	delete(s.batched, m)
	delete(s.batchedBytes, m)
	if m.unregister != nil {
		m.unregister()
		m.unregister = nil
	}
}

// away detaches m from its connection: what was in flight waits again, first.
func (s *state) away(m *member) {
	m.cs = nil
	s.awaySeq++
	m.awaySeq = s.awaySeq
	back := make([]store.Message, 0, len(m.inflight)+len(m.backlog))
	for _, msg := range m.inflight {
		back = append(back, msg)
	}
	sort.Slice(back, func(i, j int) bool {
		if back[i].Topic != back[j].Topic {
			return back[i].Topic < back[j].Topic
		}
		return back[i].Seq < back[j].Seq
	})
	m.backlog = append(back, m.backlog...)
	clear(m.inflight)
	s.event(proto.Event{Kind: proto.EventMember, Member: m.name, State: "disconnected"})
}

// badPayload closes cs for a payload that does not validate.
func (s *state) badPayload(cs *connState, e *proto.Envelope, err error) {
	s.fatal(cs, proto.CodeBadRequest, err.Error(), e.ID)
}

func (s *state) subscribe(cs *connState, e *proto.Envelope) {
	p, err := proto.DecodePayload[proto.Topics](e)
	if err != nil {
		s.badPayload(cs, e, err)
		return
	}
	topics := p.Topics
	if e.Topic != "" {
		topics = append(topics, e.Topic)
	}
	if len(topics) == 0 {
		s.badPayload(cs, e, errors.New(e.Type+" names no topic"))
		return
	}
	if m := cs.member; m != nil {
		for _, t := range topics {
			if e.Type == proto.TypeSubscribe {
				m.topics[t] = true
			} else {
				delete(m.topics, t)
			}
		}
	}
	s.reply(cs, proto.TypeAck, proto.Ack{AckID: e.ID})
}

// event sends ev to every X_EVENTS subscriber.
func (s *state) event(ev proto.Event) {
	for _, cs := range s.conns {
		if cs.events && !cs.closing {
			s.eventTo(cs, ev)
		}
	}
}

// eventTo sends ev to cs as X_EVENT, stamped with the time and session.
func (s *state) eventTo(cs *connState, ev proto.Event) {
	if ev.TS == 0 {
		ev.TS = s.now().UnixMilli()
	}
	if ev.Session == "" {
		ev.Session = s.cfg.Session
	}
	raw, _ := json.Marshal(ev)
	s.nextID++
	s.send(cs, &proto.Envelope{V: proto.Version, Type: proto.TypeEvent, ID: "e-" + strconv.Itoa(s.nextID), TS: ev.TS, Payload: raw})
}

// shutdown says BYE to everyone and lets the writers flush, for at most a heartbeat.
func (s *state) shutdown() {
	for _, m := range s.members {
		if m.unregister != nil {
			m.unregister()
			m.unregister = nil
		}
	}
	for _, cs := range s.conns {
		s.reply(cs, proto.TypeBye, proto.Bye{Reason: "session ended"})
		s.close(cs, errors.New("hub closed"))
	}
	t := time.NewTimer(s.cfg.Heartbeat)
	defer t.Stop()
	expired := false
	for c := range s.conns {
		if !expired {
			select {
			case <-c.gone:
				continue
			case <-t.C:
				expired = true
			}
		}
		c.nc.Close()
		<-c.gone
	}
}
