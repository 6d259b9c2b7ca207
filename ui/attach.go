package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"
)

// This file runs the ui for a terminal attached to a session server, as tmux's server
// draws for each client: the client is a raw-mode pipe (its keys, pastes, mouse and the
// terminal's answers come in as bytes; what the screen writer writes goes back to it),
// and each attached terminal gets its own program, model and screen writer here, over
// the one session. A late attach is drawn from the emulators' state, never from a replay
// of output.
//
//	client bytes ──In──▶ tty.Input ──▶ model ──▶ tty.Screen ──Out──▶ client
//	client sizes ──Sizes──▶ WindowSizeMsg      control moved ──Control──▶ relayout

// Ending says how a terminal's program ended.
type Ending int

const (
	// EndQuit: the person ended the session (prefix q, y), or closed its last pane.
	EndQuit Ending = iota
	// EndDetach: the person detached (prefix d, or d at prefix q's question).
	EndDetach
	// EndGone: the terminal went away (its input ended) or the session stopped.
	EndGone
)

// Size is a terminal's size in cells.
type Size struct{ Cols, Rows int }

// Remote is an attached client's terminal, as the session server sees it.
type Remote struct {
	// Name is the session's name (the detach line, the end question).
	Name string
	// In is the client's input; Attach closes it when it returns. Out is where the
	// client's terminal output goes (writes must not block for long).
	In  io.ReadCloser
	Out io.Writer
	// Size is the terminal's size at attach; Sizes its later sizes.
	Size  Size
	Sizes <-chan Size
	// Controls reports whether this terminal sets the panes' sizes now (nil: always);
	// Control receives when it has just taken control, so the panes follow its size.
	Controls func() bool
	Control  <-chan struct{}
	// Active is called on each key, paste or mouse event from this terminal (it makes
	// it the controlling one).
	Active func()
	// ReadOnly terminals watch: nothing they type reaches a pane.
	ReadOnly bool
}

// StartSession starts cfg's panes in a session for a terminal of the given size (each
// program starts at the size the layout gives it there): what a session server runs
// before any terminal attaches. The first terminal's answers give the panes its colours.
func StartSession(cfg Config, size Size) (*session.Session, error) {
	if len(cfg.Panes) == 0 {
		return nil, errors.New("no panes to start")
	}
	return session.Start(sessionOptions(cfg, max(size.Cols, 1), max(size.Rows, 2), tty.Probed{}, nil))
}

// controlMsg says this terminal took control of the panes' sizes.
type controlMsg struct{}

// Attach runs the ui on an attached client's terminal over session s until the person
// detaches or ends the session, the client goes away or ctx ends; the terminal's modes
// are undone (through Out) before it returns. It does not stop the session: the caller
// does that on EndQuit.
func Attach(ctx context.Context, s *session.Session, cfg Config, r Remote) (e Ending, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o := tty.Remote(r.Out)
	ir, err := tty.StartInput(ctx, r.In)
	if err != nil {
		r.In.Close()
		return EndGone, err
	}
	defer func() {
		rec := recover()
		o.Restore()
		r.In.Close() // unblocks the input's read
		ir.Close()
		if rec != nil {
			e, err = EndGone, tty.Recovered(rec)
		}
	}()
	if err := o.Setup(); err != nil {
		return EndGone, err
	}
	probed, early, err := ir.Probe(probeTimeout)
	if err != nil {
		return EndGone, fmt.Errorf("read terminal: %w", err)
	}
	if probed.Kitty {
		if err := o.PushKitty(); err != nil {
			return EndGone, fmt.Errorf("kitty keyboard: %w", err)
		}
	}
	if probed.Answers > 0 && !r.ReadOnly {
		s.SetColors(probed.Colors)
	}
	att := attachment{name: r.Name, detachable: true, readOnly: r.ReadOnly, control: r.Controls, active: r.Active}
	if r.ReadOnly {
		att.control = func() bool { return false }
	}
	return runModel(ctx, cfg, s, terminalRun{
		o: o, ir: ir, probed: probed, early: early, w: max(r.Size.Cols, 1), h: max(r.Size.Rows, 1), att: att,
		output: io.Discard,
		follow: func(p *tea.Program) func() { return followRemote(ctx, p, r) },
	})
}

// followRemote tells the program about the client's new sizes and about its taking
// control; the returned func stops it and waits.
func followRemote(ctx context.Context, p *tea.Program, r Remote) func() {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case sz := <-r.Sizes:
				p.Send(tea.WindowSizeMsg{Width: sz.Cols, Height: sz.Rows})
			case <-r.Control:
				p.Send(controlMsg{})
			case <-ctx.Done():
				return
			}
		}
	})
	return func() {
		cancel()
		wg.Wait() // a Send in flight returns: Run cancels the program's context when it ends
	}
}
