package parser

// Strategy: the performance targets as benchmarks. Delta extraction over a 10,000-row
// history must take under 5 ms (a relay decision must never lag the screen), and so must a whole main-screen turn's words
// (MainTurn, "Since"); the content rule (fresh) over the same history, Classify of one
// screen and Merge of one frame run on every turn end or output event, so they are
// measured too.

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the CPU time per operation to a benchmark: on a shared machine the
// wall-clock ns/op includes waiting for a core; cpu-ns/op does not (it does include GC).
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// history10k returns 10,000 rows of a long Claude Code session: turns of echo, prose,
// code and tool rows, summaries and stale chrome.
func history10k() []string {
	rule := strings.Repeat("─", 120)
	var rows []string
	for turn := 0; len(rows) < 10000; turn++ {
		rows = append(rows,
			fmt.Sprintf("❯ alice (1): please look at step %d of the plan and say what you would change", turn),
			"",
			fmt.Sprintf("● Step %d looks mostly right. Here is what I would change in the parser:", turn),
			"",
			"  func (p Profile) IsChrome(line string) bool {",
			"      return matchAny(p.Chrome, line)",
			"  }",
			"",
			"  The rest reads well; the tests cover the reflowed echo and the reprint case, and",
			"  the benchmark keeps the extraction under its budget on a long history.",
			"",
			"● Bash(go test ./parser/...)",
			"  ⎿  ok  	github.com/agentmux/agentmux/parser	0.103s",
			"",
			fmt.Sprintf("✻ Cogitated for %ds · done 12:05 AM", turn%60),
			"",
			rule, "❯ ", rule, "  ⏵⏵ auto mode on (shift+tab to cycle)",
		)
	}
	return rows[:10000]
}

func BenchmarkDelta10k(b *testing.B) {
	p := ProfileFor("claude")
	rows := history10k()
	typed := []string{"alice (1): please look at step 3 of the plan and say what you would change"}
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if delta(p, rows, typed) == "" {
			b.Fatal("empty delta")
		}
	}
}

func BenchmarkFresh10k(b *testing.B) {
	p := ProfileFor("claude")
	rows := history10k()
	before := rows[len(rows)-40:]
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		freshOf(p, before, rows)
	}
}

func BenchmarkSince10k(b *testing.B) {
	p := ProfileFor("claude")
	rows := history10k()
	before, after := viewOf(rows[:40]), viewOf(rows)
	typed := []string{"alice (1): please look at step 3 of the plan and say what you would change"}
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if MainTurn(p, before, after, typed).Text == "" {
			b.Fatal("empty delta")
		}
	}
}

func BenchmarkClassify(b *testing.B) {
	p := ProfileFor("claude")
	screen := history10k()[:40]
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		Classify(p, "◐ Claude Code", screen)
	}
}

func BenchmarkMerge(b *testing.B) {
	rows := history10k()
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		acc := append([]string(nil), rows[:1000]...)
		merge(acc, rows[980:1020], rows[960:1000])
	}
}
