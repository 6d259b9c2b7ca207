package mesh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/nats-io/nats.go"
)

// Who is in the mesh: session R asks session T on amux.who.T, naming as the reply
// subject amux.whois.R.T.NONCE; T answers there, signed. The hub lets only T publish
// on amux.whois.*.T.* and only R read amux.whois.R.>, so an answer's subject says who
// gave it and to whom, and its signature (over the subject) proves it. A session with
// no subscriber gets the server's "no responders" status at once (NATS sends it to the
// reply subject the asker subscribed to): it is away.

// whoReply is the subject asker's question to target is answered on.
func whoReply(asker, target string) string {
	return "amux.whois." + asker + "." + target + "." + proto.NewToken()
}

// maxAsking is how many sessions askAll asks at once.
const maxAsking = 32

// askAll asks each of sessions who it is, at most maxAsking at once and each for at
// most wait, and hands answer each one's answer (by its index), or why there is none.
func (a asker) askAll(ctx context.Context, sessions []string, wait time.Duration, answer func(i int, w who, err error)) {
	slots := make(chan struct{}, maxAsking)
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Go(func() {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				answer(i, who{}, ctx.Err())
				return
			}
			defer func() { <-slots }()
			actx, cancel := context.WithTimeout(ctx, wait)
			defer cancel()
			w, err := a.ask(actx, s)
			answer(i, w, err)
		})
	}
	wg.Wait()
}

// asker asks sessions who they are.
type asker struct {
	nc   *nats.Conn
	self string
	keys *keyring
	// own is this session's key, which its own answers carry ("": verified as any).
	own string
}

// ask asks target who its members are: nats.ErrNoResponders when no session of that
// name is live, ErrBadSignature when an answer came that target did not sign.
func (a asker) ask(ctx context.Context, target string) (who, error) {
	reply := whoReply(a.self, target)
	sub, err := a.nc.SubscribeSync(reply)
	if err != nil {
		return who{}, err
	}
	defer sub.Unsubscribe()
	if err := a.nc.PublishRequest("amux.who."+target, reply, nil); err != nil {
		return who{}, err
	}
	m, err := sub.NextMsgWithContext(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return who{}, nats.ErrTimeout
	}
	if err != nil {
		return who{}, err
	}
	if len(m.Data) == 0 && m.Header.Get("Status") == "503" {
		return who{}, nats.ErrNoResponders
	}
	if target == a.self && a.own != "" {
		if m.Header.Get(hdrKey) != a.own {
			return who{}, fmt.Errorf("%w: an answer for this session not signed with its key", ErrBadSignature)
		}
		if _, err := (&keyring{pins: map[string]string{target: a.own}}).verify(target, m.Subject, m.Data, m.Header); err != nil {
			return who{}, err
		}
	} else if _, err := a.keys.verify(target, m.Subject, m.Data, m.Header); err != nil {
		return who{}, err
	}
	var w who
	if err := json.Unmarshal(m.Data, &w); err != nil {
		return who{}, fmt.Errorf("who %s: %w", target, err)
	}
	if w.Session != target {
		return who{}, fmt.Errorf("who %s: the answer names %q", target, w.Session)
	}
	return w, nil
}

// answerWho answers amux.who.NAME with the members (runs on a NATS goroutine; the
// core's Members is safe from any), signed, on the reply subject if it is one this
// session may answer on; to a session of this session's person (AnswerFrom), with
// what they ask. An answer to a pane's prompt comes the same way (answer.go).
func (n *Node) answerWho(m *nats.Msg) {
	if m.Header.Get(hdrOp) == "answer" {
		n.takeAnswer(m)
		return
	}
	toks := strings.Split(m.Reply, ".")
	if len(toks) != 5 || toks[0] != "amux" || toks[1] != "whois" || toks[3] != n.o.Session || !validName.MatchString(toks[2]) {
		n.log.Debug("mesh: who asked with a reply subject not answered", "reply", m.Reply)
		return
	}
	// What a pane asks is for the person: only the sessions they named as theirs see it.
	own := n.owns(toks[2])
	w := who{Session: n.o.Session, Members: []WhoMember{}}
	if core := n.core.Load(); core != nil {
		for _, p := range (*core).Panes() {
			wm := WhoMember{Name: p.Name, Program: p.Program, State: p.State}
			if own {
				wm.Pane, wm.Asks = p.Number, p.Asks
			}
			w.Members = append(w.Members, wm)
		}
	}
	b, _ := json.Marshal(w)
	msg, err := n.sign.msg(m.Reply, "", b)
	if err != nil {
		n.log.Warn("mesh: who", "err", err)
		return
	}
	_ = n.nc.PublishMsg(msg)
}
