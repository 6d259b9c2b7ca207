package ui

// Strategy: the headless harness with two linked fake panes; each iteration ends one
// turn of pane 1 with a 200-line answer and measures the relay wake-up that decides pane
// 2 is idle, from the session's timer firing to the delivery's first bytes reaching pane
// 2's process (fakeProc.Write): the decision-to-first-byte latency, delta extraction
// included. Setting the panes up is outside the timer.

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func BenchmarkDecisionToFirstByte(b *testing.B) {
	var answer strings.Builder
	for i := range 200 {
		fmt.Fprintf(&answer, "line %d of a long answer from alice\r\n", i)
	}
	for b.Loop() {
		b.StopTimer()
		hs := newRelayHarness(b, true, "alice", "bob")
		hs.startBoth()
		hs.procs[2].Sent()
		hs.output(1, "\r\n"+answer.String()+"> ")
		// alice's turn ends at her quiet deadline; bob is idle already.
		at, ok := hs.clock.Next()
		if !ok {
			b.Fatal("no wake-up armed")
		}
		wrote := make(chan struct{}, 1)
		hs.procs[2].SetOnWrite(func() {
			select {
			case wrote <- struct{}{}:
			default:
			}
		})
		b.StartTimer()
		hs.clock.Set(at.Add(time.Millisecond))
		<-wrote
		b.StopTimer()
		hs.s.Sync()
		if got := hs.procs[2].Sent(); !strings.Contains(got, "alice (1)") {
			b.Fatalf("not delivered: %q", got)
		}
		_ = hs.s.Stop() // not kept alive until the benchmark ends: the GC would scan them all
		b.StartTimer()
	}
}
