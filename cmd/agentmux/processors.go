package main

import (
	"os"
	"runtime"
	"sync"
	"time"
)

// typingQuiet is how long after a person's last key the session server's Go code gets
// every processor back.
const typingQuiet = time.Second

// processors sets how many processors the session server's Go code runs on: all that
// Go gives it (runtime.SetDefaultGOMAXPROCS: the machine's, or its cgroup's share) while
// nobody types, one from a person's key until they have not typed for typingQuiet.
//
// Why both, measured on a 2-core VM (2026-12-01): while a pane floods, the pane's PTY
// reader spends about half its time inside read(2) (the kernel's PTY path), and on one
// processor the rest of the server (the session loop, its frames) waits for it, so
// BenchmarkCatColoredLog's 64 MB printed 25-30% later on one processor than on two
// (six interleaved runs of eight: 0.96-1.34 s against 0.68-0.90 s). But a server on both
// cores leaves none to the programs a person types into: the echo of a key typed while
// another pane floods took 19-55 ms at p99 on two processors against 5.6-7.3 ms on one.
// A person's key is where latency matters, so a key drops the server to one processor,
// the flood then waits its turn (ptyhost's EchoFirst holds it for the echo, and its
// reader yields through the poller so the key is read within a PTY read), and the
// spare processors come back once the typing stops. (The in-process session keeps Go's
// default: there the terminal's own reading and drawing share the one processor, and
// the echo was worse with the policy, p95 22 ms against 4-6 ms.)
//
// typed runs on the session's loop (session.Options.Typing), quiet on its timer's
// goroutine; mu guards the rest.
type processors struct {
	one  func() // to one processor
	all  func() // back to Go's default
	now  func() time.Time
	wake func(d time.Duration) // arms the timer that calls quiet, or re-arms it

	mu    sync.Mutex
	held  bool      // on one processor since a key
	until time.Time // when the typing counts as stopped
	timer *time.Timer
}

// newProcessors returns the policy for this process, or nil where there is nothing to
// give back: the environment sets GOMAXPROCS (the person's setting stands), or Go gives
// one processor anyway.
func newProcessors() *processors {
	if os.Getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) == 1 {
		return nil
	}
	p := &processors{
		one: func() { runtime.GOMAXPROCS(1) },
		all: runtime.SetDefaultGOMAXPROCS,
		now: time.Now,
	}
	p.wake = func(d time.Duration) {
		if p.timer == nil {
			p.timer = time.AfterFunc(d, p.quiet)
		} else {
			p.timer.Reset(d)
		}
	}
	return p
}

// typed says a person's key just went to a pane's program.
func (p *processors) typed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.until = p.now().Add(typingQuiet)
	if !p.held {
		p.held = true
		p.one()
	}
	p.wake(typingQuiet)
}

// quiet gives the processors back if no key came for typingQuiet; a timer that fired
// as a key re-armed it finds the typing still on, and the re-armed one comes later.
func (p *processors) quiet() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.held || p.now().Before(p.until) {
		return
	}
	p.held = false
	p.all()
}

// hook is typed as session.Options.Typing takes it: nil for no policy.
func (p *processors) hook() func() {
	if p == nil {
		return nil
	}
	return p.typed
}
