//go:build agents

package agents

// Approval prompts of the real CLIs: the mock model answers a prompt holding the trigger
// word with a call of the CLI's shell tool (internal/mockmodel Tool), each CLI run with its
// permissions at their default (Codex with approval_policy on-request, the call asking to
// leave its sandbox; Claude Code in its "default" mode, which 2.1.332 no longer starts
// in), so it stops and asks the person. The test waits for the parser's built-in profile to say NeedsApproval
// on the screen and title, then on the rows alone (failing, with the screen, when it never
// does), records that
// screen for parser/testdata (AGENTS_UPDATE_SCREENS=1), approves with Enter (the first,
// highlighted choice: run it once), and checks that the CLI leaves the approval state,
// runs the command (its file appears), sends the result back and ends idle with the mock's
// closing answer on screen. Timings are logged.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
	"github.com/agentmux/agentmux/parser"
)

// probeFile is what the tool call creates in the project folder: a command no CLI runs
// without asking (touch writes; echo and ls are read-only and may be allowed).
const probeFile = "agentmux-approval-probe"

// readingTime is how long after an approval prompt appears the test, as a person would,
// answers it.
const readingTime = 500 * time.Millisecond

// approvalTool is the tool call the mock makes when a prompt holds "run-tool".
var approvalTool = &mockmodel.Tool{Trigger: "run-tool", Command: "touch " + probeFile}

func TestApproval(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini"} {
		t.Run(name, func(t *testing.T) { approval(t, cliNamed(t, name)) })
	}
}

func approval(t *testing.T, c cli) {
	srv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Fixed("TOOL-DONE the command ran"), Duration: time.Second, Tool: approvalTool})
	url := serveMock(t, c.name, srv)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	_ = os.Remove(filepath.Join(project, probeFile))
	env := baseEnv(t, home)
	switch c.name {
	case "codex":
		env = append(env, setupCodexWith(t, home, project, url, "approval_policy = \"on-request\"\n")...)
	case "claude":
		env = append(env, setupClaudeAsking(t, home, project, url)...)
	default:
		env = append(env, c.setup(t, home, project, url)...)
	}
	prof := parser.ProfileFor(c.program())
	tm := startTerm(t, c.name, c.argv(binDir(t, c.program())), project, env, 120, 40)
	tm.waitFor("the CLI to be ready for input", 90*time.Second, c.ready)
	const prompt = "please run-tool now"
	tm.submit(prompt)
	typed := time.Since(tm.start)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := srv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn }); err != nil {
		tm.typeText("\r") // Gemini CLI may have taken the first Enter as a newline
		ctx2, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel2()
		if _, err := srv.WaitFor(ctx2, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn }); err != nil {
			t.Fatalf("the model never got the turn: %v\n%s", err, tm.dump())
		}
	}
	call := srv.Turns()[0]
	asked := tm.waitFor("the parser to see an approval prompt", 60*time.Second, func(s []string, title string) bool {
		return parser.Classify(prof, title, s) == parser.NeedsApproval
	})
	// The title may say it first (Codex): the prompt's rows must say it too, as they are
	// all a program without such titles (or a user profile without them) gives.
	byTitle := parser.Classify(prof, tm.vt.Title(), nil) == parser.NeedsApproval
	rows, err := tm.await(15*time.Second, func(s []string, _ string) bool {
		return parser.Classify(prof, "", s) == parser.NeedsApproval
	})
	if err != nil {
		t.Errorf("%s: the approval prompt's rows never matched the profile's ApprovalMarkers: %v\n%s", c.name, err, tm.dump())
	}
	screen, title := tm.vt.ScreenText(), tm.vt.Title()
	t.Logf("%s: title says approval: %v; rows say it at +%.1fs", c.name, byTitle, (rows - typed).Seconds())
	t.Logf("%s: tool call %s; approval seen at +%.1fs after the Enter, title %q\n%s",
		c.name, call.Reply, (asked - typed).Seconds(), strings.TrimSpace(title), tm.dump())
	if _, err := os.Stat(filepath.Join(project, probeFile)); err == nil {
		t.Errorf("%s ran the command before it was approved", c.name)
	}
	saveScreen(t, c.name+"-approval", recording{
		what: c.name + " at 120x40 in a PTY through vterm, waiting for approval of a shell tool call (" +
			approvalTool.Command + ") the mock model asked for; permissions at their defaults.",
		title: title, state: parser.NeedsApproval.String(), screen: screen,
	})

	// A person answers a prompt once they have read it: Claude Code 2.1.332 drops keys
	// typed within 100-200 ms of drawing its prompt (typed 0 and 100 ms after the test
	// saw it: dropped; 200 ms and later: taken), which an Enter sent at once fell into.
	time.Sleep(time.Until(tm.start.Add(asked + readingTime)))
	tm.typeText("\r") // approve: the first choice, highlighted
	left := tm.waitFor("the approval prompt to go", 30*time.Second, func(s []string, title string) bool {
		st := parser.Classify(prof, title, s)
		return st == parser.Busy || st == parser.Idle
	})
	leftState := parser.Classify(prof, tm.vt.Title(), tm.vt.ScreenText())
	done := tm.waitText(60*time.Second, "TOOL-DONE the command ran")
	idle := tm.waitFor("idle after the closing answer", 60*time.Second, func(s []string, title string) bool {
		return parser.Classify(prof, title, s) == parser.Idle
	})
	if _, err := os.Stat(filepath.Join(project, probeFile)); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
	if n := len(srv.Turns()); n != 2 {
		t.Errorf("the model got %d turns, want 2 (the call, then its result)", n)
	}
	t.Logf("%s: approved at +%.1fs; then %s at +%.1fs, closing answer at +%.1fs, idle at +%.1fs",
		c.name, (asked - typed).Seconds(), leftState, (left - typed).Seconds(), (done - typed).Seconds(), (idle - typed).Seconds())
}
