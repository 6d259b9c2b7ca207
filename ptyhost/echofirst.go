package ptyhost

import (
	"sync"
	"sync/atomic"
	"time"
)

// EchoFirst gives the reply to a person's key the right of way over other panes'
// output. While one pane floods, its program, the kernel passing its bytes and the
// reader parsing them keep both cores of a small machine busy, and the pane a person
// types into waits its turn for a processor at every step of the echo: the program
// reading the key, the reader taking its echo. Once a key is written (Proc.Expect), the
// readers of the other programs sharing the EchoFirst stop, before their next read or
// before parsing a read that was waiting, until the keyed program prints or the wait
// passes. A flood's program then blocks on its full terminal within a millisecond, and
// the echo competes with fewer busy processes. A flood loses at most the wait per key (a
// person types a few keys a second); nothing is dropped, the output only waits in its
// terminal.
type EchoFirst struct {
	wait   time.Duration
	held   atomic.Bool // fast path for the readers: no hold, no lock
	onWait func()      // called as a reader starts to wait (tests set it before any reader runs)

	mu   sync.Mutex
	by   *Proc         // whose echo is awaited (nil: none)
	open chan struct{} // closed when the hold ends
	end  *time.Timer
}

// NewEchoFirst returns an EchoFirst whose holds last at most wait.
func NewEchoFirst(wait time.Duration) *EchoFirst { return &EchoFirst{wait: wait} }

// hold makes p's the awaited echo, ending any other hold first.
func (e *EchoFirst) hold(p *Proc) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.releaseLocked()
	ch := make(chan struct{})
	e.by, e.open = p, ch
	e.end = time.AfterFunc(e.wait, func() { e.release(ch) })
	e.held.Store(true)
}

// release ends the hold whose channel is ch, if it still holds.
func (e *EchoFirst) release(ch chan struct{}) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.open == ch {
		e.releaseLocked()
	}
}

func (e *EchoFirst) releaseLocked() {
	if e.open == nil {
		return
	}
	e.end.Stop()
	close(e.open)
	e.by, e.open, e.end = nil, nil, nil
	e.held.Store(false)
}

// printed says p's reader took output: its echo came, if it was awaited.
func (e *EchoFirst) printed(p *Proc) {
	if !e.held.Load() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.by == p {
		e.releaseLocked()
	}
}

// pass returns when p's reader may go on (read, or parse what it read): at once unless another program's echo is
// awaited, else when it came, Wait passed or stop closed.
func (e *EchoFirst) pass(p *Proc, stop <-chan struct{}) {
	if !e.held.Load() {
		return
	}
	e.mu.Lock()
	by, ch := e.by, e.open
	e.mu.Unlock()
	if by == nil || by == p {
		return
	}
	if e.onWait != nil {
		e.onWait()
	}
	select {
	case <-ch:
	case <-stop:
	}
}
