//go:build agents

package agents

// Hooks with the real CLIs: `agentmux --link A B`, A answering a markdown answer (a
// table and a fenced code block, which every CLI renders differently from how the model
// wrote it) — the delivery into B must be that answer exactly as the model wrote it, which
// only A's hook (Claude's Stop transcript, Codex's notify, Gemini's AfterAgent) gives; the
// screen's delta would be the rendered table and code.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

// markdownAnswer is A's answer: a table and a code block, as a model writes them.
const markdownAnswer = "Here is the plan:\n\n| step | owner |\n|------|-------|\n| parse | alice |\n| test | bob |\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\nDone."

func TestHooksGiveTheExactAnswer(t *testing.T) {
	bin := buildAgentmux(t)
	// Gemini's answer goes to Codex, not Claude: Claude Code's input turns a pasted tab
	// (the code block's indent) into spaces, whatever gave the text.
	for _, pair := range [][2]string{{"claude", "codex"}, {"codex", "gemini"}, {"gemini", "codex"}} {
		t.Run(pair[0], func(t *testing.T) {
			a, b := cliNamed(t, pair[0]), cliNamed(t, pair[1])
			_, aURL := startMock(t, a.name, mockmodel.Fixed(markdownAnswer), answerTime)
			bSrv, bURL := startMock(t, b.name, mockmodel.Fixed("ok"), answerTime)
			home, project := freshHome(t)
			if a.name == "codex" || b.name == "codex" {
				home, project = codexHome(t)
			}
			cleanUpAgents(t, home, project)
			env := baseEnv(t, home)
			env = append(env, a.setup(t, home, project, aURL)...)
			env = append(env, b.setup(t, home, project, bURL)...)
			env = append(env, "XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_RUNTIME_DIR="+t.TempDir())
			tm := startTerm(t, "agentmux", []string{bin, "--log-level", "debug", "--link", "--turns", "1", a.command(), b.command()}, project, env, 220, 50)
			defer func() {
				if t.Failed() { // what agentmux heard of hooks, for the failure
					log, _ := os.ReadFile(filepath.Join(home, "state", "agentmux", "agentmux.log"))
					for _, l := range strings.Split(string(log), "\n") {
						if strings.Contains(l, "hook") {
							t.Log(l)
						}
					}
				}
			}()
			tm.waitFor("both ready", 120*time.Second, func([]string, string) bool {
				snap := tm.vt.Snapshot()
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
			})
			tm.typeText("\x01" + "1")
			tm.submit("write the plan")
			b1 := waitTurn(t, tm, bSrv, b.name, 1, 120*time.Second)
			want := a.name + " (1):\n\n" + markdownAnswer
			if strings.TrimSpace(b1.Prompt) != want {
				t.Errorf("%s → %s delivered %q\nwant exactly %q", a.name, b.name, b1.Prompt, want)
			}
		})
	}
}
