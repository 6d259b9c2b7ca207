package relay

// Strategy: the relay's share of the latency budget as benchmarks. Decision to action
// must take well under 20 ms: BenchmarkTurnToType measures a member's turn ending over a
// 10,000-line history through to the Type action for its peer (delta extraction,
// framing, the typing decision); BenchmarkOutput the per-output-event cost (classifying
// the screen); BenchmarkQuietTick a timer tick with nothing due.

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// staticScreen is a Screen whose text the benchmark sets.
type staticScreen struct {
	title string
	all   []string
	rows  int
}

func (s *staticScreen) Read(from int64) Reading { return readParts(s, from) }
func (s *staticScreen) Info() Info              { return Info{Title: s.title, BracketedPaste: true} }
func (s *staticScreen) ScreenTop() int64 {
	return int64(max(0, len(s.all)-s.rows))
}
func (s *staticScreen) ScreenText() []string { return s.all[s.ScreenTop():] }
func (s *staticScreen) TextFrom(n int64) []Line {
	out := make([]Line, 0, max(0, int64(len(s.all))-n))
	for i := max(n, 0); i < int64(len(s.all)); i++ {
		out = append(out, Line{N: i, Text: s.all[i]})
	}
	return out
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

func transcript(n int) []string {
	var rows []string
	for i := 0; len(rows) < n; i++ {
		rows = append(rows,
			fmt.Sprintf("> message %d from the other agent about the plan", i),
			fmt.Sprintf("● Answer %d: the plan is fine, with one change to the parser;", i),
			"  the tests cover it and the benchmark stays within budget.",
			"",
		)
	}
	return rows[:n]
}

func BenchmarkTurnToType(b *testing.B) {
	now := t0
	hist := transcript(10000)
	defer reportCPU(b, cpuTime())
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		r := New(Config{})
		alice := &staticScreen{title: "idle", rows: 40, all: []string{"> "}}
		bob := &staticScreen{title: "idle", rows: 40, all: []string{"> "}}
		r.Handle(Open{Pane: 1, Name: "alice", Profile: testProfile(), Screen: alice}, now)
		r.Handle(Open{Pane: 2, Name: "bob", Profile: testProfile(), Screen: bob}, now)
		r.Handle(Output{Pane: 1}, now)
		r.Handle(Output{Pane: 2}, now)
		r.Tick(now.Add(time.Second + 600*time.Millisecond)) // both started
		r.Handle(Link{Pane: 1, With: 2}, now.Add(time.Second))
		alice.all = append(append([]string(nil), hist...), "> ")
		r.Handle(Output{Pane: 1}, now.Add(2*time.Second))
		b.StartTimer()
		acts := r.Tick(now.Add(3 * time.Second))
		if len(acts) != 1 || acts[0].Target() != 2 {
			b.Fatalf("actions %+v", acts)
		}
	}
}

// BenchmarkIdleToType measures the target "decided idle to first byte typed": a
// delivery waits for bob; bob's quiet deadline passes; Tick returns the Type action.
func BenchmarkIdleToType(b *testing.B) {
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		r := New(Config{})
		alice := &staticScreen{title: "idle", rows: 40, all: []string{"> "}}
		bob := &staticScreen{title: "idle", rows: 40, all: append(transcript(400), "> ")}
		r.Handle(Open{Pane: 1, Name: "alice", Profile: testProfile(), Screen: alice}, now)
		r.Handle(Open{Pane: 2, Name: "bob", Profile: testProfile(), Screen: bob}, now)
		r.Handle(Output{Pane: 1}, now)
		r.Handle(Output{Pane: 2}, now)
		r.Tick(now.Add(time.Second + 600*time.Millisecond)) // both started
		r.Handle(Link{Pane: 1, With: 2}, now.Add(time.Second))
		bob.title = "busy"
		r.Handle(Output{Pane: 2}, now.Add(time.Second))
		alice.all = append(transcript(20), "> ")
		r.Handle(Output{Pane: 1}, now.Add(2*time.Second))
		r.Tick(now.Add(3 * time.Second)) // alice's turn ends; bob is busy
		bob.title = "idle"
		r.Handle(Output{Pane: 2}, now.Add(4*time.Second))
		b.StartTimer()
		acts := r.Tick(now.Add(5 * time.Second))
		if len(acts) != 1 || acts[0].Target() != 2 {
			b.Fatalf("actions %+v", acts)
		}
	}
}

func BenchmarkOutput(b *testing.B) {
	r := New(Config{})
	scr := &staticScreen{title: "busy", rows: 40, all: transcript(40)}
	peer := &staticScreen{title: "idle", rows: 40, all: []string{"> "}}
	now := t0
	r.Handle(Open{Pane: 1, Name: "alice", Profile: testProfile(), Screen: scr}, now)
	r.Handle(Open{Pane: 2, Name: "bob", Profile: testProfile(), Screen: peer}, now)
	r.Handle(Link{Pane: 1, With: 2}, now)
	defer reportCPU(b, cpuTime())
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Millisecond)
		r.Handle(Output{Pane: 1}, now)
	}
}

func BenchmarkQuietTick(b *testing.B) {
	r := New(Config{})
	now := t0
	for i := 1; i <= 8; i++ {
		r.Handle(Open{Pane: i, Name: fmt.Sprint(i), Profile: testProfile(), Screen: &staticScreen{title: "idle", rows: 40, all: []string{strings.Repeat("x", 80), "> "}}}, now)
	}
	r.Handle(LinkAll{Panes: []int{1, 2, 3, 4, 5, 6, 7, 8}}, now)
	defer reportCPU(b, cpuTime())
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Second)
		r.Tick(now)
	}
}
