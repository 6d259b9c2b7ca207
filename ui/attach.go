package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"
	"github.com/agentmux/agentmux/vterm"
)

// This file runs the ui for a terminal attached to a session server, as tmux's server
// draws for each client: the client is a raw-mode pipe (its keys, pastes, mouse and the
// terminal's answers come in as bytes; what the screen writer writes goes back to it),
// and each attached terminal gets its own program, model and screen writer here, over
// the one session. A late attach is drawn from the emulators' state, never from a replay
// of output.
//
//	client bytes ──Input──▶ tty.Input ──▶ model ──▶ tty.Screen ──Out──▶ client
//	client sizes ──Sizes──▶ WindowSizeMsg      control moved ──Control──▶ relayout

// Ending says how a terminal's program ended.
type Ending int

const (
	// EndQuit: the person ended the session (prefix q, y), or the terminal's program
	// failed (Attach's error says how).
	EndQuit Ending = iota
	// EndDetach: the person detached (prefix d, or d at prefix q's question).
	EndDetach
	// EndGone: the terminal went away (its input ended) or the session stopped.
	EndGone
	// EndClosed: the person closed the session's last pane.
	EndClosed
)

// Size is a terminal's size in cells.
type Size struct{ Cols, Rows int }

// Remote is an attached client's terminal, as the session server sees it.
type Remote struct {
	// Name is the session's name (the detach line, the end question).
	Name string
	// Input is the client's input, chunks of raw bytes in order, closed when it ends;
	// Attach stops taking them when it returns. Out is where the client's terminal
	// output goes (writes must not block for long).
	Input <-chan []byte
	Out   io.Writer
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
	// Fixed is the terminal the session runs in (agentmux demo, --in-process): it
	// cannot detach, and prefix q only asks whether to quit.
	Fixed bool
	// Probed is what the terminal answered to its client's probe just before it
	// attached (nil: the terminal is probed through Input and Out).
	Probed *TerminalInfo
}

// Fit gives the panes of o the sizes the layout gives them on a terminal of the given
// size, and the terminal's colours and keyboard, so that each program starts at its
// final size: what a session server does before any terminal attaches. The first
// terminal to attach gives the panes its own colours.
func Fit(o *session.Options, layout LayoutKind, size Size, term TerminalInfo) {
	ids := make([]int, len(o.Panes))
	for i := range ids {
		ids[i] = i + 1
	}
	rects := buildLayout(layout, ids).rects(rect{0, 0, max(size.Cols, 1), max(size.Rows-1, 1)})
	for i := range o.Panes {
		o.Panes[i].Cols, o.Panes[i].Rows = rects[i].R.W-2, rects[i].R.H-2
	}
	p := term.probed()
	o.Colors, o.KittyKeyboard = p.Colors, p.Kitty
}

// controlMsg says this terminal took control of the panes' sizes.
type controlMsg struct{}

// Attach runs the ui on an attached client's terminal over session s until the person
// detaches or ends the session, the client goes away or ctx ends; the terminal's modes
// are undone (through Out) before it returns. It does not stop the session: the caller
// does that on EndQuit and EndClosed.
func Attach(ctx context.Context, s *session.Session, cfg Config, r Remote) (e Ending, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o := tty.Remote(r.Out)
	ir := tty.StartChunks(ctx, r.Input)
	defer func() {
		rec := recover()
		o.Restore()
		ir.Close()
		if rec != nil {
			e, err = EndGone, tty.Recovered(rec)
		}
	}()
	var probed tty.Probed
	var early []keys.Event
	if r.Probed != nil {
		if err := o.SetupProbed(); err != nil {
			return EndGone, err
		}
		probed = r.Probed.probed()
	} else {
		if err := o.Setup(); err != nil {
			return EndGone, err
		}
		if probed, early, err = ir.Probe(probeTimeout); err != nil {
			return EndGone, fmt.Errorf("read terminal: %w", err)
		}
	}
	if probed.Kitty {
		if err := o.PushKitty(); err != nil {
			return EndGone, fmt.Errorf("kitty keyboard: %w", err)
		}
	}
	if probed.Answers > 0 && !r.ReadOnly {
		s.SetColors(probed.Colors)
		s.SetKittyKeyboard(probed.Kitty)
	}
	att := attachment{name: r.Name, detachable: !r.Fixed, readOnly: r.ReadOnly, control: r.Controls, active: r.Active}
	if r.ReadOnly {
		att.control = func() bool { return false }
	}
	return runModel(ctx, cfg, s, terminalRun{
		o: o, ir: ir, probed: probed, early: early, w: max(r.Size.Cols, 1), h: max(r.Size.Rows, 1), att: att,
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

// TerminalInfo is what a terminal's answers to the start-up queries said, in a form a
// command line can carry to the session server (String, ParseTerminalInfo), so panes
// start with the colours and keyboard of the terminal that started them.
type TerminalInfo struct {
	Kitty  bool
	FG, BG [3]uint8
	// Known is set when the terminal answered.
	Known bool
}

// ProbeTerminal asks the terminal (in, out) for its colours and keyboard without
// changing its screen, and waits for the answers (DA1 ends the wait). It leaves the
// terminal as it found it. typed is what the person typed meanwhile, the bytes as the
// terminal sent them, for the session to read as typed (attach.Options.Typed): a key
// pressed while agentmux starts is not lost.
func ProbeTerminal(ctx context.Context, in, out *os.File) (info TerminalInfo, typed []byte, err error) {
	o, err := tty.Open(in, out)
	if err != nil {
		return TerminalInfo{}, nil, err
	}
	defer o.Restore()
	ir, err := tty.StartInput(ctx, in)
	if err != nil {
		return TerminalInfo{}, nil, err
	}
	defer ir.Close()
	if _, err := o.Write([]byte(tty.ProbeSeq)); err != nil {
		return TerminalInfo{}, nil, fmt.Errorf("probe terminal: %w", err)
	}
	p, early, err := ir.Probe(probeTimeout)
	if err != nil {
		return TerminalInfo{}, nil, fmt.Errorf("probe terminal: %w", err)
	}
	fg, bg := p.Colors.FG, p.Colors.BG
	return TerminalInfo{Kitty: p.Kitty, FG: [3]uint8{fg.R, fg.G, fg.B}, BG: [3]uint8{bg.R, bg.G, bg.B}, Known: p.Answers > 0}, typedBytes(early), nil
}

// typedBytes is the bytes the events were decoded from: keys and pastes (the terminal
// sends nothing else before agentmux sets its modes).
func typedBytes(evs []keys.Event) []byte {
	var b []byte
	for _, ev := range evs {
		switch e := ev.(type) {
		case keys.Key:
			b = append(b, e.Raw...)
		case keys.Paste:
			b = append(b, e.Raw...)
		}
	}
	return b
}

// String is the info as one word: kitty (0/1), then the colours as hex, "-" when unknown.
func (t TerminalInfo) String() string {
	if !t.Known {
		return "-"
	}
	k := 0
	if t.Kitty {
		k = 1
	}
	return fmt.Sprintf("%d:%02x%02x%02x:%02x%02x%02x", k, t.FG[0], t.FG[1], t.FG[2], t.BG[0], t.BG[1], t.BG[2])
}

// ParseTerminalInfo reads String's form ("-": nothing known).
func ParseTerminalInfo(s string) (TerminalInfo, error) {
	if s == "-" {
		return TerminalInfo{}, nil
	}
	var t TerminalInfo
	var k int
	_, err := fmt.Sscanf(s, "%d:%02x%02x%02x:%02x%02x%02x", &k, &t.FG[0], &t.FG[1], &t.FG[2], &t.BG[0], &t.BG[1], &t.BG[2])
	if err != nil {
		return TerminalInfo{}, fmt.Errorf("terminal info %q: %w", s, err)
	}
	t.Kitty, t.Known = k == 1, true
	return t, nil
}

// probed is t as the probe's result.
func (t TerminalInfo) probed() tty.Probed {
	answers := 0
	if t.Known {
		answers = 1
	}
	return tty.Probed{Kitty: t.Kitty, Answers: answers, Colors: vterm.Colors{
		FG: vterm.RGBColor{R: t.FG[0], G: t.FG[1], B: t.FG[2]},
		BG: vterm.RGBColor{R: t.BG[0], G: t.BG[1], B: t.BG[2]},
	}}
}
