package e2e

// session runs agentmux in a PTY and reads its screen through vterm. One goroutine reads
// the PTY into the emulator and signals a capacity-1 update channel (bursts coalesce);
// another writes to the PTY, in order, both the test's keys and the emulator's answers to
// agentmux's start-up queries, so agentmux meets a terminal that answers like a real one.
// Tests wait on the update channel for a screen condition, with a deadline that prints the
// last screen; nothing sleeps.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/creack/pty"

	"github.com/agentmux/agentmux/vterm"
)

const (
	cols, rows = 120, 40
	// waitLong bounds start-up and exit under the race detector on a busy machine.
	waitLong = 20 * time.Second
)

type session struct {
	t       *testing.T
	cmd     *exec.Cmd
	pty     *os.File
	vt      *vterm.Terminal
	raceDir string

	keys    chan []byte   // to the PTY, in order: keys and query answers
	updates chan struct{} // capacity 1: the screen changed
	eof     chan struct{} // closed when the PTY has no more output
	exited  chan struct{} // closed when agentmux has exited; code is then valid
	code    int
	dropped atomic.Int64 // query answers that did not fit in keys

	rawMu sync.Mutex
	raw   []byte // everything agentmux wrote, when options.record is set

	// diag, when set, adds to every failure message after the last screen (the relay
	// tests print their agents' transcripts there).
	diag func() string
}

// options adjust a session before it starts.
type options struct {
	kitty  bool     // the outer terminal speaks the kitty keyboard protocol
	record bool     // keep every byte agentmux writes (session.output)
	env    []string // extra environment
}

// start runs agentmux with args in a 120×40 PTY.
func start(t *testing.T, args ...string) *session {
	return startWith(t, options{}, args...)
}

func startWith(t *testing.T, o options, args ...string) *session {
	t.Helper()
	home := t.TempDir()
	s := &session{
		t:       t,
		raceDir: t.TempDir(),
		keys:    make(chan []byte, 256),
		updates: make(chan struct{}, 1),
		eof:     make(chan struct{}),
		exited:  make(chan struct{}),
	}
	s.vt = vterm.New(vterm.Options{
		Cols: cols, Rows: rows,
		KittyKeyboard: o.kitty,
		Reply: func(b []byte) { // inside vterm's Write: never block
			select {
			case s.keys <- bytes.Clone(b):
			default:
				s.dropped.Add(1)
			}
		},
	})
	s.cmd = exec.Command(agentmuxBin, args...)
	s.cmd.Env = append(os.Environ(),
		"TERM=xterm-256color",
		"HOME="+home,
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"GORACE=log_path="+filepath.Join(s.raceDir, "race"),
	)
	s.cmd.Env = append(s.cmd.Env, o.env...)
	f, err := pty.StartWithSize(s.cmd, &pty.Winsize{Cols: cols, Rows: rows})
	if err != nil {
		t.Fatalf("start agentmux: %v", err)
	}
	s.pty = pollable(t, f)
	go s.read(o.record)
	go s.write()
	go s.wait()
	t.Cleanup(s.close)
	return s
}

// pollable returns f's descriptor as a non-blocking file that Go's poller watches, and
// closes f. On a blocking descriptor, Close waits for a Read in progress to return, so
// closing the master (the terminal going away) would wait for agentmux's next output.
func pollable(t *testing.T, f *os.File) *os.File {
	t.Helper()
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		t.Fatalf("dup the PTY master: %v", err)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		t.Fatalf("PTY master non-blocking: %v", err)
	}
	f.Close()
	return os.NewFile(uintptr(fd), "ptmx")
}

func (s *session) read(record bool) {
	defer close(s.eof)
	buf := make([]byte, 64<<10)
	for {
		n, err := s.pty.Read(buf)
		if n > 0 {
			if record {
				s.rawMu.Lock()
				s.raw = append(s.raw, buf[:n]...)
				s.rawMu.Unlock()
			}
			s.vt.Write(buf[:n])
			select {
			case s.updates <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

func (s *session) write() {
	for {
		select {
		case b := <-s.keys:
			if _, err := s.pty.Write(b); err != nil {
				return
			}
		case <-s.eof:
			return
		}
	}
}

func (s *session) wait() {
	err := s.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		s.code = 0
	case errors.As(err, &ee):
		s.code = ee.ExitCode()
	default:
		s.code = -1
	}
	close(s.exited)
}

// resize sets the outer terminal's size: the test's emulator and the PTY's window (which
// signals SIGWINCH to agentmux).
func (s *session) resize(c, r int) {
	s.t.Helper()
	s.vt.Resize(c, r)
	s.setWinsize(c, r)
}

// setWinsize sets the PTY's window size only. It goes through SyscallConn, not Fd, which
// would put the master back in blocking mode.
func (s *session) setWinsize(c, r int) {
	s.t.Helper()
	ws := struct{ rows, cols, x, y uint16 }{uint16(r), uint16(c), 0, 0}
	rc, err := s.pty.SyscallConn()
	if err != nil {
		s.t.Fatalf("resize: %v", err)
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	}); err != nil || errno != 0 {
		s.t.Fatalf("resize to %d×%d: %v %v", c, r, err, errno)
	}
}

// output is everything agentmux wrote so far (with options.record).
func (s *session) output() string {
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	return string(s.raw)
}

// send types keys into agentmux.
func (s *session) send(keys string) { s.keys <- []byte(keys) }

// screen is the current screen.
func (s *session) screen() *screen { return newScreen(s.vt.Snapshot()) }

// waitScreen waits until cond holds for the screen and returns that screen. On timeout,
// or if agentmux exits first, it fails the test, printing the last screen.
func (s *session) waitScreen(what string, cond func(*screen) bool, timeout time.Duration) *screen {
	s.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		scr := s.screen()
		if cond(scr) {
			return scr
		}
		select {
		case <-s.updates:
		case <-s.eof:
			if scr := s.screen(); cond(scr) {
				return scr
			}
			s.t.Fatalf("agentmux ended while waiting for %s; last screen:\n%s", what, s.describe())
		case <-deadline.C:
			s.t.Fatalf("timed out after %v waiting for %s; last screen:\n%s", timeout, what, s.describe())
		}
	}
}

// waitText waits until the screen shows every one of texts.
func (s *session) waitText(timeout time.Duration, texts ...string) *screen {
	s.t.Helper()
	return s.waitScreen(strings.Join(quoteAll(texts), " and "), func(scr *screen) bool {
		for _, x := range texts {
			if !scr.has(x) {
				return false
			}
		}
		return true
	}, timeout)
}

// describe is the last screen, with row numbers, and whatever diag adds.
func (s *session) describe() string {
	d := s.screen().dump()
	if s.diag != nil {
		d += s.diag()
	}
	return d
}

// waitExit waits for agentmux to exit and returns its status.
func (s *session) waitExit(timeout time.Duration) int {
	s.t.Helper()
	select {
	case <-s.exited:
		return s.code
	case <-time.After(timeout):
		s.t.Fatalf("agentmux did not exit within %v; screen:\n%s", timeout, s.describe())
		return -1
	}
}

// close ends agentmux if the test left it running (SIGTERM, then SIGKILL), waits for its
// output to end, and fails the test if the race detector reported anything or a query
// answer was dropped.
func (s *session) close() {
	select {
	case <-s.exited:
	default:
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(waitLong):
			s.t.Errorf("agentmux ignored SIGTERM for %v; killing it", waitLong)
			_ = s.cmd.Process.Kill()
			<-s.exited
		}
	}
	select {
	case <-s.eof:
	case <-time.After(waitLong):
		s.t.Errorf("the PTY still had output %v after agentmux exited", waitLong)
	}
	s.pty.Close()
	reports, _ := filepath.Glob(filepath.Join(s.raceDir, "race*"))
	for _, r := range reports {
		b, _ := os.ReadFile(r)
		s.t.Errorf("the race detector reported in %s:\n%s", filepath.Base(r), b)
	}
	if n := s.dropped.Load(); n > 0 {
		s.t.Errorf("%d terminal answers were dropped (the key queue was full)", n)
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, x := range ss {
		out[i] = "“" + x + "”"
	}
	return out
}
