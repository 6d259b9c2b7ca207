package demo

// Main is run in-process with pipes for stdin and stdout (not a terminal, so no raw mode
// and a line feed submits): the flags, the exit statuses and the pid file are checked, and
// the loop's timers are checked to exist only while the agent is busy. Waiting is on the
// output or on Main returning, each with a deadline; nothing sleeps.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// liveOutput is a goroutine-safe writer that signals each write.
type liveOutput struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func newLiveOutput() *liveOutput { return &liveOutput{changed: make(chan struct{}, 1)} }

func (o *liveOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Write(p)
	select {
	case o.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (o *liveOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// deadline bounds every wait of these tests.
func deadline() <-chan time.Time { return time.After(10 * time.Second) }

// waitFor waits until the output contains s.
func (o *liveOutput) waitFor(t *testing.T, s string) {
	t.Helper()
	timeout := deadline()
	for !strings.Contains(o.String(), s) {
		select {
		case <-o.changed:
		case <-timeout:
			t.Fatalf("output never contained %q; it is:\n%q", s, o.String())
		}
	}
}

// running is Main started on its own goroutine.
type running struct {
	stdin *io.PipeWriter
	out   *liveOutput
	code  chan int
}

func startMain(t *testing.T, args ...string) *running {
	t.Helper()
	r, w := io.Pipe()
	m := &running{stdin: w, out: newLiveOutput(), code: make(chan int, 1)}
	go func() { m.code <- Main(args, r, m.out) }()
	t.Cleanup(func() { w.Close() })
	return m
}

func (m *running) wait(t *testing.T) int {
	t.Helper()
	select {
	case c := <-m.code:
		return c
	case <-deadline():
		t.Fatalf("Main did not return; output:\n%q", m.out.String())
		return -1
	}
}

func TestMainFlagErrors(t *testing.T) {
	for _, args := range [][]string{{"--style", "fancy"}, {"--reply", "sing"}, {"--nope"}, {"extra"}, {"--busy", "-1s"}} {
		var out bytes.Buffer
		if code := Main(args, strings.NewReader(""), &out); code != 2 {
			t.Errorf("Main(%q) = %d, want 2", args, code)
		}
		if out.Len() == 0 {
			t.Errorf("Main(%q) printed no error", args)
		}
	}
	var out bytes.Buffer
	if code := Main([]string{"-h"}, strings.NewReader(""), &out); code != 0 || !strings.Contains(out.String(), "-exit-after") {
		t.Errorf("-h: code %d, usage %q", code, out.String())
	}
}

func TestMainEchoSession(t *testing.T) {
	m := startMain(t, "--name", "bob", "--style", "plain", "--reply", "echo", "--busy", "20ms")
	m.out.waitFor(t, "> ")
	io.WriteString(m.stdin, "hello world\n")
	m.out.waitFor(t, "bob heard: hello world")
	io.WriteString(m.stdin, "again\n")
	m.out.waitFor(t, "bob heard: again")
	m.stdin.Close()
	if code := m.wait(t); code != 0 {
		t.Fatalf("exit %d at end of input, want 0", code)
	}
}

func TestMainAnswersBeforeExitingAtEndOfInput(t *testing.T) {
	m := startMain(t, "--name", "bob", "--style", "inline", "--reply", "echo", "--busy", "30ms")
	io.WriteString(m.stdin, "one\ntwo\n")
	m.stdin.Close()
	if code := m.wait(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
	out := m.out.String()
	if !strings.Contains(out, "bob heard: one") || !strings.Contains(out, "bob heard: two") {
		t.Fatalf("queued messages not answered before exit:\n%q", out)
	}
	if !strings.HasSuffix(out, showCursor) {
		t.Fatalf("should end by restoring the cursor: %q", out[max(len(out)-40, 0):])
	}
}

func TestMainExitAfter(t *testing.T) {
	m := startMain(t, "--style", "alt", "--reply", "echo", "--busy", "10ms", "--exit-after", "2", "--exit-code", "7")
	io.WriteString(m.stdin, "a\n")
	m.out.waitFor(t, "agent heard: a")
	io.WriteString(m.stdin, "b\n")
	if code := m.wait(t); code != 7 {
		t.Fatalf("exit %d, want 7", code)
	}
	if !strings.Contains(m.out.String(), altOff) {
		t.Fatal("did not leave the alternate screen")
	}
}

func TestMainExitAfterZero(t *testing.T) {
	m := startMain(t, "--exit-after", "0", "--exit-code", "3")
	if code := m.wait(t); code != 3 {
		t.Fatalf("exit %d, want 3", code)
	}
	if !strings.Contains(m.out.String(), "simulated agent") {
		t.Fatal("should draw its banner before exiting")
	}
}

func TestMainPidFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent.pid")
	m := startMain(t, "--pidfile", path, "--style", "plain")
	m.out.waitFor(t, "> ")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid != os.Getpid() {
		t.Fatalf("pid file holds %q, want %d", b, os.Getpid())
	}
	m.stdin.Close()
	m.wait(t)
	if code := Main([]string{"--pidfile", filepath.Join(t.TempDir(), "no", "such", "dir")}, strings.NewReader(""), io.Discard); code != 1 {
		t.Fatalf("unwritable pid file: exit %d, want 1", code)
	}
}

func TestMainFlood(t *testing.T) {
	const n = 200_000
	m := startMain(t, "--name", "f", "--style", "plain", "--flood", strconv.Itoa(n), "--reply", "echo", "--busy", "0s")
	io.WriteString(m.stdin, "still there?\n") // answered while (or after) flooding
	m.out.waitFor(t, "f heard: still there?")
	full := len(floodLine("f", 1))
	want := (n + full - 1) / full
	m.out.waitFor(t, fmt.Sprintf("f flood %08d", want))
	m.stdin.Close()
	m.wait(t)
	if lines := strings.Count(m.out.String(), "f flood "); lines != want {
		t.Fatalf("%d flood lines, want %d", lines, want)
	}
}

func TestFloodStepIsExact(t *testing.T) {
	for _, n := range []int{1, 57, 32 << 10, 100_003} {
		h := newHarness(t, 80, 24, "--style", "plain", "--flood", strconv.Itoa(n))
		total := 0
		rec := &rawRecorder{renderer: h.a.draw, n: &total}
		h.a.draw = rec
		for h.a.floodStep() {
		}
		full := len(floodLine("agent", 1))
		want := n
		if n%full != 0 {
			want += 2 // the cut last line still ends its row
		}
		if total != want {
			t.Errorf("flood %d printed %d bytes, want %d", n, total, want)
		}
	}
}

type rawRecorder struct {
	renderer
	n *int
}

func (r *rawRecorder) raw(a *agent, p []byte) {
	*r.n += len(p)
	r.renderer.raw(a, p)
}

func TestTimersOnlyWhileBusy(t *testing.T) {
	for _, st := range styleNames {
		h := newHarness(t, 60, 20, "--style", st, "--busy", "1h")
		var tt turnTimers
		defer tt.stop()
		if done, tick := tt.sync(h.a); done != nil || tick != nil {
			t.Fatalf("%s: timers while idle", st)
		}
		h.typ("go\r")
		done, tick := tt.sync(h.a)
		if done == nil || (tick == nil) != (h.a.draw.tickEvery() == 0) {
			t.Fatalf("%s: busy without its timer or spinner ticker", st)
		}
		first := tt.timer
		if tt.sync(h.a); tt.timer != first {
			t.Fatalf("%s: the same turn re-armed its timer", st)
		}
		h.typ("\x1b") // interrupt, then a new turn: new timers
		h.typ("again\r")
		if tt.sync(h.a); tt.timer == first || tt.timer == nil {
			t.Fatalf("%s: a new turn kept the old timer", st)
		}
		h.finish(time.Second)
		if done, tick := tt.sync(h.a); done != nil || tick != nil {
			t.Fatalf("%s: timers left after the turn", st)
		}
	}
}
