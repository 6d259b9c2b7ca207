package sysbench

// BenchmarkIdleCPU: the target "with four idle panes, agentmux uses no CPU beyond the
// frame ticker's no-op (target under 0.5 % of a core)" and "linked but quiet panes cost no
// CPU beyond idle panes". agentmux is its terminal's process and the session server's,
// summed. Each op starts agentmux with four `cat` panes in a 200×50 PTY
// (then again with --link), waits until all four pane names are on screen and agentmux
// has drawn nothing for a second (settled), then measures over a fixed window
// (-sysbench.idle, default 10s; the target asks for 30s: go test -run '^$' -bench IdleCPU
// ./internal/sysbench/ -args -sysbench.idle=30s) the CPU time of the agentmux
// process (utime+stime of all its threads, /proc/PID/stat, 10 ms ticks), the context
// switches of its threads (each a wake-up: timers firing show up here first) and the bytes
// it wrote. The window is a deliberate measurement period, not a stand-in for
// synchronisation.

import (
	"flag"
	"testing"
	"time"
)

var idleWindow = flag.Duration("sysbench.idle", 10*time.Second, "measurement window of BenchmarkIdleCPU")

// idleSample is one measured window.
type idleSample struct {
	cpuPercent float64 // of one core
	wakeups    float64 // context switches per second, all threads
	outBytes   int64   // written to the outer terminal during the window
}

func BenchmarkIdleCPU(b *testing.B) {
	bin := agentmux(b)
	var plain, linked idleSample
	b.ResetTimer()
	for range b.N {
		plain.add(measureIdle(b, bin))
		linked.add(measureIdle(b, bin, "--link"))
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(plain.cpuPercent/n, "cpu_percent")
	b.ReportMetric(linked.cpuPercent/n, "cpu_percent_linked")
	b.ReportMetric(plain.wakeups/n, "wakeups/s")
	b.ReportMetric(linked.wakeups/n, "wakeups/s_linked")
	b.ReportMetric(float64(plain.outBytes)/n, "out_B")
	b.ReportMetric(float64(linked.outBytes)/n, "out_B_linked")
}

func (s *idleSample) add(o idleSample) {
	s.cpuPercent += o.cpuPercent
	s.wakeups += o.wakeups
	s.outBytes += o.outBytes
}

// measureIdle runs agentmux (with flags) and four idle cat panes and measures one window.
func measureIdle(b *testing.B, bin string, flags ...string) idleSample {
	b.Helper()
	argv := append(append([]string{bin}, flags...), "p1=cat", "p2=cat", "p3=cat", "p4=cat")
	s := startSession(b, argv...)
	defer s.close()
	s.waitText(20*time.Second, "p1", "p2", "p3", "p4")
	if !s.waitQuiet(time.Second, 20*time.Second) {
		b.Logf("agentmux %v kept drawing for 20s after start-up; measuring anyway", flags)
	}
	return measureWindow(b, s, s.pids())
}

// measureWindow measures the CPU time and context switches of pids, and the bytes s's
// terminal received, over one idle window (s nil: no terminal is watched).
func measureWindow(b *testing.B, s *session, pids []int) idleSample {
	b.Helper()
	cpu0, sw0 := sumTicks(b, pids)
	var out0 int64
	var exited <-chan struct{}
	if s != nil {
		out0, exited = s.outN.Load(), s.exited
	}
	start := time.Now()
	window := time.NewTimer(*idleWindow)
	select {
	case <-window.C:
	case <-exited:
		b.Fatalf("agentmux exited during the idle window; screen:\n%s", s.dump())
	}
	cpu1, sw1 := sumTicks(b, pids)
	elapsed := time.Since(start).Seconds()
	smp := idleSample{
		cpuPercent: float64(cpu1-cpu0) / clkTck / elapsed * 100,
		wakeups:    float64(sw1-sw0) / elapsed,
	}
	if s != nil {
		smp.outBytes = s.outN.Load() - out0
	}
	return smp
}

// sumTicks is the CPU ticks and context switches of pids, summed.
func sumTicks(b *testing.B, pids []int) (cpu, sw int64) {
	b.Helper()
	for _, pid := range pids {
		c, err := cpuTicks(pid)
		if err != nil {
			b.Fatal(err)
		}
		w, err := switches(pid)
		if err != nil {
			b.Fatal(err)
		}
		cpu, sw = cpu+c, sw+w
	}
	return cpu, sw
}
