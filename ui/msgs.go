package ui

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"
)

// inputMsg carries the events decoded from one read of the outer terminal, in order.
// Err is set when input ended (the terminal went away) or its goroutines failed.
type inputMsg struct {
	Events []keys.Event
	Err    error
}

// sessionMsg carries the session's events since the last one, in order. Err is set
// when the subscription ended.
type sessionMsg struct {
	Events []session.Event
	Err    error
}

// frameMsg is the frame timer's firing (frameTimer): take snapshots of dirty panes and
// redraw.
type frameMsg struct{}

// fatalMsg ends the program with Err (a panic caught in a forwarder, msgs.go).
type fatalMsg struct{ Err error }

// frameInterval is the least time between two frames built from pane output (60 fps,
// bubbletea's own render rate).
const frameInterval = time.Second / 60

// echoGap is the least time between a frame and one drawn early for the echo of a key;
// echoWindow is how long after a key its pane's output counts as the echo.
const (
	echoGap    = 2 * time.Millisecond
	echoWindow = 100 * time.Millisecond
)

// PanicError is a panic caught in one of agentmux's goroutines, with its stack,
// returned after the terminal has been restored.
type PanicError = tty.PanicError

// errInputClosed says the outer terminal's input ended.
var errInputClosed = errors.New("terminal input closed")

// sender is where the forwarders hand their messages: the program (tea.Program.Send,
// which waits until its loop takes the message, or the program has ended).
type sender interface{ Send(tea.Msg) }

// forwardInput hands the program the input read while probing (early), then each batch
// of decoded input from ch, in order, until ch is closed or ctx ends. One goroutine
// that lives as long as the program, where a Cmd re-armed after each batch would cost a
// goroutine and a trip through bubbletea's command queue per batch.
func forwardInput(ctx context.Context, p sender, early []keys.Event, ch <-chan tty.Batch) {
	if len(early) > 0 {
		p.Send(inputMsg{Events: early})
	}
	for {
		select {
		case b, ok := <-ch:
			if !ok {
				p.Send(inputMsg{Err: errInputClosed})
				return
			}
			p.Send(inputMsg{Events: b.Events, Err: b.Err})
			if b.Err != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// forwardSession hands the program the session's events, a batch at a time, and the
// frame timer's firings (frameMsg), until the subscription ends or ctx does; a panic
// reading them ends the program (fatalMsg). ticks is nil when no timer is armed (tests
// that drive the frames themselves).
func forwardSession(ctx context.Context, p sender, sub *session.Subscription, ticks *frameTimer) {
	var fired <-chan time.Time
	if ticks != nil {
		fired = ticks.fired()
	}
	defer func() {
		if r := recover(); r != nil {
			p.Send(fatalMsg{Err: tty.Recovered(r)})
		}
	}()
	for {
		select {
		case _, open := <-sub.Ready():
			if evs := sub.Next(); len(evs) > 0 {
				p.Send(sessionMsg{Events: evs})
			}
			if !open {
				if err := sub.Err(); err != nil {
					p.Send(sessionMsg{Err: err})
				}
				return // unsubscribed: the program is ending
			}
			// A signal whose events an earlier Next already took: wait again.
		case <-fired:
			p.Send(frameMsg{})
		case <-ctx.Done():
			return
		}
	}
}
