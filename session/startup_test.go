package session

// Strategy: the panes of a linked session start one after another, and a program
// started with a task (its opening turn) may answer it before the last pane's program
// has started. Pane 2's start here waits until pane 1 has taken its whole opening turn,
// each step observed by the loop (stepProc hands the watcher each output signal by an
// unbuffered send, so a second send returns only once the first was observed): that
// turn must reach pane 2 once it is started and idle.

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/ptyhost"
)

// stepProc is a fake process whose output signals the test hands over one at a time.
type stepProc struct {
	*fakeproc.Proc
	updates chan struct{}
}

func (p *stepProc) Updates() <-chan struct{} { return p.updates }

// print prints s and returns once the session's loop has observed it.
func (p *stepProc) print(t *testing.T, s string) {
	t.Helper()
	p.Proc.Print(s)
	for range 2 { // the second signal is taken once the first was observed
		select {
		case p.updates <- struct{}{}:
		case <-time.After(10 * time.Second):
			t.Fatal("pane 1's output was not observed while the next pane was starting")
		}
	}
}

func TestOpeningTurnBeforeTheLastPaneStartedIsRelayed(t *testing.T) {
	r := &rig{t: t, clock: newFakeClock(), procs: map[int]*fakeProc{}}
	var alice *stepProc
	o := Options{Link: true, Idle: time.Second, OutputInterval: -1, Clock: r.clock}
	o.Start = func(spec ptyhost.Spec, out io.Writer) (Process, error) {
		f := fakeproc.New(spec, out)
		r.procs[spec.Pane] = f
		if spec.Pane == 1 {
			alice = &stepProc{Proc: f, updates: make(chan struct{})}
			return alice, nil
		}
		alice.print(t, "alice's banner\r\n\x1b]0;⠂ alice\x07")            // busy from its first paint
		alice.print(t, "Hi bob, shall we start?\r\n\x1b]0;✳ alice\x07> ") // its answer, then idle
		return f, nil
	}
	for _, n := range []string{"alice", "bob"} {
		o.Panes = append(o.Panes, PaneSpec{Name: n, Argv: []string{"claude"}, Cols: 40, Rows: 10})
	}
	s, err := Start(o)
	require.NoError(t, err)
	r.s, r.sub = s, s.Subscribe(0)
	t.Cleanup(func() { require.NoError(t, s.Stop()) })

	r.printed(2, "\x1b]0;✳ bob\x07> ")
	r.advance(2 * time.Second) // both quiet past --idle: started, alice's turn ended
	r.advance(time.Second)     // the submit delay
	got := r.procs[2].Sent()
	require.Contains(t, got, "alice (1):", "alice's opening turn was not delivered to bob")
	require.Contains(t, got, "Hi bob, shall we start?")
	require.False(t, strings.Contains(got, "banner"), "the banner was relayed: %q", got)
}

// A pane that cannot start fails Start with its number and name; the panes started
// before it are ended (TestMain's goleak checks that nothing of the session is left).
func TestAPaneThatCannotStartEndsThoseStarted(t *testing.T) {
	var first *fakeProc
	o := Options{Link: true, Clock: newFakeClock()}
	o.Start = func(spec ptyhost.Spec, out io.Writer) (Process, error) {
		if spec.Pane == 2 {
			return nil, errors.New("no such program")
		}
		first = fakeproc.New(spec, out)
		first.Print("> ")
		return first, nil
	}
	for _, n := range []string{"alice", "bob", "carol"} {
		o.Panes = append(o.Panes, PaneSpec{Name: n, Argv: []string{"claude"}, Cols: 40, Rows: 10})
	}
	s, err := Start(o)
	require.Nil(t, s)
	require.ErrorContains(t, err, `start pane 2 "bob": no such program`)
	select {
	case <-first.Done():
	default:
		t.Fatal("pane 1's program was left running")
	}
}
