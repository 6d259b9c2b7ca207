package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"
)

// probeTimeout bounds the wait for the outer terminal's answers at start-up (DA1 ends it
// early; every terminal answers DA1).
const probeTimeout = 750 * time.Millisecond

// Run takes over the terminal (in, out), starts cfg's panes in a session and runs the ui
// until the user quits, the last pane is closed, input ends or ctx is cancelled (a
// signal). The terminal is restored and every child process group ended before Run
// returns, also on a panic, which comes back as a *PanicError to print after the
// restore.
func Run(ctx context.Context, cfg Config, in, out *os.File) error {
	return run(ctx, cfg, in, out, runOptions{})
}

// runOptions are Run's seams for tests: fake processes, and a wrapper around the model
// (to make it panic, say).
type runOptions struct {
	start session.StartFunc
	wrap  func(tea.Model) tea.Model
}

// run is Run with test seams.
func run(ctx context.Context, cfg Config, in, out *os.File, ro runOptions) (err error) {
	if len(cfg.Panes) == 0 {
		return errors.New("no panes to start")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
		cfg.Logger = log
	}
	o, err := tty.Open(in, out)
	if err != nil {
		return err
	}
	var ir *tty.Input
	var s *session.Session
	defer func() {
		r := recover()
		if rerr := o.Restore(); rerr != nil {
			log.Warn("restore terminal", "err", rerr)
		}
		if ir != nil {
			ir.Close()
		}
		if s != nil {
			if cerr := s.Stop(); cerr != nil {
				log.Warn("close panes", "err", cerr)
			}
		}
		if r != nil {
			err = tty.Recovered(r)
			log.Error("panic", "err", err)
		}
	}()

	ir, err = tty.StartInput(ctx, in)
	if err != nil {
		return err
	}
	if err := o.Setup(); err != nil {
		return err
	}
	probed, early, err := ir.Probe(probeTimeout)
	if err != nil {
		return fmt.Errorf("read terminal: %w", err)
	}
	log.Info("terminal probed", "fg", probed.Colors.FG, "bg", probed.Colors.BG, "kitty", probed.Kitty, "answers", probed.Answers)
	if probed.Kitty {
		if err := o.PushKitty(); err != nil {
			return fmt.Errorf("kitty keyboard: %w", err)
		}
	}
	w, h, err := o.Size()
	if err != nil {
		return err
	}
	s, err = session.Start(sessionOptions(cfg, w, h, probed, ro.start))
	if err != nil {
		return err
	}
	if cfg.OnStart != nil {
		cfg.OnStart(s)
	}
	_, err = runModel(ctx, cfg, s, terminalRun{
		o: o, ir: ir, probed: probed, early: early, w: w, h: h, wrap: ro.wrap, output: o,
		follow: func(p *tea.Program) func() { return followResize(o, p, log) },
	})
	return err
}

// terminalRun is one terminal the ui runs on: the outer terminal in-process, or an
// attached client's.
type terminalRun struct {
	o      *tty.Terminal
	ir     *tty.Input
	probed tty.Probed
	early  []keys.Event // input read while probing
	w, h   int
	att    attachment
	wrap   func(tea.Model) tea.Model
	output io.Writer // bubbletea's output (it writes nothing: its renderer is off)
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
	m := newModel(cfg, s, modelOptions{width: tr.w, height: tr.h, input: tr.ir.Events(), renderer: r,
		initial: tr.early, screen: scr, probed: tr.probed, attach: tr.att})
	defer m.sub.Close()
	m.present() // the first frame, before any message arrives
	var tm tea.Model = m
	if tr.wrap != nil {
		tm = tr.wrap(m)
	}
	p := tea.NewProgram(tm,
		tea.WithInput(nil),
		tea.WithOutput(tr.output),
		tea.WithoutRenderer(), // frames go through scr (tty.Screen)
		tea.WithContext(ctx),
		tea.WithoutSignalHandler(),
		tea.WithoutCatchPanics(),
		tea.WithoutBracketedPaste(),
	)
	stop := tr.follow(p)
	defer stop()
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

// sessionOptions are the session's options for cfg on a w×h screen: every pane starts
// at the size the layout gives it, so each program starts at its final size.
func sessionOptions(cfg Config, w, h int, probed tty.Probed, start session.StartFunc) session.Options {
	ids := make([]int, len(cfg.Panes))
	for i := range ids {
		ids[i] = i + 1
	}
	rects := buildLayout(cfg.Layout, ids).rects(rect{0, 0, w, max(h-1, 0)})
	panes := make([]session.PaneSpec, len(cfg.Panes))
	for i, spec := range cfg.Panes {
		spec.Cols, spec.Rows = rects[i].R.W-2, rects[i].R.H-2
		panes[i] = spec
	}
	return session.Options{
		Panes:         panes,
		Link:          cfg.Link,
		Turns:         cfg.Turns,
		Idle:          cfg.Idle,
		Address:       cfg.Address,
		Brief:         cfg.Brief,
		Delivery:      cfg.Delivery,
		Spend:         cfg.Spend,
		Profiles:      cfg.Profiles,
		Hooks:         cfg.Hooks,
		Version:       cfg.Version,
		HistoryLimit:  cfg.HistoryLimit,
		Colors:        probed.Colors,
		KittyKeyboard: probed.Kitty,
		Logger:        cfg.Logger,
		AddEnv:        cfg.AddEnv,
		Closed:        cfg.Closed,
		NewTree:       cfg.NewTree,
		Start:         start,

		NoPaneNamespaces: cfg.NoPaneNamespaces,
		Subreaper:        cfg.Subreaper,
	}
}

// followResize sends the program a WindowSizeMsg whenever the terminal's size changes
// (SIGWINCH; bubbletea only watches it when it renders itself), and once at start in
// case it changed before the signal was caught. The returned func stops it.
func followResize(o *tty.Terminal, p *tea.Program, log *slog.Logger) func() {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			w, h, err := o.Size()
			if err != nil {
				log.Warn("terminal size", "err", err)
			} else {
				p.Send(tea.WindowSizeMsg{Width: w, Height: h})
			}
			select {
			case <-winch:
			case <-stop:
				return
			}
		}
	}()
	return func() {
		signal.Stop(winch)
		close(stop)
		<-done // a Send in flight returns: Run cancels the program's context when it ends
	}
}
