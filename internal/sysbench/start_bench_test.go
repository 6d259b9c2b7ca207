package sysbench

// BenchmarkStartFirstFrame: the time a person waits for a new session. Each op runs
// `agentmux --session start "sh -c 'printf DONE-%s MARK; exec cat'"` in a new 200×50 PTY
// and times from the exec until DONE-MARK is on the client's screen: both processes'
// start-up, claiming the session, launching the pane, the pane's program printing, the
// attach and the first frame that shows it. The session is ended outside the timed part.
// Every op of a binary shares one HOME and runtime folder, started in once before the
// timed ops: the usual start, with the store already made (the very first start in a
// HOME also creates it, some 10-20 ms more). Metric: median_ms, max_ms; with
// -sysbench.base=PATH an older build runs the same start right after in every op, in
// a HOME of its own (base_median_ms, base_max_ms), a before/after comparison under the
// same load.

import (
	"testing"
	"time"
)

// startTimeout bounds one start; a start is expected in well under a second.
const startTimeout = 20 * time.Second

func BenchmarkStartFirstFrame(b *testing.B) {
	bin := agentmux(b)
	env := childEnv(b)
	timeStart(b, env, bin) // makes the store
	var baseEnv []string
	if *baseBin != "" {
		baseEnv = childEnv(b)
		timeStart(b, baseEnv, *baseBin)
	}
	var took, base []time.Duration
	b.ResetTimer()
	for range b.N {
		took = append(took, timeStart(b, env, bin))
		if *baseBin != "" {
			base = append(base, timeStart(b, baseEnv, *baseBin))
		}
	}
	b.StopTimer()
	reportMedianMax(b, "", took)
	if *baseBin != "" {
		reportMedianMax(b, "base_", base)
	}
}

// timeStart starts a session of one pane with agentmux binary bin in environment env
// and returns the time from the exec until the pane's marker is on the client's screen;
// the timer is stopped while the session is ended (its server gone before the next).
func timeStart(b *testing.B, env []string, bin string) time.Duration {
	b.Helper()
	start := time.Now()
	s := startSessionEnv(b, env, bin, "--session", "start", `sh -c "`+printDone+`; exec cat"`)
	s.waitText(startTimeout, doneMark)
	d := time.Since(start)
	b.StopTimer()
	s.close()
	b.StartTimer()
	return d
}
