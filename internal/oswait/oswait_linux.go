package oswait

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// changes are the inotify events that wake Until.
const changes = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_CLOSE_WRITE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ATTRIB | unix.IN_DELETE_SELF

func until(deadline time.Time, cond func() bool, dirs []string) error {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return fmt.Errorf("oswait: inotify: %w", err)
	}
	f := os.NewFile(uintptr(fd), "inotify") // the runtime's poller waits on it
	defer f.Close()
	for _, d := range dirs {
		if _, err := unix.InotifyAddWatch(fd, d, changes); err != nil {
			return fmt.Errorf("oswait: watch %s: %w", d, err)
		}
	}
	if err := f.SetReadDeadline(deadline); err != nil {
		return err
	}
	buf := make([]byte, 64*1024)
	for !cond() {
		if _, err := f.Read(buf); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				if cond() {
					return nil
				}
				return ErrTimeout
			}
			return fmt.Errorf("oswait: read inotify: %w", err)
		}
	}
	return nil
}

func exited(pid int, deadline time.Time) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return errors.Is(err, unix.ESRCH)
	}
	defer unix.Close(fd)
	for {
		ms := max(time.Until(deadline).Milliseconds(), 0)
		// A pidfd becomes readable when its process ends; the call blocks in the kernel.
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(ms))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil && n > 0
	}
}
