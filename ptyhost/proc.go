package ptyhost

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// readBufSize is the reader goroutine's buffer: one Read moves at most this much.
const readBufSize = 32 << 10

// yieldEvery is how much output the reader writes to out between two yields of its
// processor (yielder): a PTY hands out 4 KiB a read, so a flood yields after every read.
// On one processor (the session server's while a person types) a yield is what lets a
// key just typed, or another pane's echo, in while a pane floods: measured on a 2-core
// VM with a 64 MB log flooding another pane, the echo of a key took 0.7 ms (median) and
// 2.8 ms (p99) yielding every 4 KiB, 1.0 and 3.2-4.0 every 16 KiB, 2.0 and 4.8-5.5 every
// 64 KiB; and 6.6 and 19.5 ms with runtime.Gosched instead, which never lets the
// scheduler poll. On two processors the yields help the flood itself:
// BenchmarkCatColoredLog's 64 MB printed in 0.63-0.71 s with them against 1.00-1.12 s
// without (two interleaved runs of eight, 2-core VM, 2026-12-01).
const yieldEvery = 4 << 10

// QuietAfter is how long a program prints nothing, after printing, before its output
// counts as paused (Quiet): long enough that a flood, whose PTY runs dry for some
// microseconds between the kernel's refills, does not pause, and short enough that the
// end of a burst (a command's last line, an agent's finished answer) is drawn at once
// rather than at the next tick of the frame rate.
const QuietAfter = time.Millisecond

// Proc is a child program running in its own PTY and process group. Write, Resize,
// Updates, Quiet, IsQuiet, Done, ExitCode, ExitStatus, ExitState, Pid and Close are safe
// for concurrent use.
type Proc struct {
	cmd  *exec.Cmd
	ptm  *os.File // PTY master, non-blocking (poller-backed); closed only by Close
	pid  int
	out  io.Writer
	spec Spec

	queue   *writeQueue
	updates chan struct{} // capacity 1: "out received new bytes"
	quiet   chan struct{} // capacity 1: "the output paused" (quietNow is the state)
	// quietNow is true from a pause (QuietAfter with nothing read after bytes) until the
	// next bytes; written by the reader only.
	quietNow atomic.Bool
	exited   chan struct{} // closed by the waiter once the exit status is stored
	drained  chan struct{} // closed by the reader when the PTY reports end of output
	done     chan struct{} // closed by the waiter: exited and (drained or DrainGrace passed)
	stop     chan struct{} // closed by Close: the writer goroutine ends
	wg       sync.WaitGroup

	state *os.ProcessState // written by the waiter before exited closes; read after

	closeOnce sync.Once
	closeErr  error
	resizeMu  sync.Mutex // orders Resize against the master's Close
	closed    bool       // guarded by resizeMu
}

// Start runs s.Argv in a new PTY of s.Cols x s.Rows (set before the program starts),
// in its own session and process group, with TERM=xterm-256color, COLORTERM=truecolor,
// AGENTMUX_PANE and AGENTMUX_NAME in its environment. Everything the program prints is
// written to out by one reader goroutine, in order, and announced on Updates. out.Write
// must not block on whoever calls Close (Close waits for the reader); its errors are
// ignored so the child never stalls on a full terminal.
func Start(s Spec, out io.Writer) (*Proc, error) {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return nil, ErrNoCommand
	}
	path, err := LookPath(s.Argv[0])
	if err != nil {
		return nil, err
	}
	cmd := &exec.Cmd{Path: path, Args: s.Argv, Dir: s.Dir, Env: environ(s)}
	ws := &pty.Winsize{Cols: clampSize(s.Cols, DefaultCols), Rows: clampSize(s.Rows, DefaultRows)}
	// StartWithSize sets the size on the master before the child starts, and starts it
	// with Setsid and Setctty: the child leads a new session and process group.
	var master *os.File
	err = startIn(cmd, s.UserNS, func() (err error) {
		master, err = pty.StartWithSize(cmd, ws)
		return err
	})
	if err != nil {
		// Whether the namespace or the program failed is asked only now, of a fork
		// that execs nothing: where namespaces are made, a start pays no second fork.
		if s.UserNS && !UserNSAllowed() {
			return nil, fmt.Errorf("start %q: %w: %w", s.Argv[0], ErrNoUserNS, err)
		}
		return nil, fmt.Errorf("start %q: %w", s.Argv[0], err)
	}
	ptm, err := pollable(master)
	if err != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		forget(cmd.Process.Pid)
		return nil, fmt.Errorf("start %q: %w", s.Argv[0], err)
	}
	if s.KillGrace <= 0 {
		s.KillGrace = DefaultKillGrace
	}
	if s.DrainGrace <= 0 {
		s.DrainGrace = DefaultDrainGrace
	}
	p := &Proc{
		cmd:     cmd,
		ptm:     ptm,
		pid:     cmd.Process.Pid,
		out:     out,
		spec:    s,
		queue:   newWriteQueue(),
		updates: make(chan struct{}, 1),
		quiet:   make(chan struct{}, 1),
		exited:  make(chan struct{}),
		drained: make(chan struct{}),
		done:    make(chan struct{}),
		stop:    make(chan struct{}),
	}
	p.wg.Add(3)
	go p.read()
	go p.wait()
	go func() {
		defer p.wg.Done()
		p.queue.run(p.ptm, p.stop, p.exited)
	}()
	return p, nil
}

// pollable returns the master as a non-blocking, poller-backed file. creack/pty hands
// it back in blocking mode (its ioctls go through File.Fd), where a Read stuck in the
// kernel cannot be interrupted by Close; a non-blocking duplicate can.
func pollable(master *os.File) (*os.File, error) {
	defer master.Close()
	var fd int
	var err error
	rc, err := master.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("pty master: %w", err)
	}
	cerr := rc.Control(func(s uintptr) {
		// F_DUPFD_CLOEXEC: the duplicate never leaks into a concurrently started child.
		fd, err = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0)
	})
	if cerr != nil {
		return nil, fmt.Errorf("pty master: %w", cerr)
	}
	if err != nil {
		return nil, fmt.Errorf("dup pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("pty master non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), master.Name()), nil
}

// read is the reader goroutine: read → out.Write → a non-blocking send on updates,
// until the PTY reports end of output (EIO once every holder of the slave side is gone)
// or Close closes the master. When the PTY runs dry after bytes, the wait for more has
// a deadline QuietAfter away; reaching it is a pause, said on quiet.
func (p *Proc) read() {
	defer p.wg.Done()
	defer close(p.drained)
	rc, err := p.ptm.SyscallConn()
	if err != nil {
		return // only a closed master has no conn: nothing more to read
	}
	buf := make([]byte, readBufSize)
	y := newYielder()
	defer y.close()
	unyielded := 0 // bytes written to out since the last yield
	ef := p.spec.EchoFirst
	printing := false // bytes came since the last pause (or the start)
	waiting := false  // a deadline is set for the wait that follows them
	var n int
	var rerr error
	// readOnce reads what the PTY holds; on EAGAIN it returns false and the poller waits
	// for more. It runs after the poller's readiness was reset, so nothing written
	// between a dry read and the wait is missed.
	readOnce := func(fd uintptr) bool {
		n, rerr = readFD(int(fd), buf)
		if rerr != unix.EAGAIN {
			return true
		}
		if printing && !waiting {
			waiting = true
			_ = p.ptm.SetReadDeadline(time.Now().Add(QuietAfter))
		}
		return false
	}
	for {
		if ef != nil {
			ef.pass(p, p.stop)
		}
		n, rerr = 0, nil
		err := rc.Read(readOnce)
		if waiting {
			waiting = false
			_ = p.ptm.SetReadDeadline(time.Time{})
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			printing = false
			p.quietNow.Store(true)
			select {
			case p.quiet <- struct{}{}:
			default:
			}
			continue
		}
		if err == nil {
			err = rerr
		}
		if n > 0 {
			printing = true
			p.quietNow.Store(false)
			if ef != nil {
				ef.pass(p, p.stop) // a read that was waiting when the key came
			}
			_, _ = p.out.Write(buf[:n])
			if ef != nil {
				ef.printed(p) // after the write: what the others print next comes after it
			}
			select {
			case p.updates <- struct{}{}:
			default: // a notification is already pending: coalesced.
			}
			if unyielded += n; unyielded >= yieldEvery {
				unyielded = 0
				y.yield()
			}
		} else if err == nil {
			err = io.EOF
		}
		if err != nil {
			return
		}
	}
}

// readFD is one read(2) of the master, again when a signal interrupted it.
func readFD(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if err != unix.EINTR {
			return max(n, 0), err
		}
	}
}

// wait is the waiter goroutine: it stores the exit status, closes exited, then closes
// done once the reader drained the output (or DrainGrace passed, see Spec).
func (p *Proc) wait() {
	defer p.wg.Done()
	_ = p.cmd.Wait() // the status is in cmd.ProcessState; the error only repeats it
	forget(p.pid)
	p.state = p.cmd.ProcessState
	close(p.exited)
	t := time.NewTimer(p.spec.DrainGrace)
	defer t.Stop()
	select {
	case <-p.drained:
	case <-t.C:
	}
	close(p.done)
}

// Updates returns a channel (capacity 1) that receives a value after the reader wrote
// new bytes to out; bursts coalesce into one value. It is never closed: select on Done
// as well.
func (p *Proc) Updates() <-chan struct{} { return p.updates }

// Quiet returns a channel (capacity 1) that receives a value when the program's output
// pauses: it printed, then nothing for QuietAfter. A burst's last bytes are on Updates
// before its pause is here. It is never closed: select on Done as well.
func (p *Proc) Quiet() <-chan struct{} { return p.quiet }

// IsQuiet reports whether the output is paused: true from a pause (Quiet) until the
// program prints again.
func (p *Proc) IsQuiet() bool { return p.quietNow.Load() }

// Done returns a channel closed when the child has exited and its output has been
// drained into out.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Write copies b and queues it for the writer goroutine, which writes queued bytes to
// the PTY in the order Write was called. It never blocks; once the child has exited
// (or Close ran), bytes are dropped.
func (p *Proc) Write(b []byte) {
	select {
	case <-p.exited:
		return
	default:
		p.queue.push(b)
	}
}

// Expect says a person's key was just written to p: until its program prints (or
// Spec.EchoFirst's wait passes) the other programs sharing that EchoFirst are not read.
// Without an EchoFirst it does nothing.
func (p *Proc) Expect() {
	if p.spec.EchoFirst != nil {
		p.spec.EchoFirst.hold(p)
	}
}

// Unread returns how many bytes written to the program it has not read yet: those
// still queued for the terminal, and those the terminal holds for it (in canonical mode,
// whole lines only). A program that read a line may have acted on it; one whose input
// still waits has not, and loses it if the terminal closes. It fails where the
// terminal's queue cannot be told (not Linux, or the terminal is gone).
func (p *Proc) Unread() (int, error) {
	queued := p.queue.pendingBytes()
	p.resizeMu.Lock()
	defer p.resizeMu.Unlock()
	if p.closed {
		return 0, fmt.Errorf("unread input of pane %d: %w", p.spec.Pane, os.ErrClosed)
	}
	n, err := p.kernelUnread()
	if err != nil {
		return 0, fmt.Errorf("unread input of pane %d: %w", p.spec.Pane, err)
	}
	return queued + n, nil
}

// Resize sets the PTY window size (each dimension clamped to 1..65535); the kernel
// sends SIGWINCH to the child's foreground process group. It fails after Close.
func (p *Proc) Resize(cols, rows int) error {
	ws := unix.Winsize{Col: clampSize(cols, 1), Row: clampSize(rows, 1)}
	p.resizeMu.Lock()
	defer p.resizeMu.Unlock()
	if p.closed {
		return fmt.Errorf("resize pane %d: %w", p.spec.Pane, os.ErrClosed)
	}
	rc, err := p.ptm.SyscallConn()
	if err != nil {
		return fmt.Errorf("resize pane %d: %w", p.spec.Pane, err)
	}
	var ierr error
	cerr := rc.Control(func(fd uintptr) {
		ierr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &ws)
	})
	if cerr != nil {
		return fmt.Errorf("resize pane %d: %w", p.spec.Pane, cerr)
	}
	if ierr != nil {
		return fmt.Errorf("resize pane %d: %w", p.spec.Pane, ierr)
	}
	return nil
}

// ExitCode returns the child's ExitStatus as an int once it has exited (valid after
// Done): its exit code, or -N when signal N killed it; it returns -1 while the child
// still runs. ExitStatus formats it; ExitState has the details.
func (p *Proc) ExitCode() int {
	select {
	case <-p.exited:
		return int(statusOf(p.state))
	default:
		return -1
	}
}

// ExitStatus returns how the child ended once it has exited (valid after Done); -1
// while it still runs.
func (p *Proc) ExitStatus() ExitStatus { return ExitStatus(p.ExitCode()) }

// ExitState returns the child's process state after it exited, nil before.
func (p *Proc) ExitState() *os.ProcessState {
	select {
	case <-p.exited:
		return p.state
	default:
		return nil
	}
}

// Pid returns the child's process id, which is also its process group and session id.
func (p *Proc) Pid() int { return p.pid }
