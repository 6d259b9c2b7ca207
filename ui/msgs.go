package ui

import (
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
	// replay marks input read before the program started: handling it does not re-arm
	// waitForInput (exactly one wait is outstanding at any time, so batches keep order).
	replay bool
}

// sessionMsg carries the session's events since the last one, in order. Err is set
// when the subscription ended.
type sessionMsg struct {
	Events []session.Event
	Err    error
}

// frameMsg is the throttled frame tick: take snapshots of dirty panes and redraw. At is
// the time it was armed for, so a superseded tick is recognised.
type frameMsg struct{ at time.Time }

// fatalMsg ends the program with Err (a panic caught in a Cmd goroutine).
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

// guard wraps a Cmd so a panic inside it becomes a fatalMsg (the program quits and the
// terminal is restored) instead of killing the process with the screen taken over.
func guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = fatalMsg{Err: tty.Recovered(r)}
			}
		}()
		return cmd()
	}
}

// waitForInput returns the next batch of input events from ch (bubbletea's realtime
// pattern: Update re-arms it after each batch).
func waitForInput(ch <-chan tty.Batch) tea.Cmd {
	return guard(func() tea.Msg {
		b, ok := <-ch
		if !ok {
			return inputMsg{Err: errInputClosed}
		}
		return inputMsg{Events: b.Events, Err: b.Err}
	})
}

// waitForSession returns the session's next batch of events (re-armed after each).
func waitForSession(sub *session.Subscription) tea.Cmd {
	return guard(func() tea.Msg {
		for {
			_, open := <-sub.Ready()
			if evs := sub.Next(); len(evs) > 0 {
				return sessionMsg{Events: evs}
			}
			if !open {
				if err := sub.Err(); err != nil {
					return sessionMsg{Err: err}
				}
				return nil // unsubscribed: the program is ending
			}
			// A signal whose events an earlier Next already took: wait again.
		}
	})
}

// frameAfter schedules a frame tick in d, labelled with its due time.
func frameAfter(d time.Duration, due time.Time) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return frameMsg{at: due} })
}
