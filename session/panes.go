package session

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/relay"
)

// This file is panes coming and going at run time: a pane added, an exited (or
// running) pane's program started again, a pane renamed.

// Errors of the run-time pane commands.
var (
	// ErrRunning means a respawn was asked of a pane whose program still runs, without
	// saying it may be ended.
	ErrRunning = errors.New("its program is still running")
	// ErrBadName means a name breaks the name rule (proto.CheckName).
	ErrBadName = proto.ErrBadName
)

// nameTaken reports whether a pane other than except, or an external member, has name.
func (s *Session) nameTaken(name string, except *pane) bool {
	for _, p := range s.panes {
		if p != except && strings.EqualFold(p.name, name) {
			return true
		}
	}
	return s.external[strings.ToLower(name)] != nil
}

// groupOf returns the other members of pane id's relay group, by number.
func (s *Session) groupOf(id int) []int {
	ps, ok := s.rl.Pane(id)
	if !ok || ps.Group == 0 {
		return nil
	}
	for _, g := range s.rl.Status().Groups {
		if g.ID == ps.Group {
			return slices.DeleteFunc(slices.Clone(g.Members), func(m int) bool { return m == id })
		}
	}
	return nil
}

// Add starts a new pane running spec at run time and returns its number: the next
// number never used in the session. A spec without a name takes its program's base
// name, with -2, -3… when a member has it; a name given must follow proto.CheckName and be
// free (ErrNameTaken). Subscribers hear of it by a MemberChanged; Screen returns its
// screen. Without a size it starts at the last pane's, until a client lays it out.
func (s *Session) Add(spec PaneSpec) (int, error) {
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		return 0, errors.New("new pane: empty command")
	}
	spec.Argv = slices.Clone(spec.Argv)
	spec.Env = append(slices.Clone(s.opts.AddEnv), spec.Env...)
	var id int
	err := s.command(func() error {
		name := strings.TrimSpace(spec.Name)
		if name == "" {
			base := proto.DefaultName(spec.Argv[0])
			name = base
			for n := 2; s.nameTaken(name, nil); n++ {
				name = base + "-" + strconv.Itoa(n)
			}
		} else if err := proto.CheckName(proto.PaneName, name); err != nil {
			return fmt.Errorf("new pane: %w", err)
		} else if s.nameTaken(name, nil) {
			return fmt.Errorf("new pane %s: %w", name, ErrNameTaken)
		}
		spec.Name = name
		if (spec.Cols <= 0 || spec.Rows <= 0) && len(s.panes) > 0 {
			last := s.panes[len(s.panes)-1] // until a client lays it out
			spec.Cols, spec.Rows = last.cols, last.rows
		}
		p, err := s.startPane(s.next, spec)
		if err != nil {
			return err
		}
		s.next++
		id = p.id
		s.panes = append(s.panes, p)
		s.rl.Handle(openOf(p), s.clock.Now())
		return nil
	})
	return id, err
}

// Respawn starts pane id's program again with the command, name, number, folder and
// environment it started with, in the same pane (its screen reset, its history kept),
// and links it again with the live panes of the relay group it was in. A pane whose
// program still runs is refused (ErrRunning) unless kill, which ends its process group
// first (in the background, like Close).
func (s *Session) Respawn(id int, kill bool) error {
	return s.respawn(id, kill, false)
}

// RespawnFresh is Respawn with the pane's program on a new conversation: for a pane
// whose command resumes one (PaneSpec.Fresh), that command is replaced by the fresh
// one for good; for any other pane it is Respawn.
func (s *Session) RespawnFresh(id int, kill bool) error {
	return s.respawn(id, kill, true)
}

func (s *Session) respawn(id int, kill, fresh bool) error {
	return s.command(func() error {
		p := s.pane(id)
		if p == nil {
			return fmt.Errorf("respawn %d: %w", id, ErrNoPane)
		}
		now := s.clock.Now()
		linked := p.linked
		if !p.exited {
			if !kill {
				return fmt.Errorf("respawn %d %s: %w", id, p.name, ErrRunning)
			}
			linked = s.groupOf(id)
			p.exited = true // its exit, when it comes, is the replaced program's
			s.pace.forget(id)
			delete(s.drafts, id)
			s.gate.open(id)
			s.act(s.rl.Handle(relay.Exit{Pane: id, Status: "ended for a respawn"}, now))
			old := p.proc
			s.wg.Go(func() {
				if err := old.Close(); err != nil {
					s.log.Warn("end the program of a respawned pane", "pane", id, "err", err)
				}
			})
		}
		// The old screen scrolls into the history; RIS then resets the modes and title.
		p.term.WriteString(fmt.Sprintf("\x1b[?1049l\x1b[%d;1H%s\x1bc", p.rows, strings.Repeat("\n", p.rows)))
		// The new spec is the pane's once its program started: a fresh start that fails
		// (the CLI still not installed) leaves it as it was, NotStarted and Fresh kept.
		spec := p.spec
		if fresh && len(spec.Fresh) > 0 {
			spec.Argv, spec.Fresh, spec.Restored, spec.NotStarted = slices.Clone(spec.Fresh), nil, "", false
			s.log.Info("respawn: the pane starts its program fresh", "pane", id, "argv", spec.Argv)
		}
		np, err := s.spawn(p, spec)
		if err != nil {
			return err
		}
		for i, q := range s.panes {
			if q == p {
				s.panes[i] = np
			}
		}
		if p.held != nil {
			p.held.resolve(fmt.Errorf("answer %d %s: the pane's program was restarted before the answer could be typed: %w", id, p.name, ErrNoPane))
			p.held = nil
		}
		s.rl.Handle(openOf(np), now)
		for _, with := range linked {
			if q := s.pane(with); q != nil && !q.exited {
				s.act(s.rl.Handle(relay.Link{Pane: id, With: with}, now))
				break
			}
		}
		return nil
	})
}

// Rename gives pane id a new name (proto.CheckName's rule, free among the members): the
// relay's attributions, its log, addressing by name and Members follow. The program's
// $AGENTMUX_NAME keeps the name it started with until it is respawned.
func (s *Session) Rename(id int, name string) error {
	name = strings.TrimSpace(name)
	if err := proto.CheckName(proto.PaneName, name); err != nil {
		return fmt.Errorf("rename %d: %w", id, err)
	}
	return s.command(func() error {
		p := s.pane(id)
		if p == nil {
			return fmt.Errorf("rename %d: %w", id, ErrNoPane)
		}
		if s.nameTaken(name, p) {
			return fmt.Errorf("rename %d to %s: %w", id, name, ErrNameTaken)
		}
		s.act(s.rl.Handle(relay.Rename{Pane: id, Name: name}, s.clock.Now()))
		old := p.name
		p.name = name
		if old != name {
			s.emit(Renamed{Pane: id, From: old, To: name})
		}
		return nil
	})
}

// TypeText types text into pane id exactly as given (no header, no framing, not gated
// on the program being idle), as a person at the keyboard would, then a carriage return
// when enter: the way tmux send-keys drives a shell or a REPL. It goes through the
// typing gate (never into a delivery half typed) and joins the pane's draft, so the
// relay knows a person typed there, and a submitted line starts a turn.
func (s *Session) TypeText(id int, text string, enter bool) error {
	return s.command(func() error {
		p := s.pane(id)
		switch {
		case p == nil:
			return fmt.Errorf("type into %d: %w", id, ErrNoPane)
		case p.exited:
			return fmt.Errorf("type into %d %s: %w", id, p.name, ErrExited)
		}
		now := s.clock.Now()
		for _, ev := range s.drafts.paste(id, text, false) {
			s.act(s.rl.Handle(ev, now))
		}
		b := []byte(text)
		if enter {
			s.act(s.rl.Handle(s.drafts.key(id, keys.Key{Code: keys.KeyEnter}), now))
			b = append(b, '\r')
		}
		s.toPerson(p, b)
		return nil
	})
}

// Share limits: a pane's share is kept between a fifth and five times an even share.
const (
	MinShare = 20
	MaxShare = 500
)

// SetShare sets pane id's width and height as percentages of an even share of the
// screen (0 leaves one as it is; each is clamped to MinShare..MaxShare), for every
// attached terminal's layout: kept across a terminal's resize. It returns the share
// now in force.
func (s *Session) SetShare(id, width, height int) ([2]int, error) {
	var out [2]int
	err := s.command(func() error {
		p := s.pane(id)
		if p == nil {
			return fmt.Errorf("resize %d: %w", id, ErrNoPane)
		}
		for i, v := range []int{width, height} {
			if v != 0 {
				p.share[i] = min(max(v, MinShare), MaxShare)
			} else if p.share[i] == 0 {
				p.share[i] = 100
			}
		}
		out = p.share
		return nil
	})
	return out, err
}

// openOf is pane p as the relay is told of it when it starts (or starts again).
func openOf(p *pane) relay.Open {
	p.shellNow = runsShell(p)
	return relay.Open{Pane: p.id, Name: p.name, Profile: p.profile, Screen: screenOf(p), Program: p.argv[0],
		Hooks: p.hooks, Shell: p.shellNow}
}
