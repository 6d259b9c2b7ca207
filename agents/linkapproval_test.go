//go:build agents

package agents

// A linked pair whose target stops for approval, end to end in agentmux: `agentmux --link
// --turns 3 claude gemini`. Claude's first answer holds the mock's trigger word, so when it
// is relayed Gemini's model calls its shell tool and Gemini asks the person. The test then:
//
//  1. waits for pane 2's border to say `needs you`;
//  2. types a second message into pane 1 as the person, so Claude answers again and the
//     relay has a delivery for Gemini; for a quiet window (approvalQuiet) while the prompt
//     is up, nothing may reach Gemini's model, its pane must not show Claude's second
//     answer, and its border must keep saying `needs you` (with the delivery waiting);
//  3. approves in pane 2 (prefix 2, Enter): Gemini runs the command and answers, and the
//     held delivery then reaches Gemini's model.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

// approvalQuiet is how long the test watches that nothing is typed into a pane waiting for
// approval: far longer than an idle period plus a delivery.
const approvalQuiet = 10 * time.Second

// borderRow returns the screen row holding pane n's border title ("╭ N name ─ ...").
func borderRow(screen []string, n, name string) string {
	for _, row := range screen {
		for _, part := range strings.Split(row, "╭ ")[1:] {
			if strings.HasPrefix(part, n+" "+name+" ─ ") {
				return part
			}
		}
	}
	return ""
}

func TestLinkedApproval(t *testing.T) {
	bin := buildAgentmux(t)
	claudeSrv, claudeURL := startMock(t, "claude", func(p mockmodel.Prompt) string {
		if p.N == 1 {
			return "CLAUDE-1 asks gemini to run-tool now"
		}
		return mockmodel.Numbered("CLAUDE", 6)(p)
	}, answerTime)
	geminiSrv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Numbered("GEMINI", 6), Duration: answerTime, Tool: approvalTool})
	geminiURL := serveMock(t, "gemini", geminiSrv)
	home, project := freshHome(t)
	cleanUpAgents(t, home, project)
	env := baseEnv(t, home)
	env = append(env, setupClaude(t, home, project, claudeURL, "default")...)
	env = append(env, setupGemini(t, home, project, geminiURL)...)
	state := t.TempDir()
	env = append(env, "XDG_STATE_HOME="+state)

	tm := startTerm(t, "agentmux", []string{bin, "--log-level", "debug", "--link", "--turns", "3", "claude", "gemini"}, project, env, 220, 50)
	t.Cleanup(func() { // registered after the terminal's: runs before it ends
		if t.Failed() {
			h := exec.Command(bin, "history", "--json")
			h.Dir, h.Env = project, env
			out, err := h.CombinedOutput()
			t.Logf("agentmux history (%v):\n%s", err, out)
			log, _ := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
			t.Logf("agentmux.log:\n%s", log)
		}
	})
	claude, gemini := cliNamed(t, "claude"), cliNamed(t, "gemini")
	tm.waitFor("claude ready in pane 1 and gemini in pane 2", 120*time.Second, func([]string, string) bool {
		return panesReady(tm.vt.Snapshot(), claude, gemini)
	})
	tm.typeText("\x01" + "1")
	tm.submit("hello from the approval test")

	g1 := waitTurn(t, tm, geminiSrv, "gemini", 1, 120*time.Second)
	if !strings.HasPrefix(g1.Reply, "tool call run_shell_command") {
		t.Fatalf("gemini's model answered %q, want the shell tool call", g1.Reply)
	}
	asked := tm.waitFor("pane 2's border to say needs you", 60*time.Second, func(s []string, _ string) bool {
		return strings.Contains(borderRow(s, "2", "gemini"), "needs you")
	})
	t.Logf("pane 2 needs you at %.1fs: %q", asked.Seconds(), strings.TrimRight(borderRow(tm.vt.ScreenText(), "2", "gemini"), "─╮ "))

	// The person talks to Claude meanwhile: its answer is for Gemini, which must wait.
	const second = "second message from the person"
	tm.submit(second)
	c2 := waitTurn(t, tm, claudeSrv, "claude", 2, 60*time.Second)
	tm.waitText(60*time.Second, c2.Reply)
	tm.waitFor("the delivery to pane 2 waiting", 30*time.Second, func(s []string, _ string) bool {
		return strings.Contains(borderRow(s, "2", "gemini"), "1 waiting")
	})
	ctx, cancel := context.WithTimeout(context.Background(), approvalQuiet)
	defer cancel()
	if r, err := geminiSrv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn && r.N == 2 }); err == nil {
		t.Errorf("gemini's model got a turn while its approval prompt was up: %q\n%s", r.Prompt, tm.dump())
	}
	screen := tm.vt.ScreenText()
	if border := borderRow(screen, "2", "gemini"); !strings.Contains(border, "needs you") {
		t.Errorf("pane 2's border no longer says needs you with the prompt up: %q", border)
	}
	if snap := tm.vt.Snapshot(); inHalf(snap, "CLAUDE-2", true) {
		t.Errorf("Claude's second answer was typed into pane 2 while it asked for approval\n%s", tm.dump())
	}
	if _, err := os.Stat(filepath.Join(project, probeFile)); err == nil {
		t.Errorf("the command ran before it was approved (something answered the prompt)")
	}

	tm.typeText("\x01" + "2") // prefix 2: focus pane 2
	tm.typeText("\r")         // approve: Allow once
	g2 := waitTurn(t, tm, geminiSrv, "gemini (the tool's result)", 2, 60*time.Second)
	if _, err := os.Stat(filepath.Join(project, probeFile)); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
	g3 := waitTurn(t, tm, geminiSrv, "gemini (the held delivery after approval)", 3, 90*time.Second)
	if !strings.Contains(g3.Prompt, c2.Reply) {
		t.Errorf("gemini's turn after approval = %q, want the held delivery of %q", g3.Prompt, c2.Reply)
	}
	t.Logf("after gemini's tool call: the tool's result reached its model %.1fs later, the held delivery %.1fs later: %q",
		g2.Start.Sub(g1.Start).Seconds(), g3.Start.Sub(g1.Start).Seconds(), g3.Prompt)
}
