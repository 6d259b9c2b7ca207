package ui

// A whole bubbletea program (teatest) over fake panes, with the real clock: pane output
// signalled on the process's Updates channel must reach the screen through the re-armed
// wait and the frame throttle, typed keys must reach the focused pane's process, and
// prefix q y must end the program.

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/agentmux/agentmux/keys"
)

func TestProgram(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.m.now = time.Now
	wrote := make(chan struct{}, 16)
	hs.procs[1].onWrite = func() {
		select {
		case wrote <- struct{}{}:
		default:
		}
	}
	tm := teatest.NewTestModel(t, hs.m, teatest.WithInitialTermSize(120, 40))

	// Output from pane 2's program, signalled the way ptyhost does.
	hs.host.Pane(2).Term.Write([]byte("hello from b"))
	hs.procs[2].updates <- struct{}{}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("hello from b")) },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(5*time.Millisecond))

	// Keys typed go to pane 1.
	tm.Send(inputMsg{Events: []keys.Event{runeKey('h'), runeKey('i')}})
	deadline := time.After(5 * time.Second)
	for got := ""; got != "hi"; {
		select {
		case <-wrote:
			hs.procs[1].mu.Lock()
			got = hs.procs[1].in.String()
			hs.procs[1].mu.Unlock()
		case <-deadline:
			t.Fatalf("pane 1 got %q, want hi", got)
		}
	}

	tm.Send(inputMsg{Events: []keys.Event{testPrefix, runeKey('q')}})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("quit agentmux?")) },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	tm.Send(inputMsg{Events: []keys.Event{keys.Key{Code: keys.KeyRune, Rune: 'y'}}})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	// As Run does after the program: end the panes, which ends their watchers.
	if err := hs.host.CloseAll(); err != nil {
		t.Error(err)
	}
	if got := hs.procs[2].sent(); strings.Contains(got, "hi") {
		t.Errorf("pane 2 got pane 1's keys: %q", got)
	}
}
