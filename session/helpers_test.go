package session

// The session's tests run the real loop over fake processes (fakeProc: output is written
// straight into the pane's emulator, then signalled) and a fake clock whose timers fire
// only when the test advances it. Every wait is on a channel: Sync is the barrier after
// commands, a subscription's Ready the barrier for events. goleak checks that Stop
// leaves no goroutine behind.

import (
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/internal/fakeclock"
	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/ptyhost"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeProc is a Process with no process behind it.
type fakeProc = fakeproc.Proc

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
		f := fakeproc.New(spec, out)
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

// printed makes pane id print s and waits until the session observed it and ended that
// turn of its loop (the Output event comes before the members are read again, at the
// clock's time then: a test that moves the clock next must not move it under them).
func (r *rig) printed(id int, s string) {
	r.t.Helper()
	r.procs[id].Print(s)
	r.await(func(ev Event) bool { o, ok := ev.(Output); return ok && o.Pane == id })
	r.s.Sync()
}

// advance moves the clock on and waits until the loop has handled what fell due.
func (r *rig) advance(d time.Duration) {
	r.clock.Advance(d)
	r.s.Sync()
}
