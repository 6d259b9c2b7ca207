//go:build agents

package agents

// agentmux --mcp with the real Claude Code: two Claude panes, the first one's model
// (the fake server) answering a trigger with a call of agentmux's MCP tool send (to
// pane 2), then with wait on the id send returned, then with members (a call whose
// only purpose is to see the request that brings wait's result back). The message must
// reach pane 2's model headed as pane 1's turn ("claude (1):"), proved by the pane the
// server runs in, wait must say confirmed, and the person's Claude files must not
// gain the server: agentmux gives it on the command line alone.

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

// messageID matches an agentmux message id (proto.NewID).
var messageID = regexp.MustCompile(`m[0-9a-f]{21}`)

func TestMCPSendThenWait(t *testing.T) {
	bin := buildAgentmux(t)
	c := cliNamed(t, "claude")
	var mu sync.Mutex
	var waitResult []byte // the request that brought wait's result back
	tool := &mockmodel.Tool{
		Trigger: "ask-your-peer",
		Name:    "mcp__agentmux__send",
		Args:    map[string]any{"to": "2", "message": "MCP-HELLO what is two plus two"},
		Then: &mockmodel.Tool{
			Name: "mcp__agentmux__wait",
			ArgsFrom: func(body []byte) map[string]any {
				ids := messageID.FindAll(body, -1)
				if len(ids) == 0 {
					return map[string]any{"id": "no-id-in-the-result"}
				}
				return map[string]any{"id": string(ids[len(ids)-1])}
			},
			Then: &mockmodel.Tool{
				Name: "mcp__agentmux__members",
				ArgsFrom: func(body []byte) map[string]any {
					mu.Lock()
					waitResult = bytes.Clone(body)
					mu.Unlock()
					return map[string]any{}
				},
			},
		},
	}
	aSrv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Fixed("ASKED done"), Duration: answerTime, Tool: tool})
	aURL := serveMock(t, "claude-1", aSrv)
	bSrv, bURL := startMock(t, "claude-2", mockmodel.Fixed("four"), answerTime)
	home, project := freshHome(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, aURL)...)
	// The person allows agentmux's tools (Claude asks for an MCP tool it does not know);
	// the settings hold what Claude would write into them at start itself (it moves
	// $DISABLE_AUTOUPDATER there), so that any change is agentmux's.
	// Written as Claude writes it (two-space indent, a newline at the end).
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{
  "env": {
    "DISABLE_AUTOUPDATER": "1"
  },
  "permissions": {
    "allow": [
      "mcp__agentmux"
    ]
  },
  "tui": "default"
}
`)
	before := map[string][]byte{}
	for _, f := range []string{".claude/settings.json"} {
		b, err := os.ReadFile(filepath.Join(home, f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = b
	}
	state := t.TempDir()
	env = append(env, "XDG_STATE_HOME="+state, "XDG_RUNTIME_DIR="+t.TempDir())
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
			t.Logf("agentmux.log:\n%s", log)
		}
	})
	// Pane 2 talks to its own mock: its base URL set for it alone.
	args := []string{bin, "--log-level", "debug", "--mcp", c.command(), "ANTHROPIC_BASE_URL=" + bURL + " " + c.command()}
	tm := startTerm(t, "agentmux", args, project, env, 220, 50)
	tm.waitFor("claude ready in both panes", 120*time.Second, func([]string, string) bool {
		snap := tm.vt.Snapshot()
		for _, s := range c.paneReady {
			if !inHalf(snap, s, false) || !inHalf(snap, s, true) {
				return false
			}
		}
		return true
	})
	tm.typeText("\x01" + "1")
	tm.submit("ask-your-peer please")

	b1 := waitTurn(t, tm, bSrv, "claude-2", 1, 120*time.Second)
	if want := "claude (1):\n\nMCP-HELLO what is two plus two"; strings.TrimSpace(b1.Prompt) != want {
		t.Errorf("pane 2's model got %q, want %q", b1.Prompt, want)
	}
	// A's turns: the trigger (send), send's result (wait), wait's result (members),
	// members' result (the text answer).
	waitTurn(t, tm, aSrv, "claude-1", 4, 120*time.Second)
	mu.Lock()
	got := waitResult
	mu.Unlock()
	if !bytes.Contains(got, []byte(`confirmed`)) {
		t.Errorf("the request after wait holds no confirmed: %.2000s", got)
	}
	for f, b := range before {
		now, err := os.ReadFile(filepath.Join(home, f))
		if err != nil || !bytes.Equal(now, b) {
			t.Errorf("%s changed: %s → %s (%v)", f, b, now, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(home, ".claude.json")); err == nil && bytes.Contains(b, []byte(`"agentmux"`)) {
		t.Errorf(".claude.json holds agentmux's server: %s", b)
	}
}
