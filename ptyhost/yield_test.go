package ptyhost

import (
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// slowSink counts what the reader writes to it and takes busy time over each write, as
// parsing does: slower than the PTY refills, so the reader never waits in the poller.
// After each megabyte (rounds of them) it writes a byte into signal, from inside the
// flood.
type slowSink struct {
	n      atomic.Int64
	sent   atomic.Int64 // n when the last byte went
	signal *os.File
}

const rounds = 5

func (s *slowSink) Write(p []byte) (int, error) {
	for begin := time.Now(); time.Since(begin) < 100*time.Microsecond; {
		// the work of parsing p
	}
	n := s.n.Add(int64(len(p)))
	if sent := s.sent.Load(); n>>20 > sent>>20 && sent>>20 < rounds {
		s.sent.Store(n)
		_, _ = s.signal.Write([]byte{1})
	}
	return len(p), nil
}

// TestFloodLetsThePollerIn: on one processor (as the session server runs), a goroutine
// waiting in the network poller (a key on the terminal's socket, say) runs within a read
// of a flooding pane once its bytes come, not at the runtime's poll from its monitor
// thread (every 10 ms). Measured: at most three 4 KiB reads went by in a round; with
// runtime.Gosched as the reader's yield, the most of five rounds was 61-412 KiB (8
// runs), single rounds anywhere from 0 (a poll that happened to come) up.
func TestFloodLetsThePollerIn(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	sink := &slowSink{signal: w}
	p, err := Start(Spec{Argv: []string{"yes", "flood"}, Cols: 80, Rows: 24, KillGrace: 300 * time.Millisecond}, sink)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	var most int64
	for range rounds {
		// wait in the poller for the byte the flood's reader sends
		var b [1]byte
		if _, err := r.Read(b[:]); err != nil {
			t.Fatal(err)
		}
		between := sink.n.Load() - sink.sent.Load()
		t.Logf("flood bytes read between the signal and the waiter's wake-up: %d", between)
		most = max(most, between)
	}
	if most > 32<<10 {
		t.Errorf("the waiter woke up to %d bytes of flood after its byte came; want within a few 4 KiB reads", most)
	}
}
