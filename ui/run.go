package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"

	// Initialised before Bubble Tea: no query of the terminal behind tty's probe.
	_ "github.com/agentmux/agentmux/ui/quietterm"
)

// probeTimeout bounds the wait for the outer terminal's answers at start-up (DA1 ends it
// early; every terminal answers DA1).
const probeTimeout = 750 * time.Millisecond

// terminalRun is one attached client's terminal the ui runs on.
type terminalRun struct {
	o      *tty.Terminal
	ir     *tty.Input
	probed tty.Probed
	early  []keys.Event // input read while probing
	w, h   int
	att    attachment
	// follow starts telling the program about size changes; the func it returns stops it.
	follow func(*tea.Program) func()
}

// runModel runs the ui's program over session s on one terminal until it ends, and
// says how it ended. The caller restores the terminal afterwards.
func runModel(ctx context.Context, cfg Config, s *session.Session, tr terminalRun) (Ending, error) {
	r := lipgloss.NewRenderer(tr.o)
	r.SetColorProfile(termenv.EnvColorProfile())
	r.SetHasDarkBackground(true) // never let termenv query the terminal behind our reader
	scr := tty.NewScreen(tr.o)
	defer scr.Close()
	m := newModel(cfg, s, modelOptions{width: tr.w, height: tr.h, renderer: r,
		screen: scr, probed: tr.probed, attach: tr.att})
	defer m.sub.Close()
	m.ticks = newFrameTimer()
	defer m.ticks.stop()
	m.present() // the first frame, before any message arrives
	p := tea.NewProgram(m,
		tea.WithInput(nil),
		tea.WithOutput(io.Discard), // it writes nothing: its renderer is off
		tea.WithoutRenderer(),      // frames go through scr (tty.Screen)
		tea.WithContext(ctx),
		tea.WithoutSignalHandler(),
		tea.WithoutCatchPanics(),
		tea.WithoutBracketedPaste(),
	)
	stop := tr.follow(p)
	defer stop()
	// Input and the session's events (with the frame timer) go to the program from one
	// goroutine each, for as long as it runs (msgs.go).
	fctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { forwardInput(fctx, p, tr.early, tr.ir.Events()) })
	wg.Go(func() { forwardSession(fctx, p, m.sub, m.ticks) })
	defer wg.Wait() // a Send in flight returns: Run cancels the program's context when it ends
	defer cancel()
	_, err := p.Run()
	if m.err != nil { // the event loop has ended: m is ours again
		return m.ending, m.err
	}
	if err != nil && !(errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil) {
		return m.ending, fmt.Errorf("ui: %w", err)
	}
	if !m.quitting {
		return EndGone, nil // the context ended it
	}
	return m.ending, nil
}
