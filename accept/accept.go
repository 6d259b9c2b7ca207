// Package accept owns the accept loop's answer to failures: a listener whose Accept fails
// for a reason that passes (the process or the system out of file descriptors, memory or
// buffers; a connection aborted before it was taken) is retried after a backoff instead
// of being given up, so one spell of "too many open files" does not end a socket for
// good. It imports nothing of the project.
package accept

import (
	"errors"
	"log/slog"
	"net"
	"syscall"
	"time"
)

// The backoff after a temporary failure: MinDelay, doubled after each failure in a row
// up to MaxDelay, back to MinDelay after a success.
const (
	MinDelay = 5 * time.Millisecond
	MaxDelay = time.Second
)

// Loop accepts from a listener and waits out temporary failures. Its zero value is not
// usable: L and Quit are required. One goroutine owns a Loop.
type Loop struct {
	// L is the listener accepted from.
	L net.Listener
	// Quit ends the waiting: once it is closed Accept returns net.ErrClosed.
	Quit <-chan struct{}
	// Logger gets one line when a spell of failures starts and one when it ends
	// (discarded when nil).
	Logger *slog.Logger
	// Name says which socket in the log lines ("session socket").
	Name string

	delay    time.Duration // the next wait; 0 outside a spell
	failures int           // failures in this spell
	since    time.Time     // when the spell began
}

// Accept returns the next connection. A temporary failure is logged once per spell and
// retried after the backoff; Accept returns an error only when the listener is closed,
// Quit is closed, or the listener fails in a way that does not pass (that error).
func (a *Loop) Accept() (net.Conn, error) {
	for {
		nc, err := a.L.Accept()
		if err == nil {
			a.recovered()
			return nc, nil
		}
		select {
		case <-a.Quit:
			return nil, net.ErrClosed
		default:
		}
		if !Temporary(err) {
			return nil, err
		}
		if !a.wait(err) {
			return nil, net.ErrClosed
		}
	}
}

// wait sleeps the backoff for a temporary failure err (false: Quit closed meanwhile).
func (a *Loop) wait(err error) bool {
	if a.delay == 0 {
		a.since = time.Now()
		a.logger().Warn("accept failing; retrying with backoff", "socket", a.Name, "err", err, "max_delay", MaxDelay)
	}
	a.failures++
	t := time.NewTimer(a.next())
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-a.Quit:
		return false
	}
}

// next is the wait before the next try: MinDelay first, then twice the last, up to
// MaxDelay.
func (a *Loop) next() time.Duration {
	if a.delay == 0 {
		a.delay = MinDelay
	} else {
		a.delay = min(2*a.delay, MaxDelay)
	}
	return a.delay
}

// recovered ends a spell of failures (if any) with a log line.
func (a *Loop) recovered() {
	if a.delay == 0 {
		return
	}
	a.logger().Info("accepting again", "socket", a.Name, "failures", a.failures, "after", time.Since(a.since).Round(time.Millisecond))
	a.delay, a.failures = 0, 0
}

func (a *Loop) logger() *slog.Logger {
	if a.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Logger
}

// Temporary reports whether an Accept error passes with time: a timeout, or the
// process or system out of file descriptors (EMFILE, ENFILE), buffers or memory
// (ENOBUFS, ENOMEM), or a connection that went away before it was taken (ECONNABORTED,
// EPROTO), or an interrupted call. A closed listener is never temporary.
func Temporary(err error) bool {
	if errors.Is(err, net.ErrClosed) {
		return false
	}
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM,
		syscall.ECONNABORTED, syscall.EPROTO, syscall.EINTR, syscall.EAGAIN} {
		if errors.Is(err, e) {
			return true
		}
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
