package main

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// fakeProcessors is the policy with its processor settings counted, its clock set by
// the test and its timer's firing left to the test.
type fakeProcessors struct {
	*processors
	ones, alls int
	clock      time.Time
	armed      []time.Duration
}

func newFakeProcessors() *fakeProcessors {
	f := &fakeProcessors{clock: time.Unix(1000, 0)}
	f.processors = &processors{
		one:  func() { f.ones++ },
		all:  func() { f.alls++ },
		now:  func() time.Time { return f.clock },
		wake: func(d time.Duration) { f.armed = append(f.armed, d) },
	}
	return f
}

// A person's key drops the session to one processor, once for a run of keys; the
// processors come back when the timer finds no key for typingQuiet, and a timer that
// fires while the typing goes on (it raced a key that re-armed it) gives nothing back.
func TestTypingHoldsTheSpareProcessorsUntilItStops(t *testing.T) {
	f := newFakeProcessors()
	f.typed()
	assert.Equal(t, 1, f.ones, "the first key: one processor")
	f.clock = f.clock.Add(300 * time.Millisecond)
	f.typed()
	assert.Equal(t, 1, f.ones, "already on one")
	assert.Equal(t, []time.Duration{typingQuiet, typingQuiet}, f.armed, "each key re-arms the timer")

	f.clock = f.clock.Add(typingQuiet - time.Millisecond)
	f.quiet()
	assert.Zero(t, f.alls, "a key came less than typingQuiet ago")

	f.clock = f.clock.Add(time.Millisecond)
	f.quiet()
	assert.Equal(t, 1, f.alls, "quiet for typingQuiet: every processor back")
	f.quiet()
	assert.Equal(t, 1, f.alls, "given back once")

	f.typed()
	assert.Equal(t, 2, f.ones, "typing again: one processor again")
}

// The environment's GOMAXPROCS is the person's choice, and one processor has nothing to
// give back: no policy then.
func TestProcessorsLeaveTheEnvironmentsSetting(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.SetDefaultGOMAXPROCS()
	def := runtime.GOMAXPROCS(0) // the machine's, or its cgroup's share
	t.Setenv("GOMAXPROCS", "2")
	assert.Nil(t, newProcessors())
	assert.Nil(t, newProcessors().hook(), "no policy, no hook")

	t.Setenv("GOMAXPROCS", "")
	runtime.GOMAXPROCS(1)
	assert.Nil(t, newProcessors())

	runtime.GOMAXPROCS(2)
	p := newProcessors()
	if assert.NotNil(t, p) {
		p.typed()
		assert.Equal(t, 1, runtime.GOMAXPROCS(0), "a key: one processor")
		p.mu.Lock()
		p.timer.Stop()
		p.until = time.Time{} // as if typingQuiet had passed
		p.mu.Unlock()
		p.quiet()
		assert.Equal(t, def, runtime.GOMAXPROCS(0), "back to Go's default")
	}
}
