package sysbench

// BenchmarkCatColoredLog: the target "cat of a 64 MB coloured log in one pane finishes no
// slower than in a plain tmux pane of the same size, measured in one run". Each op times,
// from process start to the end of the output:
//   - agentmux_s: agentmux with one pane in a 200×50 PTY running
//     sh -c "cat LOG; printf 'DONE-%s' MARK; exec cat", until DONE-MARK is on agentmux's
//     screen as read back through vterm (so agentmux has drawn its final frame);
//   - tmux_s: a detached tmux pane of 200×50 (the yardstick: tmux parses the
//     bytes but draws to no client), until the pane signals `tmux wait-for`;
//   - tmux_attached_s: tmux with a client attached in the same kind of PTY, read through
//     vterm up to the same marker: the like-for-like comparison, as agentmux always draws.
//   - in_process_s: agentmux --in-process (no session server), as agentmux_s.
// ratio is agentmux_s/tmux_s (target ≤ 1); ratio_attached is agentmux_s/tmux_attached_s,
// ratio_attached_in_process in_process_s/tmux_attached_s: attaching must not widen it.

import (
	"fmt"
	"testing"
	"time"
)

const (
	catLogSize = 64 << 20
	catTimeout = 3 * time.Minute
	doneMark   = "DONE-MARK"
	// printDone prints doneMark without it appearing in any command line a status bar
	// might show.
	printDone = "printf 'DONE-%s' MARK"
)

func BenchmarkCatColoredLog(b *testing.B) {
	bin := agentmux(b)
	log := input(b, kindSGR, catLogSize)
	tmux := tmuxPath(b)
	var am, ai, tm, ta time.Duration
	b.ResetTimer()
	for range b.N {
		am += timeCatIn(b, bin, fmt.Sprintf(`sh -c "cat %s; %s; exec cat"`, log, printDone))
		ai += timeCatIn(b, bin, "--in-process", fmt.Sprintf(`sh -c "cat %s; %s; exec cat"`, log, printDone))
		if tmux != "" {
			srv := newTmux(b, tmux)
			start := time.Now()
			srv.catDetached(log)
			tm += time.Since(start)
			srv.kill()

			srv = newTmux(b, tmux)
			ta += timeCatIn(b, srv.argv("new-session", fmt.Sprintf(`sh -c "cat %s; %s; exec cat"`, log, printDone))...)
			srv.kill()
		}
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(am.Seconds()/n, "agentmux_s")
	b.ReportMetric(float64(catLogSize)/(1<<20)/(am.Seconds()/n), "agentmux_MB/s")
	b.ReportMetric(ai.Seconds()/n, "in_process_s")
	if tmux != "" {
		b.ReportMetric(tm.Seconds()/n, "tmux_s")
		b.ReportMetric(ta.Seconds()/n, "tmux_attached_s")
		b.ReportMetric(am.Seconds()/tm.Seconds(), "ratio")
		b.ReportMetric(am.Seconds()/ta.Seconds(), "ratio_attached")
		b.ReportMetric(ai.Seconds()/ta.Seconds(), "ratio_attached_in_process")
	}
}

// timeCatIn runs argv in a PTY (agentmux or a tmux client) and returns the time from
// its start until doneMark is on its screen; it ends the program before returning.
func timeCatIn(b *testing.B, argv ...string) time.Duration {
	b.Helper()
	start := time.Now()
	s := startSession(b, argv...)
	s.waitText(catTimeout, doneMark)
	d := time.Since(start)
	s.close()
	return d
}
