// Package fakeclock is a clock for tests of the session core and its clients (it has the
// shape of session.Clock): time stands still until the test moves it, and a timer fires
// when the clock reaches its deadline. It imports nothing of the project.
package fakeclock

import (
	"sync"
	"time"
)

// Clock is a fake time source. Its methods are safe from any goroutine.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers map[*timer]bool
}

type timer struct {
	at time.Time
	c  chan time.Time
}

// New returns a clock standing at start.
func New(start time.Time) *Clock {
	return &Clock{now: start, timers: map[*timer]bool{}}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Timer returns a channel that receives once the clock reaches at, and a func that
// disarms it. A deadline already reached fires at once, as a real timer would.
func (c *Clock) Timer(at time.Time) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{at: at, c: make(chan time.Time, 1)}
	if !at.After(c.now) {
		t.c <- c.now
	} else {
		c.timers[t] = true
	}
	return t.c, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.timers, t)
	}
}

// Set moves the clock to at and fires the timers due by then.
func (c *Clock) Set(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = at
	for t := range c.timers {
		if !t.at.After(at) {
			t.c <- at
			delete(c.timers, t)
		}
	}
}

// Advance moves the clock on by d and fires the timers that are due.
func (c *Clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Next returns the earliest armed timer's deadline; false when none is armed.
func (c *Clock) Next() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var best time.Time
	ok := false
	for t := range c.timers {
		if !ok || t.at.Before(best) {
			best, ok = t.at, true
		}
	}
	return best, ok
}
