package mesh

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
	"github.com/nats-io/nats.go"
)

// The person's inbox across the mesh: the sessions this session's person also runs
// (Options.AnswerFrom, config.toml's [mesh] answer_from) see what its panes ask them,
// and may answer. Nothing else may: an answer approves what an agent asked to do, so it
// is the person's alone, never a pane's program's, here or in another session.
//
//	laptop (the person)                             buildbox (answer_from = ["laptop"])
//	agentmux inbox --mesh ── who (amux.who.buildbox) ──► members, with what they ask
//	agentmux answer bob@buildbox 1
//	  the socket: the person?  ── answer, signed ──────► laptop's key? laptop named?
//	                                                     fresh? the prompt still asks Q?
//	  "answered: 1 Yes"         ◄── result, signed ───── typed as the person would
//
// The question travels on amux.who.T, which every session may publish to and only T
// reads, with the reply subject a who answer takes (amux.whois.R.T.NONCE: only T may
// publish there, only R read); it is signed by R and names R, its reply subject, and
// when it was asked. T acts on it only when R's signature verifies against R's pinned
// key, R is named in T's AnswerFrom, the reply subject is R's, it is under a minute
// old, and its nonce was not seen: a server that kept it cannot replay it, and no other
// session can make it. On R's side the socket takes it from the person only (the hub's
// check, as X_ANSWER within a session); a pane's program of R that holds R's mesh
// credentials could still sign one (docs/mesh-security.md says so).

// hdrOp marks a question on amux.who.T that is no who: "answer".
const hdrOp = "Amux-Op"

// answerMaxAge is how old an answer may be when it arrives (either way: clocks differ).
const answerMaxAge = time.Minute

// wireAnswer is an answer crossing to the session whose pane it answers.
type wireAnswer struct {
	// From is the answering session (the signer); Reply the subject of the result.
	From  string `json:"from"`
	Reply string `json:"reply"`
	// Pane is the member answered, by name or number; Option the choice (a key, a
	// label's start, yes or no); Question, when set, what the prompt must still ask.
	Pane     string `json:"pane"`
	Option   string `json:"option"`
	Question string `json:"question,omitempty"`
	// AtMs is when it was sent (Unix ms).
	AtMs int64 `json:"at_ms"`
}

// wireAnswered is the result of an answer: the choice picked, or why none was.
type wireAnswered struct {
	Option *proto.Option `json:"option,omitempty"`
	Error  string        `json:"error,omitempty"`
}

// ErrNotYours says a session answered a pane of a session whose person did not name it
// as theirs ([mesh] answer_from).
var ErrNotYours = errors.New("not a session of this session's person")

// answered remembers the nonces of the answers taken in the last answerMaxAge, so that
// none is taken twice. Safe from any goroutine.
type answered struct {
	mu   sync.Mutex
	seen map[string]time.Time
}

// fresh records nonce at now and reports whether it was not seen before.
func (a *answered) fresh(nonce string, now time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for n, at := range a.seen {
		if now.Sub(at) > 2*answerMaxAge {
			delete(a.seen, n)
		}
	}
	if _, ok := a.seen[nonce]; ok {
		return false
	}
	if a.seen == nil {
		a.seen = map[string]time.Time{}
	}
	a.seen[nonce] = now
	return true
}

// owns reports whether session is one of this session's person's (Options.AnswerFrom).
func (n *Node) owns(session string) bool {
	return slices.ContainsFunc(n.o.AnswerFrom, func(s string) bool { return strings.EqualFold(s, session) })
}

var _ hub.RemoteAnswerer = (*Core)(nil)

// AnswerAcross answers the prompt member addr (NAME@SESSION, of another session) waits
// at with option, as the person of this session: that session takes it only from the
// sessions its person named. It waits on the network (up to the join timeout or until
// ctx ends), so the hub calls it off its loop, and only for the person.
func (c *Core) AnswerAcross(ctx context.Context, addr, option, question string) (proto.Option, error) {
	name, session, ok := SplitAddress(addr)
	if !ok || session == c.n.o.Session {
		return proto.Option{}, fmt.Errorf("answer %s: not a member of another session", addr)
	}
	if err := c.n.Unreachable(); err != nil {
		return proto.Option{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.n.o.Timeout)
	defer cancel()
	return c.n.asker().answer(ctx, c.n.sign, session, wireAnswer{Pane: name, Option: option, Question: question})
}

// answer sends w to target, signed, and returns its result.
func (a asker) answer(ctx context.Context, sign *signer, target string, w wireAnswer) (proto.Option, error) {
	reply := whoReply(a.self, target)
	w.From, w.Reply, w.AtMs = a.self, reply, time.Now().UnixMilli()
	b, _ := json.Marshal(w)
	msg, err := sign.msg("amux.who."+target, reply, b)
	if err != nil {
		return proto.Option{}, err
	}
	msg.Header.Set(hdrOp, "answer")
	sub, err := a.nc.SubscribeSync(reply)
	if err != nil {
		return proto.Option{}, err
	}
	defer sub.Unsubscribe()
	if err := a.nc.PublishMsg(msg); err != nil {
		return proto.Option{}, err
	}
	m, err := sub.NextMsgWithContext(ctx)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return proto.Option{}, fmt.Errorf("answer %s@%s: no word from session %s", w.Pane, target, target)
	case err != nil:
		return proto.Option{}, err
	case len(m.Data) == 0 && m.Header.Get("Status") == "503":
		return proto.Option{}, fmt.Errorf("answer %s@%s: session %s is not live", w.Pane, target, target)
	}
	if _, err := a.keys.verify(target, m.Subject, m.Data, m.Header); err != nil {
		return proto.Option{}, err
	}
	var res wireAnswered
	if err := json.Unmarshal(m.Data, &res); err != nil {
		return proto.Option{}, fmt.Errorf("answer %s@%s: %w", w.Pane, target, err)
	}
	if res.Error != "" || res.Option == nil {
		return proto.Option{}, fmt.Errorf("answer %s@%s: %s", w.Pane, target, cmp.Or(res.Error, "no choice picked"))
	}
	return *res.Option, nil
}

// takeAnswer acts on an answer that came on amux.who.NAME (a NATS goroutine) and
// sends its result, signed, on its reply subject, or refuses it there, or (unsigned,
// or not on a reply subject this session answers) drops it with a log line.
func (n *Node) takeAnswer(m *nats.Msg) {
	var w wireAnswer
	if err := json.Unmarshal(m.Data, &w); err != nil || !validName.MatchString(w.From) || m.Reply != w.Reply {
		n.log.Warn("mesh: an answer refused: not one this session reads", "reply", m.Reply)
		return
	}
	toks := strings.Split(m.Reply, ".")
	if len(toks) != 5 || toks[0] != "amux" || toks[1] != "whois" || toks[2] != w.From || toks[3] != n.o.Session {
		n.log.Warn("mesh: an answer refused: its result would go elsewhere", "from", w.From, "reply", m.Reply)
		return
	}
	if _, err := n.keys.verify(w.From, m.Subject, m.Data, m.Header); err != nil {
		n.log.Warn("mesh: an answer refused", "from", w.From, "err", err)
		return
	}
	o, err := n.applyAnswer(w, time.Now())
	res := wireAnswered{}
	if err != nil {
		n.log.Info("mesh: an answer refused", "from", w.From, "pane", w.Pane, "err", err)
		res.Error = err.Error()
	} else {
		n.log.Info("mesh: answered from another session", "from", w.From, "pane", w.Pane, "choice", o.Key)
		res.Option = &o
	}
	b, _ := json.Marshal(res)
	msg, serr := n.sign.msg(m.Reply, "", b)
	if serr != nil {
		n.log.Warn("mesh: answer", "err", serr)
		return
	}
	_ = n.nc.PublishMsg(msg)
}

// applyAnswer checks w, verified as its sender's, and types it as the person would.
func (n *Node) applyAnswer(w wireAnswer, now time.Time) (proto.Option, error) {
	if !n.owns(w.From) {
		return proto.Option{}, fmt.Errorf("session %s takes answers from the sessions its person named ([mesh] answer_from), and %s is %w",
			n.o.Session, w.From, ErrNotYours)
	}
	at := time.UnixMilli(w.AtMs)
	if now.Sub(at) > answerMaxAge || at.Sub(now) > answerMaxAge {
		return proto.Option{}, fmt.Errorf("an answer sent at %s: too old (or the clocks differ by more than %s)", at.Format("15:04:05"), answerMaxAge)
	}
	if !n.answers.fresh(w.Reply, now) {
		return proto.Option{}, errors.New("this answer was taken already")
	}
	p := n.core.Load()
	if p == nil {
		return proto.Option{}, errors.New("the session is starting")
	}
	ac, ok := (*p).(hub.Answerer)
	if !ok {
		return proto.Option{}, errors.New("this session's panes take no answers")
	}
	id, err := (*p).Resolve(w.Pane)
	if err != nil {
		return proto.Option{}, err
	}
	return ac.AnswerPrompt(id, w.Option, w.Question)
}
