//go:build agents

package agents

// The harness: a program in a PTY whose output is read through our emulator (vterm), with the
// emulator's query replies written back to the PTY, so the CLIs see a capable terminal. Tests
// wait on the screen or the title with a deadline: every read wakes the waiter through a
// capacity-1 channel (no polling), and a timeout fails with the last screen and the titles
// seen, so a failure shows what the program was doing.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agentmux/agentmux/vterm"
)

// term is one program running in a PTY, drawn by a vterm.Terminal.
type term struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd
	ptmx *os.File
	vt   *vterm.Terminal

	updated chan struct{} // capacity 1: the screen or title changed
	writes  chan []byte   // to the writer goroutine: replies and typed input, in order
	exited  chan struct{} // closed when the program has exited; waitErr is then set
	drained chan struct{} // closed when the reader has seen the PTY close
	waitErr error
	start   time.Time

	mu     sync.Mutex
	titles []titleAt // every title the program set, in order
	raw    bytes.Buffer
}

// titleAt is a title change and when it happened (since start).
type titleAt struct {
	At    time.Duration
	Title string
}

// startTerm runs argv in dir with env (the whole environment) in a cols×rows PTY.
func startTerm(t *testing.T, name string, argv []string, dir string, env []string, cols, rows int) *term {
	t.Helper()
	tm := &term{t: t, name: name, updated: make(chan struct{}, 1), writes: make(chan []byte, 256),
		exited: make(chan struct{}), drained: make(chan struct{})}
	tm.vt = vterm.New(vterm.Options{
		Cols: cols, Rows: rows, Version: "agents-test",
		Reply: func(b []byte) {
			select { // must not block: the PTY writer goroutine does the writing
			case tm.writes <- append([]byte(nil), b...):
			default:
			}
		},
		OnEvent: func(e vterm.Event) {
			if e.Kind == vterm.EventTitle {
				tm.mu.Lock()
				tm.titles = append(tm.titles, titleAt{time.Since(tm.start), e.Text})
				tm.mu.Unlock()
			}
		},
	})
	tm.cmd = exec.Command(argv[0], argv[1:]...)
	tm.cmd.Dir, tm.cmd.Env = dir, env
	tm.start = time.Now()
	ptmx, err := pty.StartWithSize(tm.cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows), X: uint16(cols * 8), Y: uint16(rows * 16)})
	if err != nil {
		t.Fatalf("start %s (%q): %v", name, argv, err)
	}
	tm.ptmx = ptmx
	go func() { tm.waitErr = tm.cmd.Wait(); close(tm.exited) }()
	go tm.readLoop()
	go tm.writeLoop()
	t.Cleanup(tm.stop)
	return tm
}

// readLoop feeds the program's output to the emulator and wakes the waiter.
func (tm *term) readLoop() {
	defer close(tm.drained)
	buf := make([]byte, 64<<10)
	for {
		n, err := tm.ptmx.Read(buf)
		if n > 0 {
			tm.mu.Lock()
			tm.raw.Write(buf[:n])
			tm.mu.Unlock()
			tm.vt.Write(buf[:n])
			select {
			case tm.updated <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return // EIO once the program and its children closed the PTY
		}
	}
}

// writeLoop writes replies and typed input to the PTY in order until the PTY closes.
func (tm *term) writeLoop() {
	for {
		select {
		case b := <-tm.writes:
			if _, err := tm.ptmx.Write(b); err != nil {
				return
			}
		case <-tm.drained:
			return
		}
	}
}

// typeText sends s to the program as typed input.
func (tm *term) typeText(s string) {
	select {
	case tm.writes <- []byte(s):
	case <-tm.exited:
		tm.t.Fatalf("%s exited before %q could be typed\n%s", tm.name, s, tm.dump())
	}
}

// submit types text, waits until the program echoes it (its input loop has read it), then
// sends Enter after the delay the CLIs need to see it as a keypress rather than part of a
// paste (measured: 150-500 ms works for all three). Waiting for the echo matters: Gemini CLI
// is busy for seconds after it first shows Ready, and reads text and an Enter that queued up
// meanwhile in one go, as a paste, turning the Enter into a newline.
func (tm *term) submit(text string) {
	tm.t.Helper()
	tm.typeText(text)
	tm.waitText(30*time.Second, text)
	time.Sleep(300 * time.Millisecond) // the protocol's submit delay, not synchronisation
	tm.typeText("\r")
}

// waitFor waits until cond holds for the screen (rows of text) and the current title, or
// fails the test after timeout showing the last screen. It returns the time since start.
func (tm *term) waitFor(what string, timeout time.Duration, cond func(screen []string, title string) bool) time.Duration {
	tm.t.Helper()
	at, err := tm.await(timeout, cond)
	if err != nil {
		tm.t.Fatalf("%s: %v while waiting for %s\n%s", tm.name, err, what, tm.dump())
	}
	return at
}

// await is waitFor without failing: it returns an error when the program exits or the
// timeout passes first.
func (tm *term) await(timeout time.Duration, cond func(screen []string, title string) bool) (time.Duration, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		if cond(tm.vt.ScreenText(), tm.vt.Title()) {
			return time.Since(tm.start), nil
		}
		select {
		case <-tm.updated:
		case <-tm.exited:
			if cond(tm.vt.ScreenText(), tm.vt.Title()) {
				return time.Since(tm.start), nil
			}
			return 0, fmt.Errorf("exited (%v)", tm.waitErr)
		case <-deadline.C:
			return 0, fmt.Errorf("timed out after %v", timeout)
		}
	}
}

// waitText waits until the screen shows every one of texts.
func (tm *term) waitText(timeout time.Duration, texts ...string) time.Duration {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q on screen", texts), timeout, func(screen []string, _ string) bool {
		all := strings.Join(screen, "\n")
		for _, s := range texts {
			if !strings.Contains(all, s) {
				return false
			}
		}
		return true
	})
}

// titleSeen returns the first title change at or after since matching match.
func (tm *term) titleSeen(since time.Duration, match func(string) bool) (titleAt, bool) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	for _, ta := range tm.titles {
		if ta.At >= since && match(ta.Title) {
			return ta, true
		}
	}
	return titleAt{}, false
}

// lastTitle returns the last title change matching match.
func (tm *term) lastTitle(match func(string) bool) (titleAt, bool) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	for i := len(tm.titles) - 1; i >= 0; i-- {
		if match(tm.titles[i].Title) {
			return tm.titles[i], true
		}
	}
	return titleAt{}, false
}

// titleLog returns the distinct titles seen, in order, for reports.
func (tm *term) titleLog() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	var parts []string
	last := "\x00"
	for _, ta := range tm.titles {
		if ta.Title != last {
			parts = append(parts, fmt.Sprintf("%.1fs %q", ta.At.Seconds(), strings.TrimSpace(ta.Title)))
			last = ta.Title
		}
	}
	return strings.Join(parts, ", ")
}

// dump is the last screen with row numbers, the title and the titles seen.
func (tm *term) dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s screen at %.1fs (title %q) ---\n", tm.name, time.Since(tm.start).Seconds(), tm.vt.Title())
	for i, row := range tm.vt.ScreenText() {
		if row != "" {
			fmt.Fprintf(&b, "%02d|%s\n", i+1, row)
		}
	}
	fmt.Fprintf(&b, "--- titles: %s\n", tm.titleLog())
	return b.String()
}

// stop ends the program: SIGHUP to its process group as a closing terminal does, SIGKILL if
// it is still there after a grace period; then the PTY is closed and the reader waited for.
func (tm *term) stop() {
	if tm.t.Failed() || testing.Verbose() {
		tm.t.Log(tm.dump())
	}
	if dir := os.Getenv("AGENTS_RAW_DIR"); dir != "" {
		tm.mu.Lock()
		_ = os.WriteFile(dir+"/"+tm.name+".raw", tm.raw.Bytes(), 0o644)
		tm.mu.Unlock()
	}
	pgid := tm.cmd.Process.Pid // pty.Start makes the child a session and group leader
	_ = syscall.Kill(-pgid, syscall.SIGHUP)
	select {
	case <-tm.exited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-tm.exited
	}
	_ = tm.ptmx.Close() // unblocks the reader even if a daemon child still holds the PTY
	select {
	case <-tm.drained:
	case <-time.After(5 * time.Second):
		tm.t.Errorf("%s: PTY reader still running 5 s after the program ended", tm.name)
	}
}
