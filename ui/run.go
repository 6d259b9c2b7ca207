package ui

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/vterm"
)

// probeTimeout bounds the wait for the outer terminal's answers at start-up (DA1 ends it
// early; every terminal answers DA1).
const probeTimeout = 750 * time.Millisecond

// Run takes over the terminal (in, out), starts cfg's panes and runs the ui until the
// user quits, the last pane is closed, input ends or ctx is cancelled (a signal). The
// terminal is restored and every child process group ended before Run returns, also on
// a panic, which comes back as a *PanicError to print after the restore.
func Run(ctx context.Context, cfg Config, in, out *os.File) error {
	return run(ctx, cfg, in, out, runOptions{})
}

// runOptions are Run's seams for tests: fake processes, and a wrapper around the model
// (to make it panic, say).
type runOptions struct {
	start StartFunc
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
	o, err := openOuter(in, out)
	if err != nil {
		return err
	}
	host := NewHost(HostOptions{Start: ro.start, Version: cfg.Version, HistoryLimit: cfg.HistoryLimit, Logger: log})
	var ir *inputReader
	var scr *screenWriter
	defer func() {
		r := recover()
		if scr != nil {
			scr.close()
		}
		if rerr := o.restore(); rerr != nil {
			log.Warn("restore terminal", "err", rerr)
		}
		if ir != nil {
			ir.close()
		}
		if cerr := host.CloseAll(); cerr != nil {
			log.Warn("close panes", "err", cerr)
		}
		if r != nil {
			err = &PanicError{Value: r, Stack: debug.Stack()}
			log.Error("panic", "err", err)
		}
	}()

	ir, err = startInput(ctx, in)
	if err != nil {
		return err
	}
	if err := o.send(enterSeq + probeSeq); err != nil {
		return fmt.Errorf("set up terminal: %w", err)
	}
	early, err := probeTerminal(o, ir, host, log)
	if err != nil {
		return err
	}
	w, h, err := o.size()
	if err != nil {
		return err
	}
	if err := startPanes(host, cfg, w, h); err != nil {
		return err
	}

	r := lipgloss.NewRenderer(o)
	r.SetColorProfile(termenv.EnvColorProfile())
	r.SetHasDarkBackground(true) // never let termenv query the terminal behind our reader
	scr = newScreenWriter(o)
	m := newModel(cfg, host, modelOptions{width: w, height: h, input: ir.events, renderer: r, initial: early, screen: scr})
	m.present() // the first frame, before any message arrives
	var tm tea.Model = m
	if ro.wrap != nil {
		tm = ro.wrap(m)
	}
	p := tea.NewProgram(tm,
		tea.WithInput(nil),
		tea.WithOutput(o),
		tea.WithoutRenderer(), // frames go through scr (screen.go)
		tea.WithContext(ctx),
		tea.WithoutSignalHandler(),
		tea.WithoutCatchPanics(),
		tea.WithoutBracketedPaste(),
	)
	stopWinch := followResize(o, p, log)
	defer stopWinch()
	_, err = p.Run()
	if m.err != nil { // the event loop has ended: m is ours again
		return m.err
	}
	if err != nil && !(errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil) {
		return fmt.Errorf("ui: %w", err)
	}
	return nil
}

// probeTerminal waits for the answers to the start-up queries and applies them: the
// default colours go to the Host (every emulator answers OSC 10/11 with them) and kitty
// keyboard support turns on kitty reports. Other input read meanwhile is returned for
// the model to replay.
func probeTerminal(o *outer, ir *inputReader, host *Host, log *slog.Logger) ([]keys.Event, error) {
	replies, early, err := ir.probe(probeTimeout)
	if err != nil {
		return nil, fmt.Errorf("read terminal: %w", err)
	}
	var colors vterm.Colors
	kitty := false
	for _, rp := range replies {
		r := parseReply(rp.Raw)
		switch r.kind {
		case replyFG:
			colors.FG = r.color
		case replyBG:
			colors.BG = r.color
		case replyKitty:
			kitty = true
		}
	}
	log.Info("terminal probed", "fg", colors.FG, "bg", colors.BG, "kitty", kitty, "answers", len(replies))
	host.SetColors(colors)
	if kitty {
		host.SetKittyKeyboard(true)
		if err := o.pushKitty(); err != nil {
			return nil, fmt.Errorf("kitty keyboard: %w", err)
		}
	}
	return early, nil
}

// startPanes starts every pane at the size the layout gives it on a w×h screen, so each
// program starts at its final size.
func startPanes(host *Host, cfg Config, w, h int) error {
	ids := make([]int, len(cfg.Panes))
	for i := range ids {
		ids[i] = i + 1
	}
	rects := buildLayout(cfg.Layout, ids).rects(rect{0, 0, w, max(h-1, 0)})
	for i, spec := range cfg.Panes {
		r := rects[i].R
		if _, err := host.Start(spec, r.W-2, r.H-2); err != nil {
			return err
		}
	}
	return nil
}

// followResize sends the program a WindowSizeMsg whenever the terminal's size changes
// (SIGWINCH; bubbletea only watches it when it renders itself), and once at start in
// case it changed before the signal was caught. The returned func stops it.
func followResize(o *outer, p *tea.Program, log *slog.Logger) func() {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			w, h, err := o.size()
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
