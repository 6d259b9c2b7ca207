//go:build agents

package agents

// The harness: a program in a PTY whose output internal/ptytest reads through our emulator
// (vterm), with the emulator's query replies written back to the PTY, so the CLIs see a
// capable terminal. Tests wait on the screen or the title with a deadline: every read wakes
// the waiter (no polling), and a timeout fails with the last screen and the titles seen, so
// a failure shows what the program was doing. The title log and the raw-output dump are the
// agents tests' own.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/ptytest"
	"github.com/agentmux/agentmux/vterm"
)

// term is one program running in a PTY, drawn by a vterm.Terminal.
type term struct {
	t     *testing.T
	name  string
	pt    *ptytest.Term
	vt    *vterm.Terminal
	start time.Time

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
	tm := &term{t: t, name: name, start: time.Now()}
	pt, err := ptytest.Start(argv, ptytest.Options{
		Cols: cols, Rows: rows, CellWidth: 8, CellHeight: 16,
		Dir: dir, Env: env,
		EndOnExit: true, // a CLI's daemon child may keep the PTY open after it exits
		VT: vterm.Options{
			Version: "agents-test",
			OnEvent: func(e vterm.Event) {
				if e.Kind == vterm.EventTitle {
					tm.mu.Lock()
					tm.titles = append(tm.titles, titleAt{time.Since(tm.start), e.Text})
					tm.mu.Unlock()
				}
			},
		},
		OnOutput: func(p []byte) {
			tm.mu.Lock()
			tm.raw.Write(p)
			tm.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatalf("start %s (%q): %v", name, argv, err)
	}
	tm.pt, tm.vt = pt, pt.VT()
	t.Cleanup(tm.stop)
	return tm
}

// typeText sends s to the program as typed input.
func (tm *term) typeText(s string) {
	if err := tm.pt.Send([]byte(s)); err != nil {
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
// waitPaneReady waits until agentmux's screen shows c ready in its pane (every row of
// c.paneReady), as the tests running one CLI alone do.
func (tm *term) waitPaneReady(c cli) {
	tm.t.Helper()
	tm.waitPaneReadyWithin(c, 120*time.Second)
}

// waitPaneReadyWithin is waitPaneReady with its own timeout (opencode has taken 2.3 min
// to draw its first screen on a loaded machine).
func (tm *term) waitPaneReadyWithin(c cli, timeout time.Duration) {
	tm.t.Helper()
	tm.waitFor(c.name+" ready in its pane", timeout, func(s []string, _ string) bool {
		for _, r := range c.paneReady {
			if !contains(s, r) {
				return false
			}
		}
		return true
	})
}

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
	ctx, cancel := context.WithTimeoutCause(context.Background(), timeout, fmt.Errorf("timed out after %v", timeout))
	defer cancel()
	_, err := tm.pt.Await(ctx, func(*vterm.Snapshot) bool { return cond(tm.vt.ScreenText(), tm.vt.Title()) })
	if errors.Is(err, ptytest.ErrEnded) {
		return 0, fmt.Errorf("exited (%v)", tm.pt.ExitErr())
	}
	if err != nil {
		return 0, err
	}
	return time.Since(tm.start), nil
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
	tm.pt.Stop(syscall.SIGHUP, 5*time.Second) // as a closing terminal does
	_ = tm.pt.Close()                         // ends the reader even if a daemon child still holds the PTY
	if !tm.pt.Drain(5 * time.Second) {
		tm.t.Errorf("%s: PTY reader still running 5 s after the program ended", tm.name)
	}
}
