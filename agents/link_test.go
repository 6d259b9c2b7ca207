//go:build agents

package agents

// The linked conversation, end to end, to the UX.md contract: `agentmux --link --turns 2
// claude codex` with each CLI talking to its own mock server (answers "CLAUDE-n to: ..." and
// "CODEX-n to: ..."), an opening message typed into pane 1, then no more input. The mock
// servers' request logs show exactly what each agent was sent, so the test checks:
//
//  1. Claude gets the opening message;
//  2. Codex gets `claude (1):` + Claude's answer words, nothing else (no chrome, no echo), and
//     pane 2 shows `claude (1):`;
//  3. Claude gets `codex (2):` + Codex's answer words;
//  4. the budget of 2 deliveries is then spent: Claude's second answer is never delivered, so
//     Codex gets no second turn.
//
// Step 4 is a negative check and so needs a time window: after Claude's second answer is on
// screen, the test allows the relay far longer than an idle period plus a delivery would
// take (linkQuiet) to show it stops.

import (
	"context"
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

func TestLinkedConversation(t *testing.T) {
	bin := buildAgentmux(t)
	claudeSrv, claudeURL := startMock(t, "claude", mockmodel.Numbered("CLAUDE", 6), answerTime)
	codexSrv, codexURL := startMock(t, "codex", mockmodel.Numbered("CODEX", 6), answerTime)
	home, project := codexHome(t)
	cleanUpAgents(t, home, project)
	env := baseEnv(t, home)
	env = append(env, setupClaude(t, home, project, claudeURL, "default")...)
	env = append(env, setupCodex(t, home, project, codexURL)...)

	const cols, rows = 220, 50
	tm := startTerm(t, "agentmux", []string{bin, "--link", "--turns", "2", "claude", "codex"}, project, env, cols, rows)
	// Ready: Claude's footer in pane 1 (left half), Codex's composer in pane 2 (right half).
	// Codex's footer also says "? for shortcuts", so the halves matter.
	tm.waitFor("claude ready in pane 1 and codex in pane 2", 120*time.Second, func([]string, string) bool {
		snap := tm.vt.Snapshot()
		return inHalf(snap, "? for shortcuts", false) && inHalf(snap, "❯", false) &&
			inHalf(snap, "Ask Codex to do anything", true)
	})
	tm.typeText("\x01" + "1") // prefix 1: focus pane 1 (it should be already)

	const opening = "hello from the linked test, please reply"
	tm.submit(opening)

	c1 := waitTurn(t, tm, claudeSrv, "claude", 1, 60*time.Second)
	if c1.Prompt != opening {
		t.Errorf("claude's first message = %q, want the opening %q", c1.Prompt, opening)
	}

	x1 := waitTurn(t, tm, codexSrv, "codex (is the relay wired to --link?)", 1, 120*time.Second)
	if want := "claude (1):\n\n" + c1.Reply; !sameWords(x1.Prompt, want) {
		t.Errorf("delivery 1 (claude → codex) = %q\nwant the words of %q", x1.Prompt, want)
	}
	tm.waitText(30*time.Second, "claude (1):")
	if snap := tm.vt.Snapshot(); !inHalf(snap, "claude (1):", true) {
		t.Errorf("`claude (1):` shown at columns %v, want it in pane 2 (the right half)\n%s",
			textAt(snap, "claude (1):"), tm.dump())
	}

	c2 := waitTurn(t, tm, claudeSrv, "claude", 2, 120*time.Second)
	if want := "codex (2):\n\n" + x1.Reply; !sameWords(c2.Prompt, want) {
		t.Errorf("delivery 2 (codex → claude) = %q\nwant the words of %q", c2.Prompt, want)
	}
	tm.waitText(60*time.Second, mockmodel.FirstWords(c2.Reply, 4)) // claude's answer to delivery 2 is on screen

	ctx, cancel := context.WithTimeout(context.Background(), linkQuiet)
	defer cancel()
	if r, err := codexSrv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn && r.N == 2 }); err == nil {
		t.Errorf("a third delivery reached codex after the budget of 2 was spent: %q\n%s", r.Prompt, tm.dump())
	}
	if n := len(claudeSrv.Turns()); n != 2 {
		t.Errorf("claude got %d turns, want 2 (the opening and delivery 2)", n)
	}
	t.Logf("conversation: opening → claude %q → codex %q → claude %q; then the budget stopped it",
		c1.Reply, x1.Reply, c2.Reply)
}
