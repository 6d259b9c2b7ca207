package mesh

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/mailbox"
	"github.com/agentmux/agentmux/proto"
	"github.com/nats-io/nats.go/jetstream"
)

// Core is a session's core with the mesh in front: SEND to NAME@SESSION crosses to the
// mesh; everything else is the wrapped core's.
type Core struct {
	hub.Core
	n *Node
}

var _ hub.Core = (*Core)(nil)

var _ hub.Outbox = (*Core)(nil)

// Unreachable is the node's: nil while the mesh's hub is reachable.
func (c *Core) Unreachable() error { return c.n.Unreachable() }

// Wrap puts n in front of c, the core the session socket's hub uses.
func (n *Node) Wrap(c hub.Core) *Core { return &Core{Core: c, n: n} }

// Send sends to a member of another session when to is NAME@SESSION, else to the
// wrapped core.
func (c *Core) Send(from, to, text string, o proto.SendOptions) error {
	name, session, ok := SplitAddress(to)
	if !ok {
		return c.Core.Send(from, to, text, o)
	}
	if session == c.n.o.Session {
		return c.Core.Send(from, name, text, o)
	}
	pane := 0 // a pane's send is attributed with its number, as within the session
	if n, err := c.Core.Resolve(from); err == nil {
		pane = n
	}
	if err := c.n.checkAddress(name, session); err != nil {
		return err
	}
	_, err := c.n.send(from, pane, name, session, text, "", o)
	return err
}

// checkAddress refuses name@session at once when the hub can tell that no such
// session is in the mesh, or that the session is live without such a member. When it
// cannot (the hub unreachable, the session away, no answer within a second) it says
// nothing: the message waits in the outbox or the session's stream, as ever. It waits
// on the network (two round trips to the hub at most).
func (n *Node) checkAddress(name, session string) error {
	if !n.nc.IsConnected() {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), min(n.o.Timeout, time.Second))
	defer cancel()
	l := n.js.StreamNames(ctx, jetstream.WithStreamListSubject("amux."+session+".msg."+n.o.Session))
	found := false
	for range l.Name() {
		found = true
	}
	if l.Err() != nil {
		return nil
	}
	if !found {
		return fmt.Errorf("send to %s@%s: no session %s in the mesh (agentmux ls --mesh lists them)", name, session, session)
	}
	w, err := n.asker().ask(ctx, session)
	if err != nil || len(w.Members) == 0 {
		return nil // away (its stream keeps the message), no word from it, or stopping
	}
	var names []string
	for _, m := range w.Members {
		if strings.EqualFold(m.Name, name) {
			return nil
		}
		names = append(names, m.Name)
	}
	return fmt.Errorf("send to %s@%s: session %s has no member %s (its members: %s)", name, session, session, name, strings.Join(names, ", "))
}

// Remind reminds panes of this session only.
func (c *Core) Remind(from, to, text string, after time.Duration, o proto.SendOptions) error {
	if _, session, ok := SplitAddress(to); ok && session != c.n.o.Session {
		return errors.New("remind: reminders are for members of this session")
	}
	return c.Core.Remind(from, to, text, after, o)
}

// Events returns the wrapped core's events and the delivery phases of the messages
// that crossed.
func (c *Core) Events() proto.Events {
	m := &merged{inner: c.Core.Events(), q: c.n.evq, ready: make(chan struct{}, 1), done: make(chan struct{})}
	m.wg.Add(1)
	go m.run()
	return m
}

// eventQueue holds the events of the mesh for the hub.
type eventQueue = mailbox.Box[proto.Event]

// merged is the wrapped core's events and the mesh's, one stream.
type merged struct {
	inner proto.Events
	q     *eventQueue
	ready chan struct{}
	done  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
}

func (m *merged) run() {
	defer m.wg.Done()
	defer close(m.ready)
	for {
		select {
		case _, ok := <-m.inner.Ready():
			if !ok {
				return
			}
		case <-m.q.Ready():
		case <-m.done:
			return
		}
		select {
		case m.ready <- struct{}{}:
		default:
		}
	}
}

func (m *merged) Ready() <-chan struct{} { return m.ready }

func (m *merged) Next() []proto.Event { return append(m.inner.Next(), m.q.Take()...) }

func (m *merged) Close() {
	m.once.Do(func() {
		close(m.done)
		m.inner.Close()
		m.wg.Wait()
	})
}
