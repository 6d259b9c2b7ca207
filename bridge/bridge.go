// Package bridge adapts the session core (package session: panes, relay, members) to
// the hub's Core interface, so the session socket reaches the panes: names and numbers
// become pane ids, members and events become their wire forms, and the hub's Send gets
// a reference that the core's delivery events carry (refs.go).
//
// It imports session, hub and proto; it must not import ui, bubbletea or lipgloss.
package bridge

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

// Core is a *session.Session seen as a hub.Core. The hub calls it from its loop only
// (Send and the Events' Next share refs).
type Core struct {
	s    *session.Session
	refs *coreRefs
	// NewTree, when set, gives a pane to start its own git worktree (X_NEW's worktree):
	// it sets the spec's folder, tree and name. Nil: such a pane is refused.
	NewTree func(spec *session.PaneSpec) error
	// DropTree takes back a tree NewTree made for a pane that then did not start.
	DropTree func(spec session.PaneSpec)
}

var _ hub.Core = (*Core)(nil)

// New adapts s.
func New(s *session.Session) *Core { return &Core{s: s, refs: newCoreRefs()} }

// Members lists the panes (external members are the hub's own clients).
func (c *Core) Members() []proto.Member {
	var out []proto.Member
	labels := map[int]string{} // group id → "2⇄3⇄4", as the status line shows it
	for _, g := range c.s.Status().Groups {
		ids := make([]string, len(g.Members))
		for i, id := range g.Members {
			ids[i] = strconv.Itoa(id)
		}
		if g.Remote != "" {
			ids = append(ids, g.Remote)
		}
		labels[g.ID] = strings.Join(ids, "⇄")
	}
	for _, m := range c.s.Members() {
		if m.External {
			continue
		}
		out = append(out, member(m, labels))
	}
	return out
}

// member is pane m as X_LIST gives it: its state as its border says it, its group as
// the status line does.
func member(m session.Member, labels map[int]string) proto.Member {
	w := proto.Member{Number: m.Pane, Name: m.Name, Program: m.Program, State: m.State.String(), Waiting: m.Waiting,
		Held: m.Held, Addressing: m.Addressing, Profile: m.Profile, Folder: m.Dir}
	if m.Tree != nil {
		w.Folder, w.Branch = m.Tree.Folder(), m.Tree.Branch()
	}
	if m.State == session.Exited {
		w.State = session.ExitText(m.Code)
	}
	if m.Group > 0 {
		w.Group = labels[m.Group]
	}
	return w
}

// pane resolves a pane's name or number to its id.
func (c *Core) pane(ref string) (int, error) { return c.s.Resolve(ref) }

// Send types text into pane to (the hub passes its name) from the member named from,
// with the options o.
func (c *Core) Send(from, to, text string, o hub.SendOptions) (string, error) {
	so := session.SendOptions{
		Timeout: o.Timeout, NotifyOnDelivery: o.NotifyOnDelivery, NotifyAfter: o.NotifyAfter,
		Person: o.Person, BeforeSubmit: o.BeforeSubmit, Link: o.Link, Spent: o.LinkSpent,
	}
	switch o.Mode {
	case "", proto.ModeSequential:
	case proto.ModeImportant:
		so.Mode = session.Important
	case proto.ModeUrgent:
		so.Mode = session.Urgent
	default:
		return "", fmt.Errorf("mode %q: not sequential, important or urgent", o.Mode)
	}
	n, err := c.s.Send(from, to, text, so)
	if err != nil {
		return "", err
	}
	return c.refs.numbered(n, o.NotifyOnDelivery || o.NotifyAfter > 0), nil
}

// Warn says text on the person's status line (and to event subscribers, as a notice).
func (c *Core) Warn(text string) { c.s.Warn(text) }

// Remind types a reminder into pane to after the delay.
func (c *Core) Remind(to, text string, after time.Duration) (string, error) {
	n, err := c.s.Remind(to, text, after)
	if err != nil {
		return "", err
	}
	return c.refs.numbered(n, false), nil
}

// Hook reports a turn end from the program in pane (its hook said so, with text).
func (c *Core) Hook(pane, event, cli, text string) error {
	source := event + " hook"
	if cli != "" {
		source = cli + " " + source
	}
	return c.s.Hook(pane, text, source)
}

// PaneOf returns the name of the live pane whose proof is proof.
func (c *Core) PaneOf(proof string) (string, bool) {
	_, name, ok := c.s.PaneOf(proof)
	return name, ok
}

// PaneOfProcess returns the name of the live pane process pid runs in.
func (c *Core) PaneOfProcess(pid int) (string, bool) {
	_, name, ok := c.s.PaneOfProcess(pid)
	return name, ok
}

// Link links panes a and b; a pane running a shell only when shell.
func (c *Core) Link(a, b string, shell bool) error {
	ia, err := c.pane(a)
	if err != nil {
		return err
	}
	ib, err := c.pane(b)
	if err != nil {
		return err
	}
	if shell {
		return c.s.LinkShell(ia, ib)
	}
	return c.s.Link(ia, ib)
}

// Unlink, Hold and Release act on pane a.
func (c *Core) Unlink(a string) error  { return c.on(a, c.s.Unlink) }
func (c *Core) Hold(a string) error    { return c.on(a, c.s.Hold) }
func (c *Core) Release(a string) error { return c.on(a, c.s.Release) }

func (c *Core) on(a string, f func(int) error) error {
	id, err := c.pane(a)
	if err != nil {
		return err
	}
	return f(id)
}

// Capture returns the pane's screen with lines of history, SGR when sgr.
func (c *Core) Capture(pane string, lines int, sgr bool) (string, error) {
	id, err := c.pane(pane)
	if err != nil {
		return "", err
	}
	return c.s.Capture(id, lines, sgr)
}

// Register makes name an external member whose relay messages go to deliver.
func (c *Core) Register(name string, deliver func(hub.RelayMessage)) (func(), error) {
	return c.s.RegisterMember(name, func(m session.Message) {
		deliver(hub.RelayMessage{From: m.From, FromPane: m.FromPane, To: m.To, Text: m.Text, Kind: m.Kind, Thread: m.Thread,
			Link: m.Link, Spent: m.Spent, End: m.End})
	})
}

// Subscribe returns the core's events in their wire form.
func (c *Core) Subscribe() hub.Events {
	return &events{c: c, sub: c.s.Subscribe(0)}
}

type events struct {
	c   *Core
	sub *session.Subscription
}

func (e *events) Ready() <-chan struct{} { return e.sub.Ready() }
func (e *events) Close()                 { e.sub.Close() }

// Next translates the pending events; output and status summaries are left out.
func (e *events) Next() []proto.Event {
	var out []proto.Event
	for _, ev := range e.sub.Next() {
		out = append(out, e.c.event(ev)...)
	}
	return out
}

// event is ev's wire form (none for events the socket does not carry). A delivery the
// core made by itself from a pane (a relayed turn, an @relay command) is announced
// first, at its first sighting, by a "relayed" event (see hub.Events) so the hub
// records it; its phases then carry its reference like a Send's.
func (c *Core) event(ev session.Event) []proto.Event {
	switch ev := ev.(type) {
	case session.MemberChanged:
		return []proto.Event{{Kind: "member", Member: ev.Member.Name, State: ev.Member.State.String()}}
	case session.Exit:
		code := ev.Code
		return []proto.Event{{Kind: "exit", Member: strconv.Itoa(ev.Pane), Code: &code}}
	case session.Closed:
		if ev.Done {
			return nil
		}
		return []proto.Event{{Kind: "closed", Member: strconv.Itoa(ev.Pane)}}
	case session.Alert:
		return []proto.Event{{Kind: "alert", Member: strconv.Itoa(ev.Pane), Text: ev.Text}}
	case session.Delivery:
		en := ev.Entry
		final := en.Phase.Final()
		var out []proto.Event
		ref := c.refs.event(en.Delivery, final)
		if ref == "" && en.From != 0 {
			ref = c.refs.own(en.Delivery, final)
			kind := string(en.Kind)
			if kind == "" {
				kind = proto.KindMessage
			}
			out = append(out, proto.Event{Kind: "relayed", ID: ref, Member: en.ToName, Peer: en.FromName, State: kind, Text: en.Body})
		}
		return append(out, proto.Event{
			Kind: "delivery", ID: ref, Member: en.ToName, Peer: en.FromName, Phase: en.Phase.String(), Text: en.Words,
		})
	case session.Mail:
		return []proto.Event{{Kind: "mail", ID: c.refs.mail(ev.Delivery), Member: ev.To, Text: ev.Text}}
	case session.Notice:
		return []proto.Event{{Kind: "notice", Text: ev.Entry.Note}}
	}
	return nil
}

// LinkRemote links pane a with name, a member of another session (session.LinkRemote).
func (c *Core) LinkRemote(a, name, tag string, budget int, shell bool) (string, int, error) {
	return c.s.LinkRemote(a, name, tag, budget, shell)
}

// UnlinkRemote ends the link tag from its other side.
func (c *Core) UnlinkRemote(tag, why string) { c.s.UnlinkRemote(tag, why) }

// Tell tells member to text after the delay (session.Tell).
func (c *Core) Tell(to, text string, after time.Duration, hush bool) { c.s.Tell(to, text, after, hush) }

// Note logs text in the relay log about pane (session.Note).
func (c *Core) Note(pane, text string) { c.s.Note(pane, text) }

var _ hub.PaneCore = (*Core)(nil)

// New starts the pane p describes.
func (c *Core) New(p proto.NewPane) (int, string, error) {
	spec := session.PaneSpec{Name: p.Name, Argv: p.Argv, Env: p.Env, Dir: p.Dir}
	if p.Worktree {
		if c.NewTree == nil {
			return 0, "", errors.New("this session makes no worktrees")
		}
		if err := c.NewTree(&spec); err != nil {
			return 0, "", err
		}
	}
	id, err := c.s.Add(spec)
	if err != nil {
		if spec.Tree != nil && c.DropTree != nil {
			c.DropTree(spec)
		}
		return 0, "", err
	}
	m, _ := c.s.Member(id)
	return id, m.Name, nil
}

// Respawn starts pane a's command again (ending a running one first when kill).
func (c *Core) Respawn(a string, kill bool) error {
	return c.on(a, func(id int) error { return c.s.Respawn(id, kill) })
}

// Rename gives pane a the name name.
func (c *Core) Rename(a, name string) error {
	return c.on(a, func(id int) error { return c.s.Rename(id, name) })
}

// TypeText types text into pane a exactly, then Enter when enter.
func (c *Core) TypeText(a, text string, enter bool) error {
	return c.on(a, func(id int) error { return c.s.TypeText(id, text, enter) })
}

// SetShare sets pane a's width and height shares.
func (c *Core) SetShare(a string, width, height int) ([2]int, error) {
	var sh [2]int
	err := c.on(a, func(id int) error {
		var err error
		sh, err = c.s.SetShare(id, width, height)
		return err
	})
	return sh, err
}

// Diff is what pane a's agent changed in its own worktree.
func (c *Core) Diff(a string) (string, error) {
	id, err := c.pane(a)
	if err != nil {
		return "", err
	}
	m, ok := c.s.Member(id)
	if !ok {
		return "", fmt.Errorf("%q: %w", a, session.ErrNoPane)
	}
	if m.Tree == nil {
		return "", fmt.Errorf("pane %d %s has no worktree of its own (start it with --worktree)", m.Pane, m.Name)
	}
	return m.Tree.Diff(false)
}
