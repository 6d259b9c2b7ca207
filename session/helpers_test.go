package session

// The session's tests run the real loop over fake processes (fakeProc: output is written
// straight into the pane's emulator, then signalled) and a fake clock whose timers fire
// only when the test advances it. Every wait is on a channel: Sync is the barrier after
// commands, a subscription's Ready the barrier for events. goleak checks that Stop
// leaves no goroutine behind.

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/internal/fakeclock"
	"github.com/agentmux/agentmux/ptyhost"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeProc is a Process with no process behind it.
type fakeProc struct {
	mu      sync.Mutex
	spec    ptyhost.Spec
	out     io.Writer
	in      bytes.Buffer
	updates chan struct{}
	done    chan struct{}
	code    int
	closed  bool
	echo    bool // echo what is written at once, as a terminal's line discipline does
}

func (f *fakeProc) Write(b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.in.Write(b)
	if f.echo {
		f.print(strings.ReplaceAll(string(b), "\r", "\r\n"))
	}
}

// setEcho turns the line discipline's echo on or off.
func (f *fakeProc) setEcho(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.echo = on
}

func (f *fakeProc) Resize(cols, rows int) error { return nil }

func (f *fakeProc) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.done)
	}
	return nil
}

func (f *fakeProc) Updates() <-chan struct{} { return f.updates }
func (f *fakeProc) Done() <-chan struct{}    { return f.done }
func (f *fakeProc) ExitCode() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.code
}

// sent returns and clears what the program was sent.
func (f *fakeProc) sent() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.in.String()
	f.in.Reset()
	return s
}

// print writes s into the pane's emulator and signals it, as ptyhost's reader does.
func (f *fakeProc) print(s string) {
	_, _ = f.out.Write([]byte(s))
	select {
	case f.updates <- struct{}{}:
	default:
	}
}

// exit ends the fake program with code.
func (f *fakeProc) exit(code int) {
	f.mu.Lock()
	f.code = code
	f.mu.Unlock()
	_ = f.Close()
}

// fakeClock is the session's clock in these tests: its timers fire when Advance passes
// their deadline.
type fakeClock = fakeclock.Clock

func newFakeClock() *fakeClock { return fakeclock.New(time.Unix(1_700_000_000, 0)) }

// rig is a session over fake panes.
type rig struct {
	t     *testing.T
	s     *Session
	clock *fakeClock
	procs map[int]*fakeProc
	sub   *Subscription
}

// newRig starts one fake pane per name; o's Panes, Start and Clock are filled in.
func newRig(t *testing.T, o Options, names ...string) *rig {
	t.Helper()
	r := &rig{t: t, clock: newFakeClock(), procs: map[int]*fakeProc{}}
	var mu sync.Mutex
	o.Start = func(spec ptyhost.Spec, out io.Writer) (Process, error) {
		f := &fakeProc{spec: spec, out: out, updates: make(chan struct{}, 1), done: make(chan struct{})}
		mu.Lock()
		r.procs[spec.Pane] = f
		mu.Unlock()
		return f, nil
	}
	o.Clock = r.clock
	for _, n := range names {
		o.Panes = append(o.Panes, PaneSpec{Name: n, Argv: []string{n}, Cols: 40, Rows: 10})
	}
	s, err := Start(o)
	require.NoError(t, err)
	r.s = s
	r.sub = s.Subscribe(0)
	t.Cleanup(func() { require.NoError(t, s.Stop()) })
	return r
}

// events waits for the subscription's next batch.
func (r *rig) events() []Event {
	r.t.Helper()
	select {
	case <-r.sub.Ready():
	case <-time.After(10 * time.Second):
		r.t.Fatal("no event in 10 s")
	}
	return r.sub.Next()
}

// await collects events until one satisfies ok, and returns it.
func (r *rig) await(ok func(Event) bool) Event {
	r.t.Helper()
	for {
		for _, ev := range r.events() {
			if ok(ev) {
				return ev
			}
		}
	}
}

// printed makes pane id print s and waits until the session observed it.
func (r *rig) printed(id int, s string) {
	r.t.Helper()
	r.procs[id].print(s)
	r.await(func(ev Event) bool { o, ok := ev.(Output); return ok && o.Pane == id })
}

// advance moves the clock on and waits until the loop has handled what fell due.
func (r *rig) advance(d time.Duration) {
	r.clock.Advance(d)
	r.s.Sync()
}
