//go:build agents

package agents

// An answer from a pane's program is refused, with real CLIs: `agentmux claude "gemini
// --yolo"`. Claude Code stops at its approval prompt (the mock's shell call); then
// Gemini CLI, told to by its model (a prompt-injected agent, as far as agentmux can
// tell), runs `agentmux answer 1 yes` with its shell tool, which --yolo runs unasked.
// The answer must be refused (exit status 1, "only the person answers"), nothing typed
// into Claude's pane: it still needs you and its command has not run. The person's own
// `agentmux answer 1 yes` from a shell then runs it.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

func TestAnswerFromAPaneProgramRefused(t *testing.T) {
	bin := buildAgentmux(t)
	claudeSrv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Fixed("TOOL-DONE the command ran"), Duration: time.Second, Tool: approvalTool})
	claudeURL := serveMock(t, "claude", claudeSrv)
	home, project := freshHome(t)
	out := filepath.Join(project, "answer-out.txt")
	geminiSrv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Fixed("GEMINI-DONE"), Duration: time.Second,
		Tool: &mockmodel.Tool{Trigger: "answer-tool", Command: bin + " answer 1 yes > " + out + " 2>&1; echo rc=$? >> " + out}})
	geminiURL := serveMock(t, "gemini", geminiSrv)
	cleanUpAgents(t, home, project)
	env := baseEnv(t, home)
	env = append(env, setupClaudeAsking(t, home, project, claudeURL)...)
	env = append(env, setupGemini(t, home, project, geminiURL)...)
	env = append(env, "XDG_STATE_HOME="+t.TempDir(), "XDG_RUNTIME_DIR="+t.TempDir())

	tm := startTerm(t, "agentmux", []string{bin, "claude", "gemini --yolo"}, project, env, 220, 50)
	claude, gemini := cliNamed(t, "claude"), cliNamed(t, "gemini")
	tm.waitFor("claude ready in pane 1 and gemini in pane 2", 120*time.Second, func([]string, string) bool {
		return panesReady(tm.vt.Snapshot(), claude, gemini)
	})
	tm.typeText("\x01" + "1")
	tm.submit("please run-tool now")
	waitTurn(t, tm, claudeSrv, "claude (the tool call)", 1, 90*time.Second)
	tm.waitFor("pane 1 to say needs you", 60*time.Second, func(s []string, _ string) bool {
		return strings.Contains(borderRow(s, "1", "claude"), "needs you")
	})

	tm.typeText("\x01" + "2")
	tm.submit("please answer-tool now")
	waitTurn(t, tm, geminiSrv, "gemini (its answer call)", 1, 90*time.Second)
	waitTurn(t, tm, geminiSrv, "gemini (the call's result)", 2, 90*time.Second)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("gemini's shell call did not run: %v\n%s", err, tm.dump())
	}
	t.Logf("agentmux answer from pane 2's program:\n%s", b)
	if !strings.Contains(string(b), "only the person answers") || !strings.Contains(string(b), "rc=1") {
		t.Errorf("the pane's answer was not refused: %q", b)
	}
	if _, err := os.Stat(filepath.Join(project, probeFile)); err == nil {
		t.Errorf("claude's command ran: the pane's answer was typed")
	}
	if border := borderRow(tm.vt.ScreenText(), "1", "claude"); !strings.Contains(border, "needs you") {
		t.Errorf("pane 1 no longer needs you after the pane's answer: %q", border)
	}

	ans := exec.Command(bin, "answer", "1", "yes")
	ans.Dir, ans.Env = project, env
	if o, err := ans.CombinedOutput(); err != nil {
		t.Fatalf("the person's agentmux answer: %v\n%s", err, o)
	}
	waitTurn(t, tm, claudeSrv, "claude (the tool's result)", 2, 60*time.Second)
	if _, err := os.Stat(filepath.Join(project, probeFile)); err != nil {
		t.Errorf("the person's answer did not run the command: %v", err)
	}
}
