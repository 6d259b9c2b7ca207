package ui

// A whole bubbletea program over a session of fake panes, with the real clock, drawing
// through the real screen writer (tty.Screen, as Run does with bubbletea's renderer off)
// into a vterm that stands in for the outer terminal: pane output must reach that screen
// (output held for the frame rate too, drawn when the frame timer fires),
// typed keys must reach the focused pane's process, and prefix q y must end the program.
// A frame replayed through the writer must show exactly the text View built.

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/tty"
	"github.com/agentmux/agentmux/vterm"
)

// outerScreen is the outer terminal: what the screen writer writes goes into a vterm,
// and every write is signalled.
type outerScreen struct {
	mu    sync.Mutex
	term  *vterm.Terminal
	wrote chan struct{}
}

func newOuterScreen(w, h int) *outerScreen {
	return &outerScreen{term: vterm.New(vterm.Options{Cols: w, Rows: h}), wrote: make(chan struct{}, 1)}
}

func (o *outerScreen) Write(p []byte) (int, error) {
	o.mu.Lock()
	_, _ = o.term.Write(p)
	o.mu.Unlock()
	select {
	case o.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

// waitFor waits until the screen's text satisfies ok, failing with the last screen.
func (o *outerScreen) waitFor(t *testing.T, what string, ok func(string) bool) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		o.mu.Lock()
		text := strings.Join(o.term.ScreenText(), "\n")
		o.mu.Unlock()
		if ok(text) {
			return
		}
		select {
		case <-o.wrote:
		case <-deadline:
			t.Fatalf("no %s on the screen after 5 s; last screen:\n%s", what, text)
		}
	}
}

func TestProgramDrawsThroughTheScreenWriter(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.m.now = time.Now
	outer := newOuterScreen(120, 40)
	scr := tty.NewScreen(outer)
	defer scr.Close()
	hs.m.scr = scr
	wrote := make(chan struct{}, 16)
	hs.procs[1].SetOnWrite(func() {
		select {
		case wrote <- struct{}{}:
		default:
		}
	})
	hs.m.ticks = newFrameTimer()
	defer hs.m.ticks.stop()
	hs.m.present() // the first frame, as Run draws it before the program starts
	p := tea.NewProgram(hs.m, tea.WithInput(nil), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = p.Run()
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go forwardSession(ctx, p, hs.m.sub, hs.m.ticks) // as runModel starts it

	hs.procs[2].Print("hello from b")
	outer.waitFor(t, "pane 2's output", func(s string) bool { return strings.Contains(s, "hello from b") })
	// Output within a frame interval of the last frame is held: the frame timer, through
	// the session forwarder, draws it.
	hs.procs[2].Print(" and again")
	outer.waitFor(t, "pane 2's held output", func(s string) bool { return strings.Contains(s, "hello from b and again") })

	p.Send(inputMsg{Events: []keys.Event{runeKey('h'), runeKey('i')}})
	deadline := time.After(5 * time.Second)
	for got := ""; got != "hi"; {
		select {
		case <-wrote:
			got = hs.procs[1].Peek()
		case <-deadline:
			t.Fatalf("pane 1 got %q, want hi", got)
		}
	}

	p.Send(inputMsg{Events: []keys.Event{testPrefix, runeKey('q')}})
	outer.waitFor(t, "the quit question", func(s string) bool { return strings.Contains(s, "quit agentmux?") })
	p.Send(inputMsg{Events: []keys.Event{runeKey('y')}})
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("prefix q y did not end the program")
	}
	require.NotContains(t, hs.procs[2].Sent(), "hi", "pane 2 got pane 1's keys")
}

// TestScreenWriterShowsTheModelsFrame replays a real frame through the writer into a
// vterm and compares its text with the view: what the person sees is what View built.
func TestScreenWriterShowsTheModelsFrame(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.output(1, "\x1b[31mred\x1b[m 世界 e\u0301 ok")
	hs.output(2, "right pane")
	want := hs.text()
	outer := newOuterScreen(120, 40)
	s := tty.NewScreen(outer)
	s.Present(hs.m.frameLines, 120, 40, hs.m.cursor)
	s.Close() // writes the frame still waiting
	got := outer.term.ScreenText()
	for i, w := range strings.Split(want, "\n") {
		require.Equal(t, strings.TrimRight(w, " "), got[i], "row %d", i)
	}
}
