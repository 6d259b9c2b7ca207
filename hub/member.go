package hub

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

func (s *state) welcome(cs *connState, sessionID, tok, name string) {
	ext := map[string]int{proto.ExtFamily: proto.ExtVersion, proto.HookFamily: proto.HookVersion}
	if _, ok := s.cfg.Core.(PaneCore); ok {
		ext[proto.PanesFamily] = proto.PanesVersion
	}
	s.reply(cs, proto.TypeWelcome, proto.Welcome{
		SessionID:   sessionID,
		ResumeToken: tok,
		Server: proto.ServerInfo{
			MaxFrameBytes: s.cfg.MaxFrameBytes,
			HeartbeatMs:   s.cfg.Heartbeat.Milliseconds(),
			Extensions:    ext,
		},
		Session: s.cfg.Session,
		Member:  name,
	})
}

func (s *state) hello(cs *connState, e *proto.Envelope) {
	if cs.hello {
		s.fail(cs, proto.CodeBadRequest, "HELLO again on the same connection", e.ID)
		return
	}
	p, err := proto.DecodePayload[proto.Hello](e)
	if err != nil {
		s.badPayload(cs, e, err)
		return
	}
	tok := ""
	if p.Session != nil {
		tok = p.Session.ResumeToken
	}
	if m := s.join(cs, e, p, tok); m != nil {
		s.welcome(cs, m.sessionID, m.token, m.name)
		s.pump(m)
	}
}

// join makes cs a control connection or the connection of member p.Agent, answering
// failures itself; it returns the member (nil for control and failures; cs.hello says
// which). A member still connected is taken over only when the client proves it is the
// same one by its resume token (the client reconnecting may well be faster than the hub
// noticing its old connection died). Its session id proves nothing: anyone who can run
// `agentmux ls` can spell SESSION/NAME.
func (s *state) join(cs *connState, e *proto.Envelope, p proto.Hello, tok string) *member {
	if err := s.proveProof(cs, p.Proof); err != nil {
		s.fatal(cs, proto.CodeBadRequest, err.Error(), e.ID)
		return nil
	}
	if p.Role == proto.RoleControl {
		cs.hello, cs.control = true, true
		s.welcome(cs, s.cfg.Session+"/control-"+strconv.Itoa(cs.c.id), "", "")
		return nil
	}
	name := p.Agent
	if err := proto.CheckName(proto.MemberName, name); err != nil {
		s.fatal(cs, proto.CodeBadRequest, err.Error(), e.ID)
		return nil
	}
	m := s.members[name]
	if m == nil {
		if p := s.paneLike(name); p != "" {
			s.fatal(cs, proto.CodeNameTaken, "a pane is named "+p, e.ID)
			return nil
		}
		for other := range s.members {
			if proto.SameName(other, name) {
				s.fatal(cs, proto.CodeNameTaken, "a member is named "+other, e.ID)
				return nil
			}
		}
		var unregister func()
		if s.cfg.Core != nil {
			var err error
			if unregister, err = s.cfg.Core.RegisterMember(name, s.h.Relay); err != nil {
				s.fatal(cs, proto.CodeNameTaken, err.Error(), e.ID)
				return nil
			}
		}
		s.flush()
		pending, err := s.cfg.Store.Pending(s.cfg.Session, name, store.Confirmed)
		if err != nil {
			if unregister != nil {
				unregister()
			}
			s.fatal(cs, proto.CodeInternal, err.Error(), e.ID)
			return nil
		}
		m = &member{
			name: name, sessionID: s.cfg.Session + "/" + name, token: proto.NewToken(),
			inflight: map[string]store.Message{}, backlog: pending, topics: map[string]bool{},
			unregister: unregister,
		}
		s.members[name] = m
		for _, msg := range pending {
			s.hold(m, msg)
		}
	} else if proved := tok != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(m.token)) == 1; m.cs != nil {
		if !proved {
			s.fatal(cs, proto.CodeNameTaken, "a connected member is named "+name, e.ID)
			return nil
		}
		// The same client again with its token: its old connection is dead.
		old := m.cs
		s.close(old, errors.New("replaced by a resumed connection"))
		old.c.nc.Close()
	} else if !proved {
		// A client taking the name of a member that is away, without its token: the
		// name is its, but not the token, which would let it take over the member's
		// own connection once that is back.
		m.token = proto.NewToken()
	}
	m.program = p.Program
	if m.program == "" {
		m.program = p.CLI
	}
	m.maxInflight = p.Capabilities.MaxInflight
	if m.maxInflight <= 0 {
		m.maxInflight = DefaultMaxInflight
	}
	if lim := s.cfg.OutQueue / 2; m.maxInflight > lim {
		m.maxInflight = lim
	}
	m.cs = cs
	cs.hello, cs.member = true, m
	s.event(proto.Event{Kind: proto.EventMember, Member: name, State: "connected"})
	return m
}

// resume answers RESUME: as the first frame it also joins (like HELLO); then it checks
// each stream's last_seq against retention (NACK STALE when the gap was pruned), takes
// what the client already has as acknowledged, answers SYNC and replays the rest.
func (s *state) resume(cs *connState, e *proto.Envelope) {
	p, err := proto.DecodePayload[proto.Resume](e)
	if err != nil {
		s.badPayload(cs, e, err)
		return
	}
	agent := p.Agent
	if agent == "" {
		_, agent, _ = strings.Cut(p.SessionID, "/")
	}
	m := cs.member
	if !cs.hello {
		if m = s.join(cs, e, proto.Hello{Agent: agent}, p.ResumeToken); m == nil {
			return
		}
		s.welcome(cs, m.sessionID, m.token, m.name)
	}
	if m == nil || m.name != agent {
		s.fail(cs, proto.CodeBadRequest, "RESUME names another member", e.ID)
		return
	}
	if p.SessionID != m.sessionID {
		s.reply(cs, proto.TypeNack, proto.Nack{AckID: e.ID, Code: proto.NackStale, Message: "unknown session " + p.SessionID + "; send a fresh HELLO"})
		s.pump(m)
		return
	}
	streams, err := s.cfg.Store.Streams(s.cfg.Session, m.name)
	if err != nil {
		s.fail(cs, proto.CodeInternal, err.Error(), e.ID)
		return
	}
	sync := proto.Sync{SessionID: m.sessionID, Streams: []proto.SyncStream{}}
	for _, st := range streams {
		pos, asked := p.Streams[st.Topic]
		if asked && pos.LastSeq < st.PrunedThrough {
			s.reply(cs, proto.TypeNack, proto.Nack{AckID: e.ID, Code: proto.NackStale,
				Message: fmt.Sprintf("topic %q: messages after seq %d are past retention", st.Topic, pos.LastSeq)})
			s.pump(m)
			return
		}
		sync.Streams = append(sync.Streams, proto.SyncStream{Topic: st.Topic, Peer: "*", LastSeq: pos.LastSeq, ServerLastSeq: st.LastSeq})
	}
	// What the client has (seq ≤ its last_seq) counts as acknowledged.
	now := s.now().UnixMilli()
	has := func(msg store.Message) bool {
		pos, ok := p.Streams[msg.Topic]
		if ok && msg.Seq <= pos.LastSeq {
			s.mark(msg.ID, m.name, store.Confirmed, now)
			return true
		}
		return false
	}
	for id, msg := range m.inflight {
		if has(msg) {
			delete(m.inflight, id)
			s.unhold(m, msg)
		}
	}
	kept := m.backlog[:0]
	for _, msg := range m.backlog {
		if !has(msg) {
			kept = append(kept, msg)
		} else {
			s.unhold(m, msg)
		}
	}
	m.backlog = kept
	sync.Replay = m.depth()
	s.reply(cs, proto.TypeSync, sync)
	// Resent: what was in flight on this connection, then the backlog.
	for _, msg := range m.inflight {
		s.deliver(m, msg)
	}
	s.pump(m)
}

// pump sends m's backlog while its window has room: fewer than its maxInflight in
// flight, and room for a whole frame among the bytes its connection has yet to write
// (OutBytes), one message at least: a member that comes back to a backlog of large
// messages (escaped, they grow) would otherwise be sent more than its connection may
// hold and be dropped, every time. Its ACKs pump again.
func (s *state) pump(m *member) {
	for m.cs != nil && !m.cs.closing && len(m.inflight) < m.maxInflight && len(m.backlog) > 0 &&
		(len(m.inflight) == 0 || m.cs.c.queued.Load()+int64(s.cfg.MaxFrameBytes) <= int64(s.cfg.OutBytes)) {
		msg := m.backlog[0]
		m.backlog[0] = store.Message{}
		m.backlog = m.backlog[1:]
		meta := proto.StoredSendMeta(msg.Meta)
		now := s.now().UnixMilli()
		if exp := meta.Expiry(time.UnixMilli(msg.Queued)); !exp.IsZero() && now > exp.UnixMilli() {
			s.unhold(m, msg)
			s.mark(msg.ID, m.name, store.Expired, now)
			s.event(proto.Event{Kind: proto.EventDelivery, ID: msg.ID, Member: m.name, To: m.name, From: msg.From, Phase: proto.PhaseExpired, Text: "not delivered within its timeout"})
			continue
		}
		if !s.deliver(m, msg) {
			m.backlog = append([]store.Message{msg}, m.backlog...) // the next connection's
			return
		}
		if meta.RequiresAck != nil && !*meta.RequiresAck {
			s.unhold(m, msg)
			s.mark(msg.ID, m.name, store.Confirmed, now)
			continue
		}
		m.inflight[msg.ID] = msg
	}
}

// deliver writes msg to m's connection as DELIVER.
func (s *state) deliver(m *member, msg store.Message) bool {
	payload, _ := json.Marshal(proto.Send{Kind: msg.Kind, Body: msg.Body, Data: json.RawMessage(msg.Data)})
	e := &proto.Envelope{
		V: proto.Version, Type: proto.TypeDeliver, ID: msg.ID, TS: msg.Queued,
		From: msg.From, To: msg.To, Topic: msg.Topic, Payload: payload,
		Delivery: &proto.Delivery{Seq: msg.Seq, SessionID: m.sessionID},
	}
	if msg.Meta != "" {
		var meta proto.SendMeta
		if json.Unmarshal([]byte(msg.Meta), &meta) == nil {
			e.PayloadMeta = &meta
		}
	}
	s.cutToFrame(e, msg)
	if !s.send(m.cs, e) {
		return false
	}
	s.event(proto.Event{Kind: proto.EventDelivery, ID: msg.ID, Member: m.name, To: m.name, From: msg.From, Phase: proto.PhaseDelivered})
	return true
}

func (s *state) ack(cs *connState, e *proto.Envelope) {
	p, err := proto.DecodePayload[proto.Ack](e)
	if err != nil {
		s.badPayload(cs, e, err)
		return
	}
	m := cs.member
	if m == nil {
		return
	}
	msg, ok := m.inflight[p.AckID]
	if !ok {
		return // a duplicate, or not ours: at-least-once makes both harmless
	}
	delete(m.inflight, p.AckID)
	s.unhold(m, msg)
	s.mark(p.AckID, m.name, store.Confirmed, s.now().UnixMilli())
	s.event(proto.Event{Kind: proto.EventDelivery, ID: p.AckID, Member: m.name, To: m.name, Phase: proto.PhaseConfirmed})
	s.pump(m)
}

// nack: a client refusing a DELIVER. BUSY puts it back at the head of the queue (sent
// again when the window next opens); any other code fails it.
func (s *state) nack(cs *connState, e *proto.Envelope) {
	p, err := proto.DecodePayload[proto.Nack](e)
	if err != nil {
		s.badPayload(cs, e, err)
		return
	}
	m := cs.member
	if m == nil {
		return
	}
	msg, ok := m.inflight[p.AckID]
	if !ok {
		return
	}
	delete(m.inflight, p.AckID)
	if p.Code == proto.NackBusy || p.Reason == "busy" {
		m.backlog = append([]store.Message{msg}, m.backlog...)
		return
	}
	s.unhold(m, msg)
	s.mark(p.AckID, m.name, store.Failed, s.now().UnixMilli())
	s.event(proto.Event{Kind: proto.EventDelivery, ID: p.AckID, Member: m.name, To: m.name, Phase: proto.PhaseFailed, Text: p.Code + " " + p.Message})
	s.pump(m)
}
