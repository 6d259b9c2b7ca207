package e2e

// Robustness end to end: what a real terminal and real programs do to agentmux that a
// person never does on purpose. A storm of outer-terminal resizes (1×1 included) must
// leave the layout and every pane's program at the final size; a program killed in the
// middle of a flood must leave agentmux working; the outer terminal going away (its PTY
// master closed) must end agentmux and every child, without hanging. Pane programs are
// small sh scripts written to a temporary folder, which print their window size on
// SIGWINCH or their pid at start, so the test can wait on the screen for what they saw.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/oswait"
)

// script writes an sh script to a temporary file and returns an AGENT argument running
// it as pane name with args.
func script(t *testing.T, name, body string, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".sh")
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return name + "=sh " + strings.Join(append([]string{path}, args...), " ")
}

// sizeScript clears its screen and prints "size ROWS COLS" at start and on every
// SIGWINCH (sleeping in the background, so the trap runs as soon as the signal comes).
const sizeScript = `show() { printf '\033[2J\033[Hsize %s end\n' "$(stty size)"; }
trap show WINCH
show
while :; do sleep 5 & wait $!; done
`

// TestResizeStorm resizes the outer terminal 200 times within a second, to random sizes
// with 1×1 among them, then to a final size: agentmux must still run, lay out both panes
// and the status line at the final size, and both programs must have been told their
// final size (the script prints it; the inline agent draws its box at its width).
func TestResizeStorm(t *testing.T) {
	s := start(t, script(t, "sizer", sizeScript), agent("alice", "--style", "inline"))
	s.waitScreen("both panes ready", func(scr *screen) bool {
		return scr.paneHas(1, "size ") && scr.paneHas(2, "alice · simulated agent")
	}, waitLong)

	rng := rand.New(rand.NewPCG(1, 2))
	started := time.Now()
	// Paced over a second (a drag of a window's corner), so agentmux lays out many of the
	// sizes between its reads rather than seeing only the last of a coalesced burst.
	pace := time.NewTicker(5 * time.Millisecond)
	defer pace.Stop()
	for i := range 200 {
		<-pace.C
		c, r := 1+rng.IntN(160), 1+rng.IntN(50)
		if i%40 == 0 {
			c, r = 1, 1
		}
		s.setWinsize(c, r) // the test's emulator takes the final size only: agentmux is under test
	}
	const finalCols, finalRows = 101, 31
	s.resize(finalCols, finalRows)
	t.Logf("201 resizes in %v", time.Since(started).Round(time.Millisecond))

	scr := s.waitScreen("both panes laid out at 101×31, each program at its pane's size", func(scr *screen) bool {
		p1, ok1 := scr.pane(1)
		p2, ok2 := scr.pane(2)
		if !ok1 || !ok2 || p1.left != 0 || p2.right != finalCols-1 || p1.bottom != finalRows-2 || p2.bottom != finalRows-2 {
			return false
		}
		w1, h1 := p1.right-p1.left-1, p1.bottom-p1.top-1
		if !p1.has(fmt.Sprintf("size %d %d end", h1, w1)) {
			return false
		}
		inner := p2.right - p2.left - 1
		return strings.Contains(p2.text(), "\n"+strings.Repeat("─", inner)+"\n❯")
	}, waitLong)
	if !strings.HasPrefix(scr.row(finalRows-1), " ^A ") {
		t.Errorf("status line missing at the last row:\n%s", scr.dump())
	}
	if !scr.titleHas(1, "1 sizer") || !scr.titleHas(2, "2 alice") {
		t.Errorf("titles wrong after the storm:\n%s", scr.dump())
	}
	// Still working: keys reach the agent.
	s.send(prefix + "2")
	s.send("after the storm\r")
	s.waitScreen("alice's answer", func(scr *screen) bool { return scr.paneHas(2, "alice heard: after the storm") }, waitLong)
}

// TestChildKilledMidFlood kills a pane's program with SIGKILL while it floods: its border
// must say it was killed (SIGKILL), and agentmux must go on echoing keys in the other pane.
func TestChildKilledMidFlood(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "flood.pid")
	s := start(t, script(t, "flood", `echo $$ > "$1"; exec yes flooding`, pidFile), agent("c", "--style", "plain"))
	s.waitScreen("the flood running and c ready", func(scr *screen) bool {
		return scr.paneHas(1, "flooding") && scr.paneHas(2, "c (simulated agent)")
	}, waitLong)
	pid := readPid(t, pidFile)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill the flood: %v", err)
	}
	s.waitScreen("pane 1 killed", func(scr *screen) bool { return scr.titleHas(1, "killed (SIGKILL)") }, waitLong)
	s.send(prefix + "2")
	s.send("still here\r")
	s.waitScreen("c's answer", func(scr *screen) bool { return scr.paneHas(2, "c heard: still here") }, waitLong)
	select {
	case <-s.exited:
		t.Fatal("agentmux exited when a pane's program was killed")
	default:
	}
}

// TestOuterTerminalGoneDetaches closes the outer PTY's master, as when the terminal
// window is closed: the client exits promptly, the session and its agents go on (it was
// a detach), and kill-session then ends every child, including one that ignores SIGHUP.
func TestOuterTerminalGoneDetaches(t *testing.T) {
	dir := t.TempDir()
	pidA, pidB, pidC := filepath.Join(dir, "a.pid"), filepath.Join(dir, "b.pid"), filepath.Join(dir, "c.pid")
	stubborn := `trap '' HUP; echo $$ > "$1"; echo stubborn; while :; do sleep 1; done`
	s := start(t, "--session", "gone", agent("a", "--style", "inline", "--pidfile", pidA), agent("b", "--style", "alt", "--pidfile", pidB),
		script(t, "stubborn", stubborn, pidC))
	s.waitScreen("all three ready", func(scr *screen) bool {
		return scr.paneHas(1, "a · simulated agent") && scr.paneHas(2, ">_ b (simulated agent)") && scr.paneHas(3, "stubborn")
	}, waitLong)
	pids := []int{readPid(t, pidA), readPid(t, pidB), readPid(t, pidC)}
	closed := time.Now()
	if err := s.term.Close(); err != nil {
		t.Fatal(err)
	}
	s.waitExit(8 * time.Second)
	t.Logf("the client exited %v after its terminal went away", time.Since(closed).Round(time.Millisecond))
	for _, pid := range pids {
		if !alive(pid) {
			t.Errorf("child %d ended with the terminal: closing it is a detach", pid)
		}
	}
	cmd := exec.Command(agentmuxBin, "kill-session", "gone")
	cmd.Env = s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kill-session: %v: %s", err, out)
	}
	// The bound is the kill grace for the child that ignores SIGHUP (2 s), with room for
	// the race detector: a hang would take waitLong.
	deadline := time.Now().Add(8 * time.Second)
	for _, pid := range pids {
		if !oswait.Exited(pid, time.Until(deadline)) {
			t.Errorf("child %d still runs after kill-session (%s)", pid, procState(pid))
		}
	}
}
