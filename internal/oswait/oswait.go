// Package oswait lets tests wait for operating-system state that has no channel to wait
// on (a process ending, a file appearing, changing or going away) by the kernel's word:
// a pidfd on Linux for a process, inotify for a folder. A test waits for the event and
// re-checks its condition, never sleeps in a loop. Elsewhere (the tests run on Linux; the
// package builds everywhere for vet) the waits fall back to re-checking every 10 ms.
package oswait

import (
	"errors"
	"time"
)

// ErrTimeout is what Until returns when the condition did not hold in time.
var ErrTimeout = errors.New("oswait: timed out")

// Until returns nil once cond holds. It checks cond, then again after each change in
// one of dirs (a file created, written, renamed or removed in it), until timeout has
// passed (ErrTimeout). The watch starts before the first check, so a change between a
// check and the wait is not missed. Each of dirs must exist when Until is called.
func Until(timeout time.Duration, cond func() bool, dirs ...string) error {
	return until(time.Now().Add(timeout), cond, dirs)
}

// Exited reports whether process pid has ended (or never existed) within timeout. A
// zombie, ended but not yet reaped, has ended.
func Exited(pid int, timeout time.Duration) bool {
	return exited(pid, time.Now().Add(timeout))
}
