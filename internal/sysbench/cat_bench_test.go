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
//   - in_process_s: agentmux --in-process (the server in the terminal's own process), as agentmux_s.
//   - server_cpu_s: the CPU time (user + system) agentmux's session server spent by the
//     time agentmux_s ends; in_process_cpu_s the same for the --in-process process.
//   - pty_floor_s: the same cat in a 200×50 PTY whose master a plain goroutine reads
//     (through Go's poller, as agentmux reads its panes) and drops: the kernel's own pace. A PTY hands its reader at most 4 KiB a read, each
//     refilled by a kernel worker, so on a loaded machine this floor moves with the load
//     (0.6–2.6 s measured while other work ran) while tmux, which spends its own CPU on
//     every byte, moves more (tmux_attached_s 3.4–11 s over the same hour): that is why
//     the ratios swing from run to run.
//   - emulator_floor_s: the same cat in the same kind of PTY, its reader writing every read
//     into a vterm.Terminal before the next (vtermThroughPTY): the pace of any program
//     that emulates the pane's output as it reads it, as agentmux's reader does. What
//     agentmux spends beyond that is its own plumbing: start-up, frames, the relay.
// ratio is agentmux_s/tmux_s (target ≤ 1); ratio_attached is agentmux_s/tmux_attached_s,
// ratio_attached_in_process in_process_s/tmux_attached_s: attaching must not widen it;
// ratio_floor is agentmux_s/pty_floor_s, agentmux's cost above what the PTY allows (1 at
// best), the steady one of the lot; ratio_emulator_floor is emulator_floor_s/pty_floor_s
// (the emulator's share of that cost) and ratio_above_emulator agentmux_s/emulator_floor_s
// (the rest).
//
// With -sysbench.base=PATH another agentmux binary (an older build) runs the same cat
// in every op too: base_s, base_server_cpu_s and base_ratio_floor, for a before/after
// comparison taken under the same load. An op runs its measurements in a random order.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
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

var baseBin = flag.String("sysbench.base", "", "an agentmux binary BenchmarkCatColoredLog runs interleaved with this build's")

func BenchmarkCatColoredLog(b *testing.B) {
	bin := agentmux(b)
	log := input(b, kindSGR, catLogSize)
	tmux := tmuxPath(b)
	var am, ai, tm, ta, fl, ef, bs time.Duration
	var amCPU, aiCPU, bsCPU float64
	cmd := fmt.Sprintf(`sh -c "cat %s; %s; exec cat"`, log, printDone)
	// runShuffled: the emulator floor's history is what leaves the most garbage.
	runs := []func(){
		func() { fl += catThroughPTY(b, log, nil) },
		func() { ef += vtermThroughPTY(b, log) },
		func() {
			d, cpu := timeCatCPU(b, bin, cmd)
			am, amCPU = am+d, amCPU+cpu
		},
		func() {
			d, cpu := timeCatCPU(b, bin, "--in-process", cmd)
			ai, aiCPU = ai+d, aiCPU+cpu
		},
	}
	if *baseBin != "" {
		runs = append(runs, func() {
			d, cpu := timeCatCPU(b, *baseBin, cmd)
			bs, bsCPU = bs+d, bsCPU+cpu
		})
	}
	if tmux != "" {
		runs = append(runs, func() {
			srv := newTmux(b, tmux)
			start := time.Now()
			srv.catDetached(log)
			tm += time.Since(start)
			srv.kill()
		}, func() {
			srv := newTmux(b, tmux)
			ta += timeCatIn(b, srv.argv("new-session", cmd)...)
			srv.kill()
		})
	}
	runShuffled(b, runs)
	n := float64(b.N)
	b.ReportMetric(am.Seconds()/n, "agentmux_s")
	b.ReportMetric(float64(catLogSize)/(1<<20)/(am.Seconds()/n), "agentmux_MB/s")
	b.ReportMetric(ai.Seconds()/n, "in_process_s")
	b.ReportMetric(amCPU/n, "server_cpu_s")
	b.ReportMetric(aiCPU/n, "in_process_cpu_s")
	b.ReportMetric(fl.Seconds()/n, "pty_floor_s")
	b.ReportMetric(am.Seconds()/fl.Seconds(), "ratio_floor")
	b.ReportMetric(ef.Seconds()/n, "emulator_floor_s")
	b.ReportMetric(ef.Seconds()/fl.Seconds(), "ratio_emulator_floor")
	b.ReportMetric(am.Seconds()/ef.Seconds(), "ratio_above_emulator")
	if *baseBin != "" {
		b.ReportMetric(bs.Seconds()/n, "base_s")
		b.ReportMetric(bsCPU/n, "base_server_cpu_s")
		b.ReportMetric(bs.Seconds()/fl.Seconds(), "base_ratio_floor")
	}
	if tmux != "" {
		b.ReportMetric(tm.Seconds()/n, "tmux_s")
		b.ReportMetric(ta.Seconds()/n, "tmux_attached_s")
		b.ReportMetric(am.Seconds()/tm.Seconds(), "ratio")
		b.ReportMetric(am.Seconds()/ta.Seconds(), "ratio_attached")
		b.ReportMetric(ai.Seconds()/ta.Seconds(), "ratio_attached_in_process")
	}
}

// runShuffled runs every measurement of runs once per op, in a new random order each
// op and each after a collection of this process's garbage: whatever runs first, or
// after the one that left the most, must not pay for it. The timer runs for them only.
func runShuffled(b *testing.B, runs []func()) {
	b.ResetTimer()
	for range b.N {
		for _, i := range rand.Perm(len(runs)) {
			runtime.GC()
			runs[i]()
		}
	}
	b.StopTimer()
}

// timeCatCPU is timeCatIn for agentmux, with the CPU time (user and system) its session
// server had spent when doneMark was drawn: the server process's, or the one process's
// with --in-process.
func timeCatCPU(b *testing.B, argv ...string) (time.Duration, float64) {
	b.Helper()
	start := time.Now()
	s := startSession(b, argv...)
	s.waitText(catTimeout, doneMark)
	d := time.Since(start)
	pids := s.pids()
	srv := pids[len(pids)-1] // the server's, else the terminal's own
	ticks, err := cpuTicks(srv)
	if err != nil {
		b.Fatal(err)
	}
	s.close()
	return d, float64(ticks) / clkTck
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
