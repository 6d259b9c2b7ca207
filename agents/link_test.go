//go:build agents

package agents

// The linked conversation, end to end, to the README's contract, for each pair of CLIs A⇄B
// (claude⇄codex, claude⇄gemini, codex⇄gemini): `agentmux --link --turns 2 A B` with each CLI
// talking to its own mock server (answers "A-n to: ..." and "B-n to: ..."), an opening
// message typed into pane 1, then no more input. The mock servers' request logs show exactly
// what each agent was sent, so the test checks:
//
//  1. A gets the opening message;
//  2. B gets `a (1):` + A's answer words, nothing else (no chrome, no echo), and pane 2
//     shows `a (1):`;
//  3. A gets `b (2):` + B's answer words;
//  4. the budget of 2 deliveries is then spent: A's second answer is never delivered, so B
//     gets no second turn.
//
// Step 4 is a negative check and so needs a time window: after A's second answer is on
// screen, the test allows the relay far longer than an idle period plus a delivery would
// take (linkQuiet) to show it stops.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
	"github.com/agentmux/agentmux/vterm"
)

// linkQuiet is how long the test waits for a delivery that must not come.
const linkQuiet = 20 * time.Second

// buildAgentmux builds the agentmux binary into a temporary folder.
func buildAgentmux(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agentmux")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/agentmux/agentmux/cmd/agentmux")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/agentmux: %v\n%s", err, out)
	}
	return bin
}

// sameWords reports whether a and b hold the same words (whitespace and line breaks differ
// between a paste and what a CLI sends on).
func sameWords(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// waitTurn waits for the n-th conversation turn on srv.
func waitTurn(t *testing.T, tm *term, srv *mockmodel.Server, who string, n int, timeout time.Duration) mockmodel.Request {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	r, err := srv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn && r.N == n })
	if err != nil {
		t.Fatalf("%s never got turn %d: %v\n%s", who, n, err, tm.dump())
	}
	return r
}

// textAt returns the columns at which s starts on each row of the snapshot.
func textAt(snap *vterm.Snapshot, s string) []int {
	var cols []int
	for _, line := range snap.Lines {
		var b strings.Builder
		var colOf []int // byte offset in b -> column
		for x, c := range line.Cells {
			str := c.String()
			for range len(str) {
				colOf = append(colOf, x)
			}
			b.WriteString(str)
		}
		row := b.String()
		for off := 0; ; {
			i := strings.Index(row[off:], s)
			if i < 0 {
				break
			}
			cols = append(cols, colOf[off+i])
			off += i + len(s)
		}
	}
	return cols
}

// inHalf reports whether s is on screen in the right half (right) or the left half of the
// screen: panes 2 and 1 of a two-pane columns layout.
func inHalf(snap *vterm.Snapshot, s string, right bool) bool {
	for _, col := range textAt(snap, s) {
		if (col >= snap.Cols/2-1) == right {
			return true
		}
	}
	return false
}

// panesReady reports whether a's CLI shows itself ready (its paneReady texts) in the
// left half of snap and b's in the right half.
func panesReady(snap *vterm.Snapshot, a, b cli) bool {
	for _, s := range a.paneReady {
		if !inHalf(snap, s, false) {
			return false
		}
	}
	for _, s := range b.paneReady {
		if !inHalf(snap, s, true) {
			return false
		}
	}
	return true
}

func TestLinkedConversation(t *testing.T) {
	bin := buildAgentmux(t)
	for _, pair := range [][2]string{{"claude", "codex"}, {"claude", "gemini"}, {"codex", "gemini"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			linkedConversation(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]))
		})
	}
}

// linkedConversation runs `agentmux --link --turns 2 A B` and checks the conversation.
func linkedConversation(t *testing.T, bin string, a, b cli) {
	aLabel, bLabel := strings.ToUpper(a.name), strings.ToUpper(b.name)
	p := startPair(t, bin, a, b, mockmodel.Numbered(aLabel, 6), mockmodel.Numbered(bLabel, 6), "--link", "--turns", "2")
	tm, aSrv, bSrv := p.tm, p.aSrv, p.bSrv

	const opening = "hello from the linked test, please reply"
	tm.submit(opening)

	a1 := waitTurn(t, tm, aSrv, a.name, 1, 60*time.Second)
	if a1.Prompt != opening {
		t.Errorf("%s's first message = %q, want the opening %q", a.name, a1.Prompt, opening)
	}
	header1, header2 := a.name+" (1):", b.name+" (2):"
	b1 := waitTurn(t, tm, bSrv, b.name+" (relay wired to --link?)", 1, 120*time.Second)
	if want := header1 + "\n\n" + a1.Reply; !sameWords(b1.Prompt, want) {
		t.Errorf("delivery 1 (%s → %s) = %q\nwant the words of %q", a.name, b.name, b1.Prompt, want)
	}
	tm.waitText(30*time.Second, header1)
	if snap := tm.vt.Snapshot(); !inHalf(snap, header1, true) {
		t.Errorf("%q shown at columns %v, want it in pane 2 (the right half)\n%s",
			header1, textAt(snap, header1), tm.dump())
	}

	a2 := waitTurn(t, tm, aSrv, a.name, 2, 120*time.Second)
	if want := header2 + "\n\n" + b1.Reply; !sameWords(a2.Prompt, want) {
		t.Errorf("delivery 2 (%s → %s) = %q\nwant the words of %q", b.name, a.name, a2.Prompt, want)
	}
	tm.waitText(60*time.Second, mockmodel.FirstWords(a2.Reply, 4)) // a's answer to delivery 2 is on screen

	ctx, cancel := context.WithTimeout(context.Background(), linkQuiet)
	defer cancel()
	if r, err := bSrv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn && r.N == 2 }); err == nil {
		t.Errorf("a third delivery reached %s after the budget of 2 was spent: %q\n%s", b.name, r.Prompt, tm.dump())
	}
	if n := len(aSrv.Turns()); n != 2 {
		t.Errorf("%s got %d turns, want 2 (the opening and delivery 2)", a.name, n)
	}
	t.Logf("conversation: opening → %s %q → %s %q → %s %q; then the budget stopped it",
		a.name, a1.Reply, b.name, b1.Reply, a.name, a2.Reply)
}

// pair is a two-pane agentmux run: CLI a in pane 1 (the left half), b in pane 2 (the
// right), each against a mock server of its own.
type pair struct {
	tm         *term
	aSrv, bSrv *mockmodel.Server
	state      string // agentmux's XDG_STATE_HOME (its log: state/agentmux/agentmux.log)
	env        []string
	dir        string // the project folder agentmux runs in
}

// startPair runs `agentmux --log-level debug FLAGS A B`, a's model answering aReply and
// b's bReply, and waits until both CLIs are ready, each in its half (Codex's footer also
// says "? for shortcuts", so the halves matter), pane 1 focused. When the test fails,
// agentmux's log is in its output.
func startPair(t *testing.T, bin string, a, b cli, aReply, bReply mockmodel.ReplyFunc, flags ...string) pair {
	t.Helper()
	return startPairSized(t, bin, a, b, 220, 50, aReply, bReply, flags...)
}

// startPairSized is startPair in a cols×rows terminal: each pane is cols/2-2 columns wide
// inside its border.
func startPairSized(t *testing.T, bin string, a, b cli, cols, rows int, aReply, bReply mockmodel.ReplyFunc, flags ...string) pair {
	t.Helper()
	aSrv := mockmodel.New(mockmodel.Options{Reply: aReply, Duration: answerTime})
	bSrv := mockmodel.New(mockmodel.Options{Reply: bReply, Duration: answerTime})
	return startPairOn(t, bin, a, b, cols, rows, aSrv, bSrv, nil, flags...)
}

// startPairOn is startPairSized with mock servers the test configured itself; before,
// when set, runs once the CLIs' setup wrote their config into home and before agentmux
// starts.
func startPairOn(t *testing.T, bin string, a, b cli, cols, rows int, aSrv, bSrv *mockmodel.Server, before func(home string), flags ...string) pair {
	t.Helper()
	aURL, bURL := serveMock(t, a.name, aSrv), serveMock(t, b.name, bSrv)
	home, project := freshHome(t)
	if a.name == "codex" || b.name == "codex" {
		home, project = codexHome(t)
	}
	cleanUpAgents(t, home, project)
	env := baseEnv(t, home)
	env = append(env, a.setup(t, home, project, aURL)...)
	env = append(env, b.setup(t, home, project, bURL)...)
	state := t.TempDir() // not in home: Codex's is reused across runs
	env = append(env, "XDG_STATE_HOME="+state, "XDG_RUNTIME_DIR="+t.TempDir())
	if before != nil {
		before(home)
	}
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
			t.Logf("agentmux.log:\n%s", log)
		}
	})
	args := append(append([]string{bin, "--log-level", "debug"}, flags...), a.command(), b.command())
	tm := startTerm(t, "agentmux", args, project, env, cols, rows)
	// Two CLIs starting at once on a loaded machine: opencode alone has taken 2.3 min to
	// draw its first screen under a load of 28 (with agentmux's plugin or without).
	tm.waitFor(a.name+" ready in pane 1 and "+b.name+" in pane 2", 6*time.Minute, func([]string, string) bool {
		return panesReady(tm.vt.Snapshot(), a, b)
	})
	tm.typeText("\x01" + "1") // prefix 1: focus pane 1 (it should be already)
	return pair{tm: tm, aSrv: aSrv, bSrv: bSrv, state: state, env: env, dir: project}
}
