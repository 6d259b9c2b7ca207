package ui

import (
	"fmt"
	"runtime/debug"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
)

// inputMsg carries the events decoded from one read of the outer terminal (keys.Key,
// keys.Paste, keys.Mouse, keys.Focus, keys.Reply), in order. Err is set when input ended
// (the terminal went away) or its goroutines failed.
type inputMsg struct {
	Events []keys.Event
	Err    error
	// replay marks input read before the program started: handling it does not re-arm
	// waitForInput (exactly one wait is outstanding at any time, so batches keep order).
	replay bool
}

// paneOutputMsg says pane ID's emulator received new output since it was last armed.
type paneOutputMsg struct{ ID int }

// paneExitedMsg says pane ID's program exited with Code and its output is drained.
type paneExitedMsg struct{ ID, Code int }

// paneClosedMsg says a removed pane's process group has been ended.
type paneClosedMsg struct {
	ID  int
	Err error
}

// frameMsg is the throttled frame tick: take snapshots of dirty panes and redraw. At is
// the time it was armed for, so a superseded tick is recognised.
type frameMsg struct{ at time.Time }

// fatalMsg ends the program with Err (a panic caught in a Cmd goroutine).
type fatalMsg struct{ Err error }

// frameInterval is the least time between two frames built from pane output (60 fps,
// bubbletea's own render rate).
const frameInterval = time.Second / 60

// echoGap is the least time between a frame and one drawn early for the echo of a key
// (scheduleEcho); echoWindow is how long after a key its pane's output counts as the
// echo.
const (
	echoGap    = 2 * time.Millisecond
	echoWindow = 100 * time.Millisecond
)

// PanicError is a panic caught in one of the ui's goroutines, with its stack, returned
// after the terminal has been restored.
type PanicError struct {
	Value any
	Stack []byte
}

// Error describes the panic and where it happened.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v\n%s", e.Value, e.Stack) }

// guard wraps a Cmd so a panic inside it becomes a fatalMsg (the program quits and the
// terminal is restored) instead of killing the process with the screen taken over.
func guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = fatalMsg{Err: &PanicError{Value: r, Stack: debug.Stack()}}
			}
		}()
		return cmd()
	}
}

// waitForInput returns the next batch of input events from ch (bubbletea's realtime
// pattern: Update re-arms it after each batch).
func waitForInput(ch <-chan inputMsg) tea.Cmd {
	return guard(func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return inputMsg{Err: errInputClosed}
		}
		return msg
	})
}

// waitForOutput turns pane id's next output signal into a paneOutputMsg. It returns nil
// (no message) once the process is done; the exit watcher reports that.
func waitForOutput(id int, updates, done <-chan struct{}) tea.Cmd {
	return guard(func() tea.Msg {
		select {
		case <-updates:
			return paneOutputMsg{ID: id}
		case <-done:
			return nil
		}
	})
}

// waitForExit reports pane id's exit once its output is drained.
func waitForExit(id int, p Process) tea.Cmd {
	return guard(func() tea.Msg {
		<-p.Done()
		return paneExitedMsg{ID: id, Code: p.ExitCode()}
	})
}

// endProcess ends a removed pane's process group off the ui goroutine (Close may wait for
// a grace period).
func endProcess(id int, p Process) tea.Cmd {
	return guard(func() tea.Msg {
		return paneClosedMsg{ID: id, Err: p.Close()}
	})
}

// frameAfter schedules a frame tick in d, labelled with its due time.
func frameAfter(d time.Duration, due time.Time) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return frameMsg{at: due} })
}
