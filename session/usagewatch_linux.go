package session

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// writeWatch watches one file for writes (inotify): the runtime's poller waits on it,
// never a timer loop.
type writeWatch struct{ f *os.File }

// watchWrites starts watching the file at path for writes: writes from now on are seen
// by run.
func watchWrites(path string) (*writeWatch, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "inotify")
	if _, err := unix.InotifyAddWatch(fd, path, unix.IN_MODIFY|unix.IN_CLOSE_WRITE); err != nil {
		f.Close()
		return nil, err
	}
	return &writeWatch{f: f}, nil
}

// run calls wrote at each write to the file until d has passed or done is closed, then
// ends the watch.
func (w *writeWatch) run(d time.Duration, done <-chan struct{}, wrote func()) error {
	finished := make(chan struct{})
	defer close(finished)
	go func() { // the session stopping ends the watch at once
		select {
		case <-done:
			w.f.Close()
		case <-finished:
		}
	}()
	defer w.f.Close()
	if err := w.f.SetReadDeadline(time.Now().Add(d)); err != nil {
		return err
	}
	buf := make([]byte, 4096)
	for {
		if _, err := w.f.Read(buf); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, os.ErrClosed) {
				return nil
			}
			return err
		}
		wrote()
	}
}

// close ends a watch that is not run.
func (w *writeWatch) close() { w.f.Close() }

// watchable reports whether watchWrites works here.
func watchable() bool { return true }
