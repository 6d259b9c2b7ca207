package session

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/ptyhost"
)

// agentmux's own part of a hop, on the wall clock: from the moment the turn's end is
// known to agentmux to the first byte of the delivery written to the other pane.
// Without hooks the turn end is the program's last output (agentmux must then see it
// stay quiet: --idle, here 300 ms, for a program whose screen says nothing); with
// hooks it is the hook's report (Session.Hook), and the delivery goes at once.
//
//	go test ./session -run '^$' -bench Hop -benchtime 20x

func BenchmarkHopFromTheScreen(b *testing.B) { benchHop(b, false) }
func BenchmarkHopFromTheHook(b *testing.B)   { benchHop(b, true) }

// wroteProc is a fakeProc that signals each write.
type wroteProc struct {
	*fakeProc
	wrote chan struct{}
}

func (w *wroteProc) Write(p []byte) {
	w.fakeProc.Write(p)
	select {
	case w.wrote <- struct{}{}:
	default:
	}
}

func benchHop(b *testing.B, hooks bool) {
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		hop(b, hopRig{hooks: hooks, interval: -1})
	}
}

// hopRig says how one hop runs: with hooks or from the screen, the panes' output
// interval (Options.OutputInterval), and whether a third pane, not linked, floods the
// session with coloured output all along.
type hopRig struct {
	hooks    bool
	interval time.Duration
	flood    bool
}

// hop starts a session of alice and bob, linked (and carol when r.flood), brings both to
// their prompt, ends alice's turn and returns how long agentmux took from the turn's end
// to the first byte of the delivery written to bob. The benchmark's timer runs for that
// span only (the caller stops it first).
func hop(b *testing.B, r hopRig) time.Duration {
	profs := parser.Builtins()
	alice := parser.Generic()
	alice.Name, alice.Programs, alice.Hooks = "alice", []string{"alice"}, parser.HooksClaude
	profs["alice"] = alice
	var mu sync.Mutex
	procs := map[int]*wroteProc{}
	specs := []PaneSpec{{Name: "alice", Argv: []string{"alice"}, Cols: 80, Rows: 24}, {Name: "bob", Argv: []string{"bob"}, Cols: 80, Rows: 24}}
	if r.flood {
		specs = append(specs, PaneSpec{Name: "carol", Argv: []string{"carol"}, Cols: 80, Rows: 24})
	}
	o := Options{
		Idle: 300 * time.Millisecond, Profiles: profs, OutputInterval: r.interval, Panes: specs,
		Start: func(spec ptyhost.Spec, out io.Writer) (Process, error) {
			p := &wroteProc{fakeproc.New(spec, out), make(chan struct{}, 1)}
			mu.Lock()
			procs[spec.Pane] = p
			mu.Unlock()
			return p, nil
		},
	}
	if r.hooks {
		o.Hooks = func(_ int, spec PaneSpec, _ parser.Profile) (PaneSpec, bool) { return spec, true }
	}
	s, err := Start(o)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Link(1, 2); err != nil {
		b.Fatal(err)
	}
	sub := s.Subscribe(0)
	await := func(ok func(Event) bool) {
		for {
			<-sub.Ready()
			for _, ev := range sub.Next() {
				if ok(ev) {
					return
				}
			}
		}
	}
	stopFlood, flooded := make(chan struct{}), make(chan struct{})
	if r.flood {
		go func() {
			defer close(flooded)
			chunk := floodChunk()
			for {
				select {
				case <-stopFlood:
					return
				default:
				}
				procs[3].Print(chunk)
				runtime.Gosched() // ptyhost's reader yields after each read (through the poller, for the server's one processor)
			}
		}()
	} else {
		close(flooded)
	}
	idle := map[int]bool{}
	procs[1].Print("> ")
	procs[2].Print("> ")
	await(func(ev Event) bool {
		if m, ok := ev.(MemberChanged); ok && m.Member.State == Idle {
			idle[m.Member.Pane] = true
		}
		return idle[1] && idle[2]
	})
	procs[1].Print("\r\nthe answer\r\n> ")
	var start time.Time
	if r.hooks {
		await(func(ev Event) bool { o, ok := ev.(Output); return ok && o.Pane == 1 })
		b.StartTimer()
		start = time.Now()
		if err := s.Hook("alice", "the answer", "bench"); err != nil {
			b.Fatal(err)
		}
	} else {
		b.StartTimer()
		start = time.Now()
	}
	<-procs[2].wrote
	d := time.Since(start)
	b.StopTimer()
	close(stopFlood)
	<-flooded
	sub.Close()
	if err := s.Stop(); err != nil {
		b.Fatal(err)
	}
	return d
}

// floodChunk is what the flooding pane prints at a time: 200 lines of SGR-coloured text,
// as a build log or a test run prints them.
func floodChunk() string {
	var sb strings.Builder
	for i := range 200 {
		fmt.Fprintf(&sb, "\x1b[3%dmok\x1b[m  \x1b[1mpkg/%03d\x1b[22m  compiled %d files in %d.%02ds \x1b[2m(cached)\x1b[22m\r\n", 1+i%6, i, i*7%97, i%5, i*13%100)
	}
	return sb.String()
}

// BenchmarkHopUnderFlood is the relay's hop while a third pane, not linked, floods:
// each op is two hops, one with the flood and one without, in alternating order, so
// both share the run and the machine's load. With the production output interval (the
// flooding pane is observed at most 60 times a second). Metrics: the median and p99 of
// each, in microseconds, and flood_ratio, the flood's median over the quiet one's (the
// target: within 1.10).
//
//	go test ./session -run '^$' -bench HopUnderFlood -benchtime 20x
func BenchmarkHopUnderFlood(b *testing.B) {
	b.Run("screen", func(b *testing.B) { benchHopFlood(b, false) })
	b.Run("hook", func(b *testing.B) { benchHopFlood(b, true) })
}

func benchHopFlood(b *testing.B, hooks bool) {
	b.StopTimer()
	quiet, flood := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		for k := range 2 {
			withFlood := (i+k)%2 == 1
			d := hop(b, hopRig{hooks: hooks, flood: withFlood})
			if withFlood {
				flood = append(flood, d)
			} else {
				quiet = append(quiet, d)
			}
		}
	}
	slices.Sort(quiet)
	slices.Sort(flood)
	pct := func(ds []time.Duration, q int) float64 { return float64(ds[len(ds)*q/100].Microseconds()) }
	b.ReportMetric(pct(quiet, 50), "quiet_p50_us")
	b.ReportMetric(pct(quiet, 99), "quiet_p99_us")
	b.ReportMetric(pct(flood, 50), "flood_p50_us")
	b.ReportMetric(pct(flood, 99), "flood_p99_us")
	b.ReportMetric(float64(flood[len(flood)/2])/float64(quiet[len(quiet)/2]), "flood_ratio")
}
