package sysbench

// BenchmarkStartFirstFrame: the time a person waits for a new session. Each op runs
// `agentmux --session start "sh -c 'printf DONE-%s MARK; exec cat'"` in a new 200×50 PTY
// with a fresh HOME and runtime folder (made before the clock starts) and times from the
// exec until DONE-MARK is on the client's screen: both processes' start-up, claiming the
// session, launching the pane, the pane's program printing, the attach and the first frame
// that shows it. The session is ended outside the timed part. Metric: median_ms, max_ms;
// with -sysbench.base=PATH an older build runs the same start right after in every op
// (base_median_ms, base_max_ms), a before/after comparison under the same load.

import (
	"slices"
	"testing"
	"time"
)

// startTimeout bounds one start; a start is expected in well under a second.
const startTimeout = 20 * time.Second

func BenchmarkStartFirstFrame(b *testing.B) {
	bin := agentmux(b)
	var took, base []time.Duration
	b.ResetTimer()
	for range b.N {
		took = append(took, timeStart(b, bin))
		if *baseBin != "" {
			base = append(base, timeStart(b, *baseBin))
		}
	}
	b.StopTimer()
	reportStart(b, "", took)
	if *baseBin != "" {
		reportStart(b, "base_", base)
	}
}

// timeStart starts a session of one pane with agentmux binary bin and returns the time
// from the exec until the pane's marker is on the client's screen; the timer is stopped
// while the environment is made and while the session is ended.
func timeStart(b *testing.B, bin string) time.Duration {
	b.Helper()
	b.StopTimer()
	env := childEnv(b)
	b.StartTimer()
	start := time.Now()
	s := startSessionEnv(b, env, bin, "--session", "start", `sh -c "`+printDone+`; exec cat"`)
	s.waitText(startTimeout, doneMark)
	d := time.Since(start)
	b.StopTimer()
	s.close()
	b.StartTimer()
	return d
}

// reportStart reports the median and the maximum of took, in milliseconds, under names
// prefixed by prefix.
func reportStart(b *testing.B, prefix string, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, prefix+"median_ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, prefix+"max_ms")
}
