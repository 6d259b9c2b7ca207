package mesh

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/nats-io/nats.go"
)

// Members of other sessions are made external members of this session (hub.Core's
// Register), so that a pane's `@relay:bob@buildbox` line reaches the mesh within the
// rules for addressing a member that is not linked (the opt-in, the direct budget).
// A name is learnt when the session starts (the members of the live sessions) and
// from every message that arrives (its sender), so an agent can answer.

// maxLearnt is how many names of one other session are learnt: every message names
// its sender, whose name the sending session chooses, and each learnt name is a member
// of this session's core; past it, a session's further names are not learnt (their
// messages are typed all the same; a pane's @relay line to them is refused).
const maxLearnt = 256

// learn registers addr (NAME@SESSION) unless it is known.
func (n *Node) learn(addr string) {
	name, session, ok := SplitAddress(addr)
	if !ok || session == n.o.Session || name == "" {
		return
	}
	core := n.core.Load()
	if core == nil {
		return
	}
	n.knownMu.Lock()
	defer n.knownMu.Unlock()
	if n.known == nil {
		n.known = map[string]func(){}
	}
	if _, ok := n.known[addr]; ok {
		return
	}
	if n.learnt[session] >= maxLearnt {
		if n.learnt[session] == maxLearnt {
			n.log.Warn("mesh: learn: too many names of one session, no more learnt", "session", session, "max", maxLearnt)
			n.learnt[session]++
		}
		return
	}
	if n.learnt == nil {
		n.learnt = map[string]int{}
	}
	unregister, err := (*core).RegisterMember(addr, func(m proto.RelayMessage) { n.relayMail(name, session, m) })
	if err != nil {
		n.log.Debug("mesh: learn", "name", addr, "err", err)
		n.known[addr] = func() {}
		return
	}
	n.learnt[session]++
	n.log.Debug("mesh: learnt", "name", addr)
	n.known[addr] = unregister
}

// forget unregisters every learnt name.
func (n *Node) forget() {
	n.knownMu.Lock()
	defer n.knownMu.Unlock()
	for _, f := range n.known {
		f()
	}
	n.known, n.learnt = nil, nil
}

// discoverWait is how long joining waits for one session's answer: a live session
// answers in milliseconds.
const discoverWait = 2 * time.Second

// discover learns the members of the live sessions of the mesh.
func (n *Node) discover() {
	ctx, cancel := context.WithTimeout(context.Background(), n.o.Timeout)
	defer cancel()
	l := n.js.StreamNames(ctx)
	var sessions []string
	for name := range l.Name() {
		if s, ok := strings.CutPrefix(name, "AMUX_"); ok && s != n.o.Session {
			sessions = append(sessions, s)
		}
	}
	// Asked all at once, each for at most discoverWait: a session that does not
	// answer holds up the join that long, and keeps no other from being learnt.
	n.asker().askAll(ctx, sessions, discoverWait, func(i int, w who, err error) {
		s := sessions[i]
		if err != nil {
			if errors.Is(err, ErrBadSignature) {
				n.log.Warn("mesh: who: answer refused", "session", s, "err", err)
			} else if !errors.Is(err, nats.ErrNoResponders) {
				n.log.Info("mesh: who: no answer", "session", s, "err", err)
			}
			return
		}
		for _, m := range w.Members {
			n.learn(m.Name + "@" + s)
		}
	})
}
