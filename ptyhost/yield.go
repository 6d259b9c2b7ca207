package ptyhost

import (
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// yielder hands the reader's processor over through Go's network poller. While a
// person types, the session server runs on one processor (cmd/agentmux), and a flooding
// pane's reader keeps it busy: its PTY always holds bytes, so it never waits in the poller, and the scheduler
// polls the network (a key on the terminal's socket, another pane's echo) only when no
// goroutine is runnable, or from its monitor thread every 10 ms. runtime.Gosched does not
// help: the yielding goroutine is runnable again at once and the poll never comes. So
// the reader writes a byte into a pipe of its own and waits in the poller for it to be
// readable: with nothing runnable meanwhile, the scheduler polls, and what the poll
// finds (the byte, and whatever else became ready) runs in turn. Three system calls a
// yield.
type yielder struct {
	r, w *os.File
}

// newYielder returns a yielder, or nil when no pipe could be made; a nil yielder yields
// with runtime.Gosched.
func newYielder() *yielder {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	return &yielder{r: r, w: w}
}

// yield gives the scheduler a poll of the network, then returns.
func (y *yielder) yield() {
	if y == nil {
		runtime.Gosched()
		return
	}
	rc, err := y.r.SyscallConn()
	if err != nil {
		runtime.Gosched()
		return
	}
	signalled := false
	var b [16]byte
	err = rc.Read(func(fd uintptr) bool {
		if !signalled {
			// Written after the read's preparation cleared any readiness the poller
			// had recorded, so the wait that follows ends only at a poll that sees it.
			signalled = true
			if _, err := y.w.Write(b[:1]); err != nil {
				return true // nothing to wait for
			}
			return false
		}
		_, err := unix.Read(int(fd), b[:])
		return err != unix.EAGAIN
	})
	if err != nil {
		runtime.Gosched()
	}
}

// close closes the pipe; only the reader goroutine yields, so it calls this when it ends.
func (y *yielder) close() {
	if y != nil {
		_ = y.r.Close()
		_ = y.w.Close()
	}
}
