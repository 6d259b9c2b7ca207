package ptytest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/agentmux/agentmux/vterm"
)

// ErrEnded is returned when the program's output (or, with Options.EndOnExit, the program)
// ended before a wait was satisfied or before input could be queued.
var ErrEnded = errors.New("ended")

// Options describe how Start runs a program.
type Options struct {
	// Cols and Rows are the PTY's and the emulator's size.
	Cols, Rows int
	// CellWidth and CellHeight, when set, are the pixels per cell reported in the window
	// size, as a graphical terminal reports them; zero reports no pixel size.
	CellWidth, CellHeight int
	// Dir is the program's working directory ("" is the test's).
	Dir string
	// Env is the program's whole environment (nil inherits the test's).
	Env []string
	// VT holds the emulator's options; Start sets Cols, Rows and Reply.
	VT vterm.Options
	// Queue is the capacity of the writer's queue (0 means 256). An answer of the
	// emulator that does not fit is dropped and counted (Dropped).
	Queue int
	// OnOutput, when set, sees every chunk read from the PTY before the emulator does,
	// on the reader goroutine; it must copy p to keep it.
	OnOutput func(p []byte)
	// EndOnExit makes waits and Send give up when the program exits rather than when
	// its output ends (a daemon child may hold the PTY open after the program is gone).
	EndOnExit bool
	// Describe, when set, is what Wait prints when it fails; nil prints the screen's rows,
	// numbered.
	Describe func() string
}

// Term is a program running in a PTY whose output a vterm.Terminal draws.
type Term struct {
	cmd      *exec.Cmd
	name     string // the program's base name, for messages
	master   *os.File
	vt       *vterm.Terminal
	describe func() string

	writes  chan []byte   // to the writer goroutine: answers and input, in order
	updates chan struct{} // capacity 1: output arrived
	eof     chan struct{} // closed when the PTY has no more output
	exited  chan struct{} // closed when the program has exited; exitErr is then set
	ended   chan struct{} // eof, or exited with Options.EndOnExit
	exitErr error
	dropped atomic.Int64

	closeOnce sync.Once
	closeErr  error
}

// Start runs argv in a PTY of o.Cols×o.Rows and starts reading it. The caller ends it
// with Stop and Close (typically from a test cleanup).
func Start(argv []string, o Options) (*Term, error) {
	if len(argv) == 0 {
		return nil, errors.New("ptytest: no program to start")
	}
	q := o.Queue
	if q <= 0 {
		q = 256
	}
	t := &Term{
		describe: o.Describe,
		name:     filepath.Base(argv[0]),
		writes:   make(chan []byte, q),
		updates:  make(chan struct{}, 1),
		eof:      make(chan struct{}),
		exited:   make(chan struct{}),
	}
	t.ended = t.eof
	if o.EndOnExit {
		t.ended = t.exited
	}
	vo := o.VT
	vo.Cols, vo.Rows = o.Cols, o.Rows
	vo.Reply = func(b []byte) { // inside vterm's Write: must not block
		select {
		case t.writes <- bytes.Clone(b):
		default:
			t.dropped.Add(1)
		}
	}
	t.vt = vterm.New(vo)
	t.cmd = exec.Command(argv[0], argv[1:]...)
	t.cmd.Dir, t.cmd.Env = o.Dir, o.Env
	ws := &pty.Winsize{Cols: uint16(o.Cols), Rows: uint16(o.Rows),
		X: uint16(o.Cols * o.CellWidth), Y: uint16(o.Rows * o.CellHeight)}
	f, err := pty.StartWithSize(t.cmd, ws)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t.name, err)
	}
	if t.master, err = pollable(f); err != nil {
		_ = t.cmd.Process.Kill()
		_ = t.cmd.Wait()
		return nil, err
	}
	go func() { t.exitErr = t.cmd.Wait(); close(t.exited) }()
	go t.read(o.OnOutput)
	go t.write()
	return t, nil
}

// pollable returns f's descriptor as a non-blocking file that Go's poller watches, and
// closes f. On a blocking descriptor (pty's Fd calls make it one), Close waits for a Read
// in progress to return, so closing the master would wait for the program's next output.
func pollable(f *os.File) (*os.File, error) {
	defer f.Close()
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return nil, fmt.Errorf("dup the PTY master: %w", err)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("PTY master non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), "ptmx"), nil
}

// read feeds the program's output to the emulator and signals updates until the PTY
// closes (EIO once every holder of the PTY is gone, or Close).
func (t *Term) read(onOutput func([]byte)) {
	defer close(t.eof)
	buf := make([]byte, 64<<10)
	for {
		n, err := t.master.Read(buf)
		if n > 0 {
			if onOutput != nil {
				onOutput(buf[:n])
			}
			t.vt.Write(buf[:n])
			select {
			case t.updates <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// write writes queued answers and input to the PTY in order until the output ends.
func (t *Term) write() {
	for {
		select {
		case b := <-t.writes:
			if _, err := t.master.Write(b); err != nil {
				return
			}
		case <-t.eof:
			return
		}
	}
}

// VT is the emulator drawing the program's output.
func (t *Term) VT() *vterm.Terminal { return t.vt }

// Pid is the program's process id (also its process group's: the program leads its own
// session).
func (t *Term) Pid() int { return t.cmd.Process.Pid }

// Name is the program's base name, for messages.
func (t *Term) Name() string { return t.name }

// Updates is signalled (capacity 1, coalesced) after each chunk of output reaches the
// emulator.
func (t *Term) Updates() <-chan struct{} { return t.updates }

// EOF is closed when the PTY has no more output.
func (t *Term) EOF() <-chan struct{} { return t.eof }

// Exited is closed when the program has exited; ExitErr and ExitCode are then valid.
func (t *Term) Exited() <-chan struct{} { return t.exited }

// ExitErr is what exec.Cmd.Wait returned; valid once Exited is closed.
func (t *Term) ExitErr() error { return t.exitErr }

// ExitCode is the program's exit status, -1 when a signal ended it or it could not be
// waited for; valid once Exited is closed.
func (t *Term) ExitCode() int {
	var ee *exec.ExitError
	switch {
	case t.exitErr == nil:
		return 0
	case errors.As(t.exitErr, &ee):
		return ee.ExitCode()
	default:
		return -1
	}
}

// Dropped counts the emulator's answers that did not fit in the writer's queue.
func (t *Term) Dropped() int64 { return t.dropped.Load() }

// Send queues b for the PTY, after any answers already queued; it blocks while the queue is
// full and returns ErrEnded if the program ended first. b must not be changed afterwards.
func (t *Term) Send(b []byte) error {
	select {
	case t.writes <- b:
		return nil
	default:
	}
	select {
	case t.writes <- b:
		return nil
	case <-t.ended:
		return ErrEnded
	}
}

// Resize sets the size of both the emulator and the PTY's window (which signals SIGWINCH
// to the program).
func (t *Term) Resize(cols, rows int) error {
	t.vt.Resize(cols, rows)
	return t.SetWinsize(cols, rows)
}

// SetWinsize sets the PTY's window size only. It goes through SyscallConn, not Fd, which
// would put the master back in blocking mode.
func (t *Term) SetWinsize(cols, rows int) error {
	ws := unix.Winsize{Row: uint16(rows), Col: uint16(cols)}
	rc, err := t.master.SyscallConn()
	if err != nil {
		return fmt.Errorf("resize: %w", err)
	}
	var ierr error
	if err := rc.Control(func(fd uintptr) {
		ierr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &ws)
	}); err != nil {
		return fmt.Errorf("resize to %d×%d: %w", cols, rows, err)
	}
	if ierr != nil {
		return fmt.Errorf("resize to %d×%d: %w", cols, rows, ierr)
	}
	return nil
}

// Stop sends sig to the program's process group (which still reaches what the program
// left in it after it exited) and waits up to grace for the program to exit; if it has not,
// it sends SIGKILL to the group and waits for the exit. It reports whether SIGKILL was
// needed.
func (t *Term) Stop(sig syscall.Signal, grace time.Duration) (killed bool) {
	pgid := t.cmd.Process.Pid // pty.Start makes the program a session and group leader
	_ = syscall.Kill(-pgid, sig)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-t.exited:
		return false
	case <-timer.C:
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-t.exited
		return true
	}
}

// Drain waits up to timeout for the PTY's output to end and reports whether it did.
func (t *Term) Drain(timeout time.Duration) bool {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-t.eof:
		return true
	case <-timer.C:
		return false
	}
}

// Close closes the PTY's master, as a terminal window closing does: the reader ends at
// once and the program's session gets SIGHUP. Later calls return the first call's result.
func (t *Term) Close() error {
	t.closeOnce.Do(func() { t.closeErr = t.master.Close() })
	return t.closeErr
}
