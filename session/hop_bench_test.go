package session

import (
	"io"
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
	profs := parser.Builtins()
	alice := parser.Generic()
	alice.Name, alice.Programs, alice.Hooks = "alice", []string{"alice"}, parser.HooksClaude
	profs["alice"] = alice
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		var mu sync.Mutex
		procs := map[int]*wroteProc{}
		o := Options{
			Idle: 300 * time.Millisecond, Link: true, Profiles: profs, OutputInterval: -1,
			Panes: []PaneSpec{{Name: "alice", Argv: []string{"alice"}, Cols: 80, Rows: 24}, {Name: "bob", Argv: []string{"bob"}, Cols: 80, Rows: 24}},
			Start: func(spec ptyhost.Spec, out io.Writer) (Process, error) {
				p := &wroteProc{fakeproc.New(spec, out), make(chan struct{}, 1)}
				mu.Lock()
				procs[spec.Pane] = p
				mu.Unlock()
				return p, nil
			},
		}
		if hooks {
			o.Hooks = func(_ int, spec PaneSpec, _ parser.Profile) (PaneSpec, bool) { return spec, true }
		}
		s, err := Start(o)
		if err != nil {
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
		if hooks {
			await(func(ev Event) bool { o, ok := ev.(Output); return ok && o.Pane == 1 })
			b.StartTimer()
			if err := s.Hook("alice", "the answer", "bench"); err != nil {
				b.Fatal(err)
			}
		} else {
			b.StartTimer()
		}
		<-procs[2].wrote
		b.StopTimer()
		sub.Close()
		if err := s.Stop(); err != nil {
			b.Fatal(err)
		}
	}
}
