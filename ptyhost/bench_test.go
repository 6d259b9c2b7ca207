package ptyhost

// BenchmarkKeystrokeEcho measures one keystroke's round trip through a real PTY:
// Write → writer goroutine → PTY → a raw-mode cat → PTY → reader goroutine → out →
// Updates. The time a keystroke takes to reach the PTY is part of it, so this bounds
// the "keystroke reaches the pane's PTY within 1 ms" target from above.

import (
	"strings"
	"testing"
	"time"
)

func BenchmarkKeystrokeEcho(b *testing.B) {
	out := &syncBuf{}
	p, err := Start(Spec{Argv: []string{"sh", "-c", "stty raw -echo; echo ready; exec cat"}, KillGrace: 100 * time.Millisecond}, out)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	for !strings.Contains(out.String(), "ready") {
		select {
		case <-p.Updates():
		case <-time.After(testTimeout):
			b.Fatal("cat did not start")
		}
	}
	key := []byte("x")
	want := len(out.String())
	for b.Loop() {
		want++
		p.Write(key)
		for len(out.String()) < want {
			select {
			case <-p.Updates():
			case <-time.After(testTimeout):
				b.Fatal("echo lost")
			}
		}
	}
}
