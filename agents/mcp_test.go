//go:build agents

package agents

// agentmux --mcp with the real Claude Code and Codex: pane 1's model (the fake server)
// answering a trigger with a call of agentmux's MCP tool send (to pane 2), then with wait
// on the id send returned, then with members (a call whose only purpose is to see the
// request that brings wait's result back). Claude Code offers the tools as
// mcp__agentmux__send and so on; Codex (0.171) offers its model one tool, exec, whose
// JavaScript calls them as tools.mcp__agentmux__send(…), and names the server's namespace
// in its input once the server is up. The message must reach pane 2's model headed as
// pane 1's turn ("claude (1):", "codex (1):"), proved by the pane the server runs in,
// wait must say confirmed, and the person's Claude and Codex files must stay as they were
// byte for byte: agentmux gives the server on the command line alone.

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
	for _, pair := range [][2]string{{"claude", "claude"}, {"codex", "claude"}} {
		t.Run(pair[0], func(t *testing.T) {
			mcpSendThenWait(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]))
		})
	}
}

// mcpSendThenWait runs `agentmux --mcp a b` with a's model calling send to pane 2, then
// wait on its id, then members (to see wait's result come back).
func mcpSendThenWait(t *testing.T, bin string, a, b cli) {
	var mu sync.Mutex
	var waitResult []byte // the request that brought wait's result back
	lastID := func(body []byte) string {
		ids := messageID.FindAll(body, -1)
		if len(ids) == 0 {
			return "no-id-in-the-result"
		}
		return string(ids[len(ids)-1])
	}
	sawWait := func(body []byte) {
		mu.Lock()
		waitResult = bytes.Clone(body)
		mu.Unlock()
	}
	tool := &mockmodel.Tool{
		Trigger: "ask-your-peer",
		Offered: true,
		Name:    "mcp__agentmux__send",
		Args:    map[string]any{"to": "2", "message": "MCP-HELLO what is two plus two"},
		Then: &mockmodel.Tool{
			Name:     "mcp__agentmux__wait",
			ArgsFrom: func(body []byte) map[string]any { return map[string]any{"id": lastID(body)} },
			Then: &mockmodel.Tool{
				Name: "mcp__agentmux__members",
				ArgsFrom: func(body []byte) map[string]any {
					sawWait(body)
					return map[string]any{}
				},
			},
		},
	}
	if a.name == "codex" {
		// Codex (0.171) offers its model MCP tools only inside its exec tool, which runs
		// JavaScript calling them as tools.mcp__agentmux__send(…); its input names the
		// servers' namespaces ("mcp__agentmux: agentmux runs…") once they are connected.
		exec := func(call string) string { return "text(JSON.stringify(await tools." + call + "));" }
		tool = &mockmodel.Tool{
			Trigger: "ask-your-peer",
			Ready:   func(body []byte) bool { return bytes.Contains(body, []byte("mcp__agentmux")) },
			Name:    "exec",
			Input:   exec(`mcp__agentmux__send({"to": "2", "message": "MCP-HELLO what is two plus two"})`),
			Then: &mockmodel.Tool{
				Name:      "exec",
				InputFrom: func(body []byte) string { return exec(`mcp__agentmux__wait({"id": "` + lastID(body) + `"})`) },
				Then: &mockmodel.Tool{
					Name: "exec",
					InputFrom: func(body []byte) string {
						sawWait(body)
						return exec("mcp__agentmux__members({})")
					},
				},
			},
		}
	}
	aSrv := mockmodel.New(mockmodel.Options{Reply: mockmodel.Fixed("ASKED done"), Duration: answerTime, Tool: tool})
	aURL := serveMock(t, a.name+"-1", aSrv)
	bSrv, bURL := startMock(t, b.name+"-2", mockmodel.Fixed("four"), answerTime)
	home, project := freshHome(t)
	if a.name == "codex" {
		home, project = codexHome(t)
	}
	cleanUpAgents(t, home, project)
	env := baseEnv(t, home)
	for i, c := range []cli{a, b} {
		url := aURL
		if i == 1 {
			if c.name == a.name {
				break // the same CLI: pane 2's own URL goes on its command line
			}
			url = bURL
		}
		if c.name == "codex" {
			// The person lets Codex run tools without asking. That does not cover MCP
			// tools: Codex refuses a call of send ("MCP tool call requires approval, but
			// approval policy is never") unless the server's tools are approved, which the
			// person does on Codex's command line below.
			env = append(env, setupCodexWith(t, home, project, url, "approval_policy = \"never\"\n")...)
			// What Codex writes into config.toml at start itself (its first-run state,
			// the announcement of a model shown up to four times), so that any change
			// would be agentmux's.
			conf, err := os.ReadFile(filepath.Join(home, ".codex", "config.toml"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(home, ".codex", "config.toml"), string(conf)+`
[tui]
screen_reader_detection_done = true

[tui.model_availability_nux]
"gpt-6.1-sol" = 4
`)
			continue
		}
		env = append(env, c.setup(t, home, project, url)...)
		// The person allows agentmux's tools (Claude asks for an MCP tool it does not
		// know); the settings hold what Claude would write into them at start itself
		// (it moves $DISABLE_AUTOUPDATER there), as Claude writes them (two-space
		// indent, a newline at the end), so that any change would be agentmux's.
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
	}
	before := map[string][]byte{}
	for _, f := range []string{".claude/settings.json", ".codex/config.toml"} {
		if b, err := os.ReadFile(filepath.Join(home, f)); err == nil {
			before[f] = b
		}
	}
	state := t.TempDir()
	env = append(env, "XDG_STATE_HOME="+state, "XDG_RUNTIME_DIR="+t.TempDir())
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
			t.Logf("agentmux.log:\n%s", log)
		}
	})
	bCmd := b.command()
	if a.name == b.name { // both Claude: pane 2 talks to its own mock
		bCmd = "ANTHROPIC_BASE_URL=" + bURL + " " + bCmd
	}
	aCmd := a.command()
	if a.name == "codex" {
		// The person approves agentmux's tools for this run (in config.toml the table
		// would lack the server's command whenever Codex runs without agentmux).
		aCmd += " -c mcp_servers.agentmux.default_tools_approval_mode=approve"
	}
	args := []string{bin, "--log-level", "debug", "--mcp", aCmd, bCmd}
	tm := startTerm(t, "agentmux", args, project, env, 220, 50)
	tm.waitFor(a.name+" and "+b.name+" ready", 120*time.Second, func([]string, string) bool {
		return panesReady(tm.vt.Snapshot(), a, b)
	})
	tm.typeText("\x01" + "1")
	// The CLI connects its MCP servers while it starts: until it offers the model
	// agentmux's tools, the model answers in words, and the prompt is typed again.
	n := 0
	for try := 1; ; try++ {
		tm.submit("ask-your-peer please")
		r := waitTurn(t, tm, aSrv, a.name, n+1, 120*time.Second)
		n++
		if strings.HasPrefix(r.Reply, "tool call") {
			break
		}
		if try == 5 {
			t.Fatalf("%s never offered its model agentmux's tools", a.name)
		}
		tm.waitFor(a.name+" idle again", 60*time.Second, func(s []string, _ string) bool { return a.ready(s, "") || contains(s, "ASKED done") })
	}

	b1 := waitTurn(t, tm, bSrv, b.name, 1, 120*time.Second)
	if want := a.name + " (1):\n\nMCP-HELLO what is two plus two"; strings.TrimSpace(b1.Prompt) != want {
		t.Errorf("pane 2's model got %q, want %q", b1.Prompt, want)
	}
	// a's turns: the trigger (send), send's result (wait), wait's result (members),
	// members' result (the text answer).
	waitTurn(t, tm, aSrv, a.name, n+3, 120*time.Second)
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
