package e2e

// End-to-end tests: agentmux runs in a PTY at 120×40 with fake agents (package demo's
// simulated CLIs) in its panes; each test types keys as a person would and waits for the
// screen to show the result (see session.waitScreen). The contract under test is the README's:
// panes side by side with "N name" titles, keys to the focused pane only, prefix + number
// to move focus, exit codes in borders, quitting with no process left, responsiveness
// under a flood of output, errors before the screen is taken, and agentmux demo.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const prefix = "\x01" // ctrl+a, the default prefix

// agent is an AGENT argument running the fake agent as pane NAME, with echo answers and a
// short busy time; flags are added to (and may override) those.
func agent(name string, flags ...string) string {
	args := append([]string{fakeAgentBin, "--name", name, "--reply", "echo", "--busy", "200ms"}, flags...)
	return name + "=" + strings.Join(args, " ")
}

func TestTwoPanesSideBySide(t *testing.T) {
	s := start(t, agent("alice", "--style", "inline"), agent("bob", "--style", "alt"))
	// Each agent draws its banner before its input row: both are waited for.
	scr := s.waitScreen("both panes drawn with their agents and input rows", func(scr *screen) bool {
		return scr.paneHas(1, "alice · simulated agent") && scr.paneHas(2, ">_ bob (simulated agent)") &&
			scr.paneHas(1, "❯") && scr.paneHas(2, "› Ask bob to do anything")
	}, waitLong)
	p1, _ := scr.pane(1)
	p2, _ := scr.pane(2)
	if !strings.HasPrefix(p1.title, "╭ 1 alice") || !strings.HasPrefix(p2.title, "╭ 2 bob") {
		t.Errorf("titles %q and %q, want “1 alice” and “2 bob”", p1.title, p2.title)
	}
	if p1.top != p2.top || p1.right >= p2.left {
		t.Errorf("panes not side by side: 1 at row %d cols %d-%d, 2 at row %d cols %d-%d\n%s",
			p1.top, p1.left, p1.right, p2.top, p2.left, p2.right, scr.dump())
	}
	if w1, w2 := p1.right-p1.left, p2.right-p2.left; w1+w2 < cols-6 || abs(w1-w2) > 2 {
		t.Errorf("pane widths %d and %d do not share the %d columns evenly", w1, w2, cols)
	}
}

func TestTypingReachesOnlyTheFocusedPane(t *testing.T) {
	s := start(t, agent("alice", "--style", "inline"), agent("bob", "--style", "inline"))
	s.waitScreen("both agents ready", func(scr *screen) bool {
		return scr.paneHas(1, "alice · simulated agent") && scr.paneHas(2, "bob · simulated agent")
	}, waitLong)

	s.send("first words")
	scr := s.waitScreen("the draft in pane 1", func(scr *screen) bool { return scr.paneHas(1, "❯ first words") }, waitLong)
	if scr.paneHas(2, "first words") {
		t.Fatalf("typing reached pane 2 too:\n%s", scr.dump())
	}

	s.send(prefix + "2")
	s.send("second words")
	scr = s.waitScreen("the draft in pane 2", func(scr *screen) bool { return scr.paneHas(2, "❯ second words") }, waitLong)
	if scr.paneHas(1, "second words") || !scr.paneHas(1, "❯ first words") {
		t.Fatalf("after prefix 2, pane 1 changed:\n%s", scr.dump())
	}

	s.send("\r")
	s.waitScreen("bob's answer in pane 2", func(scr *screen) bool { return scr.paneHas(2, "● bob heard: second words") }, waitLong)

	s.send(prefix + "1")
	s.send("\r")
	scr = s.waitScreen("alice's answer in pane 1", func(scr *screen) bool { return scr.paneHas(1, "● alice heard: first words") }, waitLong)
	if scr.paneHas(2, "alice heard") {
		t.Fatalf("pane 1's answer shows in pane 2:\n%s", scr.dump())
	}
}

func TestPrefixNumberMovesFocusBothWays(t *testing.T) {
	s := start(t, agent("a", "--style", "plain"), agent("b", "--style", "plain"), agent("c", "--style", "plain"))
	s.waitScreen("three prompts", func(scr *screen) bool {
		return scr.paneHas(1, "a (simulated agent)") && scr.paneHas(2, "b (simulated agent)") && scr.paneHas(3, "c (simulated agent)")
	}, waitLong)
	for _, n := range []int{3, 1, 2} {
		word := fmt.Sprintf("to-pane-%d", n)
		s.send(prefix + strconv.Itoa(n))
		s.send(word + "\r")
		scr := s.waitScreen("the answer in pane "+strconv.Itoa(n), func(scr *screen) bool {
			return scr.paneHas(n, "heard: "+word)
		}, waitLong)
		for m := 1; m <= 3; m++ {
			if m != n && scr.paneHas(m, word) {
				t.Fatalf("%q reached pane %d as well as %d:\n%s", word, m, n, scr.dump())
			}
		}
	}
}

func TestExitedProgramShowsItsCode(t *testing.T) {
	s := start(t, agent("quitter", "--style", "inline", "--exit-after", "1", "--exit-code", "3"), agent("stayer"))
	s.waitScreen("the agents ready", func(scr *screen) bool { return scr.paneHas(1, "quitter · simulated agent") }, waitLong)
	s.send("last words\r")
	scr := s.waitScreen("exit code 3 in pane 1's border", func(scr *screen) bool { return scr.titleHas(1, "exited (3)") }, waitLong)
	if !scr.paneHas(1, "quitter heard: last words") {
		t.Errorf("the exited pane should keep its last screen:\n%s", scr.dump())
	}
	if scr.titleHas(2, "exited") {
		t.Errorf("pane 2 should still run:\n%s", scr.dump())
	}
	s.waitScreen("the hint names both keys", func(scr *screen) bool {
		return scr.statusHas("^A R restarts it, ^A x closes it")
	}, waitLong)
	select {
	case <-s.exited:
		t.Fatal("agentmux exited when one of its programs did")
	default:
	}
}

func TestQuitLeavesNoProcessBehind(t *testing.T) {
	dir := t.TempDir()
	pidA, pidB := filepath.Join(dir, "a.pid"), filepath.Join(dir, "b.pid")
	s := start(t, agent("a", "--style", "inline", "--pidfile", pidA), agent("b", "--style", "alt", "--pidfile", pidB))
	s.waitScreen("both agents ready", func(scr *screen) bool {
		return scr.paneHas(1, "a · simulated agent") && scr.paneHas(2, ">_ b (simulated agent)")
	}, waitLong)
	pids := []int{readPid(t, pidA), readPid(t, pidB)}
	for _, pid := range pids {
		if !alive(pid) {
			t.Fatalf("agent %d is not running before the quit", pid)
		}
	}
	s.send(prefix + "q")
	s.waitText(waitLong, "and every agent? y: end, d: detach, n: cancel")
	s.send("y")
	if code := s.waitExit(waitLong); code != 0 {
		t.Errorf("agentmux exited with %d after quit, want 0", code)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("agent %d still runs after agentmux quit (%s)", pid, procState(pid))
		}
	}
}

// TestFloodKeepsOtherPaneResponsive floods two panes while keys are typed into a third.
// Pane 1 runs yes | head -c 50000000 (rows of "y": its progress cannot be seen, only
// that it still runs); pane 2 is a fake agent printing 50 MB of numbered lines, whose
// numbers must keep growing from round to round, so agentmux is seen to keep reading the
// floods while it echoes the keys typed into pane 3, each within the deadline.
func TestFloodKeepsOtherPaneResponsive(t *testing.T) {
	const deadline = 3 * time.Second // far above one frame: what "responsive" must beat under -race
	s := start(t, "yes=sh -c 'yes | head -c 50000000'", agent("f", "--flood", "50000000", "--style", "plain"),
		agent("c", "--style", "plain"))
	s.waitScreen("both floods running and c ready", func(scr *screen) bool {
		return scr.paneHas(1, "y") && floodLine(scr, 2) > 0 && scr.paneHas(3, "c (simulated agent)")
	}, waitLong)
	s.send(prefix + "3")
	last := 0
	for i := range 5 {
		word := fmt.Sprintf("ping%d", i)
		sent := time.Now()
		s.send(word)
		scr := s.waitScreen("the echo of "+word, func(scr *screen) bool { return scr.paneHas(3, "> "+word) }, deadline)
		t.Logf("%s echoed after %v; pane 2 flood at line %d", word, time.Since(sent).Round(time.Millisecond), floodLine(scr, 2))
		if scr.titleHas(1, "exited") || scr.titleHas(2, "exited") {
			t.Fatalf("a flood ended before round %d: the test proves nothing unless the floods outlast it", i)
		}
		scr = s.waitScreen(fmt.Sprintf("pane 2's flood to pass line %d", last), func(scr *screen) bool {
			return floodLine(scr, 2) > last
		}, deadline)
		last = floodLine(scr, 2)
		s.send("\x15") // ctrl+u clears the draft for the next round
		s.waitScreen("the draft cleared", func(scr *screen) bool { return !scr.paneHas(3, "> "+word) }, deadline)
	}
}

var floodNumber = regexp.MustCompile(`flood (\d{8})`)

// floodLine is the highest line number of the fake agent's flood shown in pane n.
func floodLine(scr *screen, n int) int {
	p, ok := scr.pane(n)
	if !ok {
		return 0
	}
	best := 0
	for _, m := range floodNumber.FindAllStringSubmatch(strings.Join(p.lines, ""), -1) {
		if v, _ := strconv.Atoi(m[1]); v > best {
			best = v
		}
	}
	return best
}

func TestProgramNotFoundFailsBeforeTakingTheScreen(t *testing.T) {
	s := startWith(t, options{record: true}, "nosuchprogram-e2e")
	started := time.Now()
	if code := s.waitExit(waitLong); code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	t.Logf("failed after %v", time.Since(started).Round(time.Millisecond))
	<-s.eof
	if out := s.output(); strings.Contains(out, "\x1b[?1049h") || strings.Contains(out, "\x1b[?1000h") {
		t.Errorf("agentmux took the screen before failing: %q", out)
	}
	var lines []string
	for _, l := range strings.Split(s.screen().text(), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "nosuchprogram-e2e") {
		t.Errorf("want one line naming the program, got:\n%s", s.screen().dump())
	}
}

func TestDemoStartsTwoPanes(t *testing.T) {
	s := start(t, "demo")
	scr := s.waitScreen("the two demo agents", func(scr *screen) bool {
		return scr.paneHas(1, "alice · simulated agent") && scr.paneHas(2, ">_ bob (simulated agent)")
	}, waitLong)
	if !scr.titleHas(1, "1 alice") || !scr.titleHas(2, "2 bob") {
		t.Errorf("demo pane titles wrong:\n%s", scr.dump())
	}
	s.send("hello bob\r")
	s.waitScreen("alice answering", func(scr *screen) bool {
		return scr.paneHas(1, "❯ hello bob") && scr.paneHas(1, "● ")
	}, waitLong)
	s.send(prefix + "q")
	s.waitText(waitLong, "quit agentmux? (y/n)")
	s.send("y")
	if code := s.waitExit(waitLong); code != 0 {
		t.Errorf("demo exited with %d, want 0", code)
	}
	<-s.eof
	// The demo is a session served from its terminal's process: it ends as an attached
	// terminal's session does, the screen given back and the end said on it.
	if sc := s.screen(); sc.snap.AltScreen || sc.snap.Modes.Mouse != 0 || !sc.has(" ended (prefix q)") {
		t.Errorf("the screen was not restored, or the end not said (alternate screen %v, mouse %v):\n%s",
			sc.snap.AltScreen, sc.snap.Modes.Mouse, sc.dump())
	}
}

// readPid reads a pid file the fake agent wrote at start.
func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %s: %v", path, err)
	}
	return pid
}

// alive reports whether pid is a running process. A zombie (ended, but not yet reaped by
// the process that inherited it) does not count as running.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	return !strings.Contains(procState(pid), "Z")
}

// procState is the State line of /proc/PID/status, or why it could not be read.
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return err.Error()
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "State:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "State:"))
		}
	}
	return "no State line"
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestKittyShiftEnterReachesAgent runs under an outer terminal that speaks the kitty
// keyboard protocol: Shift+Enter (CSI 13;2u) must reach both agents as a newline in their
// draft, distinct from Enter, which submits: the Codex-like one, which pushed kitty flags
// at start, and the Claude-like one, which pushes them once its query is answered.
func TestKittyShiftEnterReachesAgent(t *testing.T) {
	s := startWith(t, options{kitty: true}, agent("alice", "--style", "inline"), agent("bob", "--style", "alt"))
	// Alice pushes its kitty keyboard flags once the terminal answered its query, and
	// says so in its footer: shift+enter typed before then is an Enter to it.
	s.waitScreen("both ready", func(scr *screen) bool {
		return scr.paneHas(1, "shift+enter for newline") && scr.paneHas(2, "› Ask bob to do anything")
	}, waitLong)
	for _, c := range []struct {
		pane          int
		draft, answer string
	}{
		{1, "❯ one\n  two", "● alice heard: one two"},
		{2, "› one\n  two", "• bob heard: one two"},
	} {
		s.send(prefix + strconv.Itoa(c.pane))
		s.send("one\x1b[13;2utwo")
		s.waitScreen(fmt.Sprintf("a two-line draft in pane %d", c.pane), func(scr *screen) bool {
			p, ok := scr.pane(c.pane)
			return ok && p.has(c.draft)
		}, waitLong)
		s.send("\r")
		s.waitScreen("the answer to both lines", func(scr *screen) bool { return scr.paneHas(c.pane, c.answer) }, waitLong)
	}
}

// TestPasteReachesAgentAsOnePaste pastes two lines into agentmux (the outer terminal's
// bracketed paste): the inline agent, which enabled bracketed paste, must get them as one
// paste, into its draft, not submitted line by line.
func TestPasteReachesAgentAsOnePaste(t *testing.T) {
	s := start(t, agent("alice", "--style", "inline"))
	s.waitScreen("alice ready", func(scr *screen) bool { return scr.paneHas(1, "alice · simulated agent") }, waitLong)
	s.send("\x1b[200~first line\r\nsecond line\x1b[201~")
	scr := s.waitScreen("a two-line draft", func(scr *screen) bool {
		p, ok := scr.pane(1)
		return ok && p.has("❯ first line\n  second line")
	}, waitLong)
	if scr.paneHas(1, "heard") {
		t.Fatalf("the paste was submitted:\n%s", scr.dump())
	}
	s.send("\r")
	s.waitScreen("one answer to both lines", func(scr *screen) bool {
		return scr.paneHas(1, "● alice heard: first line second line")
	}, waitLong)
}

// TestResizeRelaysOutPanes shrinks the outer terminal: both panes must be laid out again
// inside it and the inline agent, told its new size, must redraw its box at its new width.
func TestResizeRelaysOutPanes(t *testing.T) {
	s := start(t, agent("alice", "--style", "inline"), agent("bob", "--style", "alt"))
	s.waitScreen("both agents ready", func(scr *screen) bool {
		return scr.paneHas(1, "alice · simulated agent") && scr.paneHas(2, "› Ask bob")
	}, waitLong)
	const newCols, newRows = 90, 30
	s.resize(newCols, newRows)
	s.waitScreen("both panes inside 90×30 with alice's box at its new width", func(scr *screen) bool {
		p1, ok1 := scr.pane(1)
		p2, ok2 := scr.pane(2)
		if !ok1 || !ok2 || p2.right != newCols-1 || p1.bottom >= newRows || !p2.has("› Ask bob") {
			return false
		}
		inner := p1.right - p1.left - 1
		return strings.Contains(p1.text(), "\n"+strings.Repeat("─", inner)+"\n❯")
	}, waitLong)
}
