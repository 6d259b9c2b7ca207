package sysbench

// BenchmarkPTYThroughput: the emulator alone through a PTY, against tmux on the same
// bytes (the yardstick: tmux 3.3a measured 20.5, 12.1 and 18.8 MB/s for plain,
// SGR and redraw). Each op runs sh -c 'cat FILE' (16 MB of one kind) in a 200×50 PTY
// whose master one goroutine reads into vterm.New(200×50), timed from the start to the
// end of the output; then the same command in a detached 200×50 tmux pane, timed until
// the pane signals `tmux wait-for`. Both include starting the shell (tmux also its
// server, a few ms). Metrics: ours_MB/s, tmux_MB/s, ratio = ours/tmux (target ≥ 1).

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/agentmux/agentmux/vterm"
)

const ptySize = 16 << 20

func BenchmarkPTYThroughput(b *testing.B) {
	for _, k := range []kind{kindPlain, kindSGR, kindRedraw} {
		b.Run(string(k), func(b *testing.B) {
			file := input(b, k, ptySize)
			tmux := tmuxPath(b)
			var ours, theirs time.Duration
			b.ResetTimer()
			for range b.N {
				ours += vtermThroughPTY(b, file)
				if tmux != "" {
					srv := newTmux(b, tmux)
					start := time.Now()
					srv.catDetached(file)
					theirs += time.Since(start)
					srv.kill()
				}
			}
			b.StopTimer()
			mb := float64(ptySize) / (1 << 20) * float64(b.N)
			b.ReportMetric(mb/ours.Seconds(), "ours_MB/s")
			if tmux != "" {
				b.ReportMetric(mb/theirs.Seconds(), "tmux_MB/s")
				b.ReportMetric(theirs.Seconds()/ours.Seconds(), "ratio")
			}
		})
	}
}

// vtermThroughPTY cats file into a 200×50 PTY read by a vterm.Terminal and returns the
// time until the output ended.
func vtermThroughPTY(b *testing.B, file string) time.Duration {
	b.Helper()
	vt := vterm.New(vterm.Options{Cols: outerCols, Rows: outerRows})
	return catThroughPTY(b, file, func(p []byte) { vt.Write(p) })
}

// catThroughPTY cats file into a 200×50 PTY whose master one goroutine reads and hands
// to sink (nil: the bytes are dropped), and returns the time until the output ended.
//
// The master is read through Go's poller, as agentmux's own reader reads it. creack/pty
// leaves it in blocking mode, where every Read that waits for the kernel's worker is a
// blocking system call: the runtime hands the goroutine's processor to another thread
// and takes it back each time, which made this floor 11-30% slower than a polled reader
// (0.79-0.92 s against 0.67-0.74 s for 64 MB, nine runs of five interleaved) and let
// agentmux, which reads through the poller, finish "below the floor".
func catThroughPTY(b *testing.B, file string, sink func([]byte)) time.Duration {
	b.Helper()
	cmd := exec.Command("sh", "-c", fmt.Sprintf("cat '%s'", file))
	cmd.Env = childEnv(b)
	start := time.Now()
	master, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: outerCols, Rows: outerRows})
	if err != nil {
		b.Fatalf("start cat: %v", err)
	}
	f, err := polled(master)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	done := make(chan error, 1)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if sink != nil {
				sink(buf[:n])
			}
			if err != nil {
				done <- err
				return
			}
		}
	}()
	var rerr error
	select {
	case rerr = <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		rerr = <-done
		b.Errorf("cat into the PTY took over a minute")
	}
	d := time.Since(start)
	if err := cmd.Wait(); err != nil {
		b.Errorf("cat: %v", err)
	}
	// The end of a PTY's output reads as EIO once the child has closed the other side.
	if !errors.Is(rerr, syscall.EIO) {
		b.Errorf("reading the PTY: %v", rerr)
	}
	return d
}

// polled returns a non-blocking duplicate of the PTY master, which os.NewFile hands to
// the poller, and closes the blocking original.
func polled(master *os.File) (*os.File, error) {
	defer master.Close()
	fd, err := unix.FcntlInt(master.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("duplicate the PTY master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("PTY master non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), master.Name()), nil
}
