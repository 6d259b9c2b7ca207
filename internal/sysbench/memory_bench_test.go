package sysbench

// BenchmarkMemory: the target "under 30 MB for agentmux with four panes before history
// fills". Each op starts agentmux in a 200×50 PTY with four panes that each cat a
// screenful (50 lines of SGR-coloured compiler output, wrapping in the narrower panes)
// and then print a marker; once all four markers are on agentmux's screen (so every byte
// was parsed and drawn) it reads VmHWM (peak resident set) and VmRSS of the agentmux
// processes (the terminal's and the session server's, summed) from /proc/PID/status. Metrics: peak_MB (the highest over the ops) and rss_MB
// (the mean).

import (
	"fmt"
	"testing"
	"time"
)

func BenchmarkMemory(b *testing.B) {
	bin := agentmux(b)
	screen := input(b, kindScreen, 1<<20)
	var peak, rssSum int64
	b.ResetTimer()
	for range b.N {
		argv := []string{bin}
		var marks []string
		for i := 1; i <= 4; i++ {
			argv = append(argv, fmt.Sprintf(`p%d=sh -c "cat %s; printf 'P%%s-DONE' %d; exec cat"`, i, screen, i))
			marks = append(marks, fmt.Sprintf("P%d-DONE", i))
		}
		s := startSession(b, argv...)
		s.waitText(20*time.Second, marks...)
		var hwm, rss int64
		for _, pid := range s.pids() { // the terminal's process and the session server
			h, r, err := memoryKB(pid)
			if err != nil {
				b.Fatal(err)
			}
			hwm, rss = hwm+h, rss+r
		}
		peak = max(peak, hwm)
		rssSum += rss
		s.close()
	}
	b.StopTimer()
	b.ReportMetric(float64(peak)/1024, "peak_MB")
	b.ReportMetric(float64(rssSum)/1024/float64(b.N), "rss_MB")
}
