package ptyhost

// Input and output through real PTYs: many small writes reach the child in order
// (a raw-mode cat echoes them back), resizes reach the child (stty and a SIGWINCH
// trap), a 50 MB flood drains completely with its notifications coalesced, a burst's
// pause is said after its bytes, and writes after the child is gone neither block nor
// panic.

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestOrderedWrites(t *testing.T) {
	p, out := start(t, Spec{Argv: []string{"sh", "-c", "stty raw -echo; echo ready; exec cat"}})
	waitContains(t, p, out, "ready")
	prefix := len(out.String())
	var want strings.Builder
	const n = 5000
	for i := range n {
		chunk := fmt.Sprintf("%04d,", i)
		want.WriteString(chunk)
		p.Write([]byte(chunk))
	}
	got := waitOutput(t, p, out, "all chunks echoed", func(s string) bool {
		return len(s)-prefix >= want.Len()
	})[prefix:]
	if got != want.String() {
		i := 0
		for i < len(got) && i < want.Len() && got[i] == want.String()[i] {
			i++
		}
		t.Fatalf("echo differs at byte %d: got %q, want %q", i, got[i:min(len(got), i+40)], want.String()[i:min(want.Len(), i+40)])
	}
}

func TestWriteCopiesItsArgument(t *testing.T) {
	p, out := start(t, Spec{Argv: []string{"sh", "-c", "stty raw -echo; echo ready; exec cat"}})
	waitContains(t, p, out, "ready")
	b := []byte("first;")
	p.Write(b)
	copy(b, "XXXXX;") // the caller may reuse its buffer at once
	p.Write([]byte("second;"))
	waitContains(t, p, out, "first;second;")
}

func TestResizeSeenByChild(t *testing.T) {
	p, out := start(t, Spec{Argv: []string{"sh", "-c", "stty size; read x; stty size"}, Cols: 80, Rows: 24})
	waitContains(t, p, out, "24 80")
	if err := p.Resize(132, 50); err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("\r"))
	waitContains(t, p, out, "50 132")
}

func TestResizeSendsSIGWINCH(t *testing.T) {
	p, out := start(t, Spec{Argv: []string{"sh", "-c",
		`trap 'echo "winch $(stty size)"' WINCH; echo ready; while :; do sleep 10 & wait $!; done`}})
	waitContains(t, p, out, "ready")
	if err := p.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	waitContains(t, p, out, "winch 30 100")
}

func TestResizeAfterClose(t *testing.T) {
	p, _ := start(t, Spec{Argv: []string{"sleep", "100"}})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Resize(10, 10); err == nil {
		t.Fatal("Resize after Close succeeded")
	}
}

// countWriter counts bytes and calls, the way a pane's emulator would receive them.
type countWriter struct{ bytes, calls atomic.Int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.bytes.Add(int64(len(p)))
	c.calls.Add(1)
	return len(p), nil
}

func TestFloodDrainsAndCoalesces(t *testing.T) {
	out := &countWriter{}
	p, err := Start(Spec{Argv: []string{"sh", "-c", "yes | head -c 50000000"}, Cols: 120, Rows: 40}, out)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// Nobody reads Updates during the flood: the reader must never block on it.
	select {
	case <-p.Done():
	case <-time.After(2 * testTimeout):
		t.Fatalf("flood not drained: %d bytes so far", out.bytes.Load())
	}
	// 25,000,000 "y\n" lines; the terminal's ONLCR turns each "\n" into "\r\n".
	if got, want := out.bytes.Load(), int64(75_000_000); got != want {
		t.Fatalf("drained %d bytes, want %d", got, want)
	}
	if p.ExitCode() != 0 {
		t.Fatalf("exit code %d", p.ExitCode())
	}
	if calls := out.calls.Load(); calls < 2 || len(p.Updates()) != 1 || cap(p.Updates()) != 1 {
		t.Fatalf("%d writes left %d/%d notifications pending, want them coalesced into 1", calls, len(p.Updates()), cap(p.Updates()))
	}
	<-p.Updates()
	select {
	case <-p.Updates():
		t.Fatal("a second notification after draining the coalesced one")
	default:
	}
}

func TestWritesAfterExit(t *testing.T) {
	p, _ := start(t, Spec{Argv: []string{"sh", "-c", "exit 0"}})
	waitDone(t, p)
	big := make([]byte, 1<<20)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for range 64 {
			p.Write(big)
		}
	}()
	select {
	case <-finished:
	case <-time.After(testTimeout):
		t.Fatal("Write blocked after the child exited")
	}
	if n := p.queue.len(); n != 0 {
		t.Fatalf("%d chunks queued after exit, want them dropped", n)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("after close")) // must not panic or block
}

// A program that prints and then waits is paused: Quiet says so once its bytes are all
// in out, IsQuiet holds until it prints again, and the next pause comes only after the
// next bytes.
func TestQuietAfterABurst(t *testing.T) {
	p, out := start(t, Spec{Argv: []string{"sh", "-c", "stty -echo; printf one; read x; printf two; read y; exec sleep 100"}})
	waitQuiet := func(what string) {
		t.Helper()
		select {
		case <-p.Quiet():
		case <-time.After(testTimeout):
			t.Fatalf("no pause after %s; output %q", what, out.String())
		}
	}
	waitQuiet("one")
	require.Equal(t, "one", out.String(), "the burst's bytes are in out before its pause is said")
	require.True(t, p.IsQuiet())

	p.Write([]byte("go\n"))
	waitQuiet("two")
	require.Equal(t, "onetwo", out.String(), "the next pause comes after the next bytes")
	require.True(t, p.IsQuiet())
	select {
	case <-p.Quiet():
		t.Fatal("a second pause signal for one pause")
	default:
	}
}
