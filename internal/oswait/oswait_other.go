//go:build !linux

package oswait

import (
	"errors"
	"syscall"
	"time"
)

// until re-checks cond every 10 ms: no test runs here, the package only builds.
func until(deadline time.Time, cond func() bool, _ []string) error {
	for !cond() {
		if time.Now().After(deadline) {
			return ErrTimeout
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

func exited(pid int, deadline time.Time) bool {
	return until(deadline, func() bool {
		return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
	}, nil) == nil
}
