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
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

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
func catThroughPTY(b *testing.B, file string, sink func([]byte)) time.Duration {
	b.Helper()
	cmd := exec.Command("sh", "-c", fmt.Sprintf("cat '%s'", file))
	cmd.Env = childEnv(b)
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: outerCols, Rows: outerRows})
	if err != nil {
		b.Fatalf("start cat: %v", err)
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
