package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentmux/agentmux/relay"
)

// Links with members of other sessions and news of messages that left the session:
// what a client that carries messages between sessions (the mesh) asks of the core.
// Names are as the socket takes them (a pane's name or number; an external member's
// name), so a client of the socket's Core interface can reach them.

// LinkRemote links pane a with name, a registered external member that is a pane of
// another session, with a budget of budget turns for the pair (0, or more than
// --turns: --turns, so another session never sets a budget above this one's); tag names
// the link on both sides (relay.LinkRemote). A pane running a shell is refused unless
// shell. The pane's turns then reach name's sink as Messages with Link set. It
// returns the pane's name and the budget in force.
func (s *Session) LinkRemote(a, name, tag string, budget int, shell bool) (pane string, turns int, err error) {
	err = s.command(func() error {
		p := s.find(a)
		switch {
		case p == nil || p.exited:
			return fmt.Errorf("link %q: %w", a, ErrNoPane)
		case s.external[strings.ToLower(strings.TrimSpace(name))] == nil:
			return fmt.Errorf("link with %q: no such member", name)
		case tag == "":
			return fmt.Errorf("link with %q: no tag", name)
		case !shell && runsShell(p):
			return fmt.Errorf("link %d %s (%s): %w", p.id, p.name, p.program(), ErrShell)
		}
		p.shellOK = p.shellOK || shell && runsShell(p)
		if turns := s.rl.Config().Turns; budget <= 0 || budget > turns {
			budget = turns
		}
		pane, turns = p.name, budget
		s.act(s.rl.Handle(relay.LinkRemote{Pane: p.id, Name: name, Tag: tag, Budget: budget}, s.clock.Now()))
		return nil
	})
	return pane, turns, err
}

// LinkRemoteRestored makes again, under its tag, the link of pane a (a name or
// number) with name (NAME@SESSION, a registered external member) that the session had
// when its server died: used and peer are the turns this side and the other had
// spent of budget. The other side's person said yes when it was first made, and a
// pane running a shell is linked again too (it was linked then).
func (s *Session) LinkRemoteRestored(a, name, tag string, used, peer, budget int) error {
	return s.command(func() error {
		p := s.find(a)
		switch {
		case p == nil || p.exited:
			return fmt.Errorf("link %q again: %w", a, ErrNoPane)
		case s.external[strings.ToLower(strings.TrimSpace(name))] == nil:
			return fmt.Errorf("link with %q again: no such member", name)
		case tag == "":
			return fmt.Errorf("link with %q again: no tag", name)
		case budget > 0 && used+peer >= budget:
			return fmt.Errorf("link with %q again: its budget was spent (%d/%d)", name, used+peer, budget)
		}
		s.act(s.rl.Handle(relay.LinkRemote{Pane: p.id, Name: name, Tag: tag, Budget: budget, Used: used, Peer: peer, Restored: true}, s.clock.Now()))
		return nil
	})
}

// Turns is the session's turn budget for a link (--turns).
func (s *Session) Turns() int {
	n := 0
	s.call(func() { n = s.rl.Config().Turns })
	return n
}

// UnlinkRemote ends the link tag because its other side, session, ended it (why says
// how); an unknown tag (an ended link's) and another session's word are no error, and
// change nothing.
func (s *Session) UnlinkRemote(tag, session, why string) {
	s.post(func() {
		s.act(s.rl.Handle(relay.UnlinkRemote{Tag: tag, Session: session, Why: why}, s.clock.Now()))
	})
}

// RenameRemote says the other side's member of link tag is now called name, a
// registered external member (NAME@SESSION): the link follows. An unknown tag (an
// ended link's) is no error.
func (s *Session) RenameRemote(tag, name string) {
	s.post(func() { s.act(s.rl.Handle(relay.RenameRemote{Tag: tag, Name: name}, s.clock.Now())) })
}

// Tell tells the member named to text after the delay, as the relay tells a sender its
// message was delivered: typed into a pane like a delivery notice (no turn spent, its
// answer not relayed when hush), or Mail for any other name.
func (s *Session) Tell(to, text string, after time.Duration, hush bool) {
	s.post(func() { s.act(s.rl.Handle(relay.Tell{To: to, Text: text, After: after, Hush: hush}, s.clock.Now())) })
}

// Note logs text in the relay log as a notice about the pane named or numbered pane
// ("" or an unknown name: about none).
func (s *Session) Note(pane, text string) {
	s.post(func() {
		id := 0
		if p := s.find(pane); p != nil {
			id = p.id
		}
		s.act(s.rl.Handle(relay.Note{Pane: id, Text: text}, s.clock.Now()))
	})
}

// ErrNoMesh is the error of a link with a member of another session in a session that
// joined no mesh.
var ErrNoMesh = errors.New("this session joined no mesh (agentmux --mesh URL joins one)")

// Across links a pane of the session with a member of another session: the mesh in
// front of the session core, when it joined one. It is the link half of the hub's
// Linker, so the person's key and `agentmux link` take the same way.
type Across interface {
	// LinkAcross links pane a with addr, NAME@SESSION, a member of another session; a
	// pane running a shell only when shell (else ErrShell).
	LinkAcross(a int, addr string, shell bool) error
}

// SetAcross sets what links the session's panes with members of other sessions (nil:
// nothing, the session joined no mesh).
func (s *Session) SetAcross(a Across) {
	s.call(func() { s.across = a })
}

// Meshed reports whether the session joined a mesh, so its panes may link with
// members of other sessions (SetAcross).
func (s *Session) Meshed() bool {
	on := false
	s.call(func() { on = s.across != nil })
	return on
}

// LinkAcross links pane a with addr, NAME@SESSION, a member of another session,
// through the mesh the session joined (ErrNoMesh when none). A pane running a shell is
// refused (ErrShell) unless shell. It waits for this side's link only: the other
// side's answer (no such member there, refused) ends the link later, in the relay log.
func (s *Session) LinkAcross(a int, addr string, shell bool) error {
	var l Across
	if !s.call(func() { l = s.across }) {
		return ErrStopped
	}
	if l == nil {
		return fmt.Errorf("link %d with %s: %w", a, addr, ErrNoMesh)
	}
	// Off the loop: the mesh links this side through LinkRemote, a command of its own.
	return l.LinkAcross(a, addr, shell)
}
