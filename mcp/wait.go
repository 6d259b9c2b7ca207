package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
)

type waitIn struct {
	ID         string `json:"id,omitempty" jsonschema:"the id send returned"`
	Phase      string `json:"phase,omitempty" jsonschema:"with id: the phase to wait for: typed, submitted, confirmed (default) or expired"`
	Answer     bool   `json:"answer,omitempty" jsonschema:"with id: wait for the recipient's answer (its next finished turn after the message went in)"`
	Member     string `json:"member,omitempty" jsonschema:"without id: wait for this member's next finished turn"`
	Token      string `json:"token,omitempty" jsonschema:"the token of a pending wait: call again with it alone to go on waiting"`
	MaxSeconds int    `json:"max_seconds,omitempty" jsonschema:"return pending after this many seconds at most (1 to 45, default 45)"`
}

type waitOut struct {
	Status string `json:"status" jsonschema:"the phase reached (typed, submitted, confirmed, failed, dropped, expired), answered, pending (call again with token) or ended (the session ended)"`
	ID     string `json:"id,omitempty"`
	Member string `json:"member,omitempty" jsonschema:"the recipient, or the member that answered"`
	Phase  string `json:"phase,omitempty" jsonschema:"the message's phase now"`
	Text   string `json:"text,omitempty" jsonschema:"the answer, or why the message was not delivered"`
	Token  string `json:"token,omitempty" jsonschema:"pending: call wait again with this token alone"`
}

// waitSpec is what a wait waits for and how far it read the session's events: a
// pending wait hands it back as its token.
type waitSpec struct {
	Instance string `json:"i"`
	Cursor   uint64 `json:"c"`
	ID       string `json:"id,omitempty"`
	Phase    string `json:"p,omitempty"`
	Answer   bool   `json:"a,omitempty"`
	Member   string `json:"m,omitempty"`
	Landed   bool   `json:"l,omitempty"`
	// LandedAt is when the message was submitted (ms since the epoch): its answer is
	// the recipient's first turn that ended after it.
	LandedAt int64 `json:"t,omitempty"`
}

func (w waitSpec) token() string {
	b, _ := json.Marshal(w)
	return base64.RawURLEncoding.EncodeToString(b)
}

func parseToken(tok string) (waitSpec, error) {
	var w waitSpec
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err == nil {
		err = json.Unmarshal(b, &w)
	}
	if err == nil && w.ID == "" && w.Member == "" {
		err = errors.New("it names nothing to wait for")
	}
	if err != nil {
		return waitSpec{}, fmt.Errorf("token: not a token wait gave: %v", err)
	}
	return w, nil
}

// rank orders the phases a message goes through to a pane or a member; the final
// ones (finalPhase) end it whatever was asked.
var rank = map[string]int{"queued": 0, "typed": 1, "submitted": 2, "delivered": 2, "confirmed": 3}

// finalPhase reports whether a message's phase never changes after p.
func finalPhase(p string) bool { return proto.Phase(p).Final() }

// reached reports whether phase p satisfies a wait for want (or cannot any more).
func reached(p, want string) bool {
	if finalPhase(p) {
		return true
	}
	r, ok := rank[p]
	w, wok := rank[want]
	return ok && wok && r >= w
}

// waitState is one wait's view of its message: each recipient's phase, and why one
// failed.
type waitState struct {
	spec   waitSpec
	phases map[string]string
	order  []string
	why    map[string]string
}

func (st *waitState) setPhase(to, p, why string) {
	old, seen := st.phases[to]
	if !seen {
		st.order = append(st.order, to)
	}
	if seen && finalPhase(old) {
		return
	}
	if _, known := rank[p]; !known && !finalPhase(p) {
		return // waiting, held and such: no step forward
	}
	if seen && !finalPhase(p) && rank[p] < rank[old] {
		return
	}
	st.phases[to] = p
	if why != "" {
		st.why[to] = why
	}
}

// summary is the message's phase over its recipients: the first that failed,
// dropped or expired, else the least advanced.
func (st *waitState) summary() (phase, member, why string) {
	phase = ""
	for _, to := range st.order {
		p := st.phases[to]
		if finalPhase(p) && p != "confirmed" {
			return p, to, st.why[to]
		}
		if phase == "" || rank[p] < rank[phase] {
			phase, member = p, to
		}
	}
	if len(st.order) > 1 {
		member = ""
	}
	return phase, member, ""
}

// done says whether the wait has its answer, and what it is.
func (st *waitState) done() (bool, waitOut) {
	s := st.spec
	if s.ID == "" {
		return false, waitOut{}
	}
	phase, member, why := st.summary()
	out := waitOut{ID: s.ID, Member: member, Phase: phase, Text: why, Status: phase}
	if phase == "" {
		return false, out
	}
	if s.Answer {
		if finalPhase(phase) && phase != "confirmed" {
			return true, out
		}
		return false, out
	}
	for _, to := range st.order {
		if !reached(st.phases[to], s.Phase) {
			return false, out
		}
	}
	return true, out
}

// apply takes one event into the wait; it says whether the wait has its answer.
func (st *waitState) apply(ev proto.Event) (bool, waitOut) {
	s := &st.spec
	switch {
	case ev.Kind == proto.EventDelivery && s.ID != "" && ev.ID == s.ID:
		st.setPhase(ev.Member, string(ev.Phase), ev.Text)
		if s.Answer && !s.Landed && ev.Phase.Landed() {
			s.Landed, s.LandedAt = true, ev.TS
			if s.Member == "" {
				s.Member = ev.Member
			}
		}
		return st.done()
	case ev.Kind == proto.EventTurn && s.Member != "" && strings.EqualFold(ev.Member, s.Member) && (s.ID == "" || s.Landed && ev.TS >= s.LandedAt):
		phase, _, _ := st.summary()
		return true, waitOut{Status: "answered", ID: s.ID, Member: ev.Member, Phase: phase, Text: ev.Text}
	}
	return false, waitOut{}
}

func (s *Server) wait(ctx context.Context, _ *sdk.CallToolRequest, in waitIn) (*sdk.CallToolResult, waitOut, error) {
	limit := MaxWait
	switch {
	case in.MaxSeconds < 0 || time.Duration(in.MaxSeconds)*time.Second > MaxWait:
		return nil, waitOut{}, fmt.Errorf("max_seconds: %d is not between 1 and %d", in.MaxSeconds, int(MaxWait/time.Second))
	case in.MaxSeconds > 0:
		limit = time.Duration(in.MaxSeconds) * time.Second
	}
	var spec waitSpec
	if in.Token != "" {
		if in.ID != "" || in.Member != "" || in.Phase != "" || in.Answer {
			return nil, waitOut{}, errors.New("token: goes alone (with max_seconds at most): it holds what the wait waits for")
		}
		var err error
		if spec, err = parseToken(in.Token); err != nil {
			return nil, waitOut{}, err
		}
		if spec.Instance != s.instance { // another server's: its cursor means nothing here
			spec.Instance, spec.Cursor = s.instance, s.log.cursor()
		}
	} else {
		switch {
		case in.ID == "" && in.Member == "":
			return nil, waitOut{}, errors.New("id: missing: give the id send returned (or member, or a pending wait's token)")
		case in.ID != "" && in.Member != "":
			return nil, waitOut{}, errors.New("member: not with id: the message's recipient is the member that answers")
		case in.Answer && in.Phase != "":
			return nil, waitOut{}, errors.New("phase: not with answer: an answer comes after the message was submitted")
		case in.ID == "" && (in.Answer || in.Phase != ""):
			return nil, waitOut{}, errors.New("id: missing: phase and answer go with a message's id")
		}
		spec = waitSpec{Instance: s.instance, Cursor: s.log.cursor(), ID: in.ID, Phase: in.Phase, Answer: in.Answer, Member: in.Member}
		if spec.Answer {
			// The answer may have come before this call: every event kept is read,
			// and the turns that ended after the message landed count.
			spec.Cursor = 0
		}
		if spec.ID != "" && spec.Phase == "" && !spec.Answer {
			spec.Phase = "confirmed"
		}
	}
	if s.ended() {
		return nil, waitOut{Status: "ended", ID: spec.ID, Member: spec.Member}, nil
	}
	st := &waitState{spec: spec, phases: map[string]string{}, why: map[string]string{}}
	if err := s.startWait(ctx, st); err != nil {
		// A refusal is the session's answer: it is up. Another error may be its end.
		if r := (refusal{}); !errors.As(err, &r) && s.awaitEnd(ctx) {
			return nil, waitOut{Status: "ended", ID: spec.ID, Member: spec.Member}, nil
		}
		return nil, waitOut{}, err
	}
	if ok, out := st.done(); ok {
		return nil, out, nil
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	cursor := st.spec.Cursor
	for {
		evs, next, changed, ended := s.log.since(cursor)
		for _, ev := range evs {
			if ok, out := st.apply(ev); ok {
				return nil, out, nil
			}
		}
		cursor = next
		if ended {
			phase, member, _ := st.summary()
			return nil, waitOut{Status: "ended", ID: st.spec.ID, Member: cmpOr(member, st.spec.Member), Phase: phase}, nil
		}
		select {
		case <-changed:
			continue
		case <-timer.C:
		case <-s.gone: // its client's input ended: answered now with what it has, as at the timeout
		case <-ctx.Done():
			return nil, waitOut{}, ctx.Err()
		}
		st.spec.Cursor = cursor
		phase, member, _ := st.summary()
		return nil, waitOut{Status: "pending", ID: st.spec.ID, Member: cmpOr(member, st.spec.Member), Phase: phase, Token: st.spec.token()}, nil
	}
}

// startWait reads what the session knows already: the message's phases so far (its
// store has every one recorded), or the member's name when given by number.
func (s *Server) startWait(ctx context.Context, st *waitState) error {
	spec := &st.spec
	c, err := s.dial(ctx)
	if err != nil {
		return s.callErr("wait", err)
	}
	defer c.Close()
	if spec.ID == "" {
		if strings.Contains(spec.Member, "@") {
			return nil // another session's member: its turns come over the mesh
		}
		res, err := c.Request(proto.TypeList, struct{}{})
		if err != nil {
			return s.callErr("wait", err)
		}
		n, numbered := strconv.Atoi(spec.Member)
		for _, m := range res.Members {
			if numbered == nil && m.Number == n || numbered != nil && strings.EqualFold(m.Name, spec.Member) {
				spec.Member = m.Name
				return nil
			}
		}
		if numbered == nil {
			return refusal{fmt.Errorf("member: no pane numbered %d", n)}
		}
		return refusal{fmt.Errorf("member: no member %s in this session", spec.Member)}
	}
	res, err := c.Request(proto.TypeRead, proto.Read{ID: spec.ID})
	if err != nil {
		if ce := (*client.Error)(nil); errors.As(err, &ce) && ce.Code == proto.CodeNotFound {
			return refusal{fmt.Errorf("id: no message %s in this session", spec.ID)}
		}
		return s.callErr("wait "+spec.ID, err)
	}
	for _, r := range res.Messages {
		st.setPhase(r.To, string(r.Phase()), "")
	}
	if spec.Answer {
		if len(st.order) > 1 {
			return refusal{fmt.Errorf("answer: %s went to %d members: wait for one of them with member", spec.ID, len(st.order))}
		}
		if len(st.order) == 1 {
			spec.Member = st.order[0]
			if r := res.Messages[0]; r.Submitted > 0 || r.Confirmed > 0 {
				spec.Landed, spec.LandedAt = true, r.Submitted
				if r.Submitted == 0 {
					spec.LandedAt = r.Confirmed
				}
			}
		}
	}
	return nil
}

// refusal is startWait's error when the session answered that the wait names nothing
// it has: the session is up, so the call fails at once.
type refusal struct{ error }

func (r refusal) Unwrap() error { return r.error }

// endGrace is how long a call that could not reach the socket waits for the events
// connection to say whether the session ended (its BYE may still be on its way).
const endGrace = 2 * time.Second

// awaitEnd reports whether the session ended, waiting up to endGrace for its events
// connection to say so.
func (s *Server) awaitEnd(ctx context.Context) bool {
	timer := time.NewTimer(endGrace)
	defer timer.Stop()
	select {
	case <-s.done:
		return true
	case <-timer.C:
	case <-ctx.Done():
	}
	return s.ended()
}

// cmpOr is the first of a and b that is not empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
