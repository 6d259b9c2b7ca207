package hooks

// An opencode pane's hook: a plugin file of agentmux's (0600, in the run's folder)
// named by OPENCODE_CONFIG_CONTENT, the person's own content of that variable kept with
// the plugin added to its list, their opencode config untouched; content that is no
// JSON object turns the pane's hook off. The plugin itself runs under node with a fake
// of the client opencode gives plugins: on session.idle of a top-level session it runs
// `agentmux hook opencode-idle` with the turn's answer, and on nothing else.

import (
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/session"
)

// opencodeContent returns the OPENCODE_CONFIG_CONTENT spec's environment ends with.
func opencodeContent(t *testing.T, env []string) map[string]any {
	t.Helper()
	require.NotEmpty(t, env)
	v, ok := strings.CutPrefix(env[len(env)-1], "OPENCODE_CONFIG_CONTENT=")
	require.True(t, ok, env)
	var c map[string]any
	require.NoError(t, json.Unmarshal([]byte(v), &c))
	return c
}

func TestOpencodePaneGetsAPlugin(t *testing.T) {
	t.Setenv("OPENCODE_CONFIG_CONTENT", "")
	home := t.TempDir()
	writeIn(t, home, map[string]string{".config/opencode/opencode.json": `{"plugin":["theirs"],"model":"m/m"}`})
	before := snapshot(t, home)
	h := &Setup{bin: "/opt/agent mux/agentmux", dir: t.TempDir()}
	in := session.PaneSpec{Argv: []string{"opencode"}, Env: []string{"A=1", "HOME=" + home}}
	spec, ok := h.Spec(4, in, parser.Builtins()["opencode"])
	require.True(t, ok)
	assert.Equal(t, in.Argv, spec.Argv)
	require.Len(t, spec.Env, 3)
	assert.Equal(t, in.Env, spec.Env[:2], "the pane's own environment is kept")
	c := opencodeContent(t, spec.Env)
	path := filepath.Join(h.dir, "4-opencode-plugin.js")
	assert.Equal(t, map[string]any{"plugin": []any{"file://" + path}}, c)

	info, err := os.Lstat(path)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), info.Mode(), "a private file, no link")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), `const bin = "/opt/agent mux/agentmux"`)
	assert.Contains(t, string(b), `"session.idle"`)
	assert.Equal(t, before, snapshot(t, home), "the person's opencode config is untouched")

	// Hooks off: nothing is given.
	off := &Setup{bin: "agentmux", dir: t.TempDir(), noHooks: true}
	spec, ok = off.Spec(4, in, parser.Builtins()["opencode"])
	assert.False(t, ok)
	assert.Equal(t, in, spec)
}

func TestOpencodeKeepsThePersonsConfigContent(t *testing.T) {
	t.Setenv("OPENCODE_CONFIG_CONTENT", `{"model":"a/b","plugin":["their-plugin"]}`)
	h := &Setup{bin: "agentmux", dir: t.TempDir()}
	spec, ok := h.Spec(2, session.PaneSpec{Argv: []string{"opencode"}}, parser.Builtins()["opencode"])
	require.True(t, ok)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(h.dir, "2-opencode-plugin.js")}).String()
	assert.Equal(t, map[string]any{"model": "a/b", "plugin": []any{"their-plugin", u}}, opencodeContent(t, spec.Env))

	// The pane's own setting wins over agentmux's environment, as for the program.
	spec, ok = h.Spec(3, session.PaneSpec{Argv: []string{"opencode"}, Env: []string{`OPENCODE_CONFIG_CONTENT={"share":"disabled"}`}},
		parser.Builtins()["opencode"])
	require.True(t, ok)
	assert.Equal(t, "disabled", opencodeContent(t, spec.Env)["share"])

	for _, bad := range []string{`not json`, `["a"]`, `null`, `{"plugin":"one"}`} {
		t.Run(bad, func(t *testing.T) {
			t.Setenv("OPENCODE_CONFIG_CONTENT", bad)
			h := &Setup{bin: "agentmux", dir: t.TempDir()}
			in := session.PaneSpec{Argv: []string{"opencode"}, Env: []string{"A=1"}}
			spec, ok := h.Spec(2, in, parser.Builtins()["opencode"])
			assert.False(t, ok, "the pane runs without the hook")
			assert.Equal(t, in, spec)
			entries, err := os.ReadDir(h.dir)
			require.NoError(t, err)
			assert.Empty(t, entries, "nothing written")
		})
	}
}

func TestOpencodeIdleReport(t *testing.T) {
	h, ok := hookReport("opencode-idle", []byte(`{"session_id":"ses_1a2b","last_assistant_message":"line one\n\nline two"}`))
	require.True(t, ok)
	assert.Equal(t, "opencode", h.CLI)
	assert.Equal(t, "ses_1a2b", h.Conversation)
	assert.Equal(t, "line one\n\nline two", h.Text)
}

// pluginHarness loads the plugin (argv[2]) with a fake client and sends it events: one
// that is no turn end, session.idle of a subagent's session, then of the pane's.
const pluginHarness = `
const mod = await import(process.argv[2])
const messages = [
  { info: { role: "user" }, parts: [{ type: "text", text: "an earlier question" }] },
  { info: { role: "assistant" }, parts: [{ type: "text", text: "an earlier answer" }] },
  { info: { role: "user" }, parts: [{ type: "text", text: "the question" }] },
  { info: { role: "assistant" }, parts: [{ type: "reasoning", text: "thinking" }, { type: "text", text: "First part." }] },
  { info: { role: "assistant" }, parts: [{ type: "tool", tool: "bash" }, { type: "text", text: "Second part,\n  indented." },
    { type: "text", text: "a note", synthetic: true }] },
]
const id = (o) => o.sessionID ?? o.path?.id
const client = { session: {
  messages: async (o) => ({ data: id(o) === "ses_top" ? messages : [] }),
  get: async (o) => ({ data: { id: id(o), parentID: id(o) === "ses_child" ? "ses_top" : undefined } }),
} }
const hooks = await mod.AgentmuxTurnEnd({ client })
await hooks.event({ event: { type: "session.status", properties: { sessionID: "ses_top", status: { type: "idle" } } } })
await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_child" } } })
await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_top" } } })
`

func TestOpencodePluginReportsTheTurn(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node to run the plugin with")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "calls")
	bin := filepath.Join(dir, "fake agentmux")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n{ echo \"$@\"; cat; echo; } >> '"+out+"'\n"), 0o700))
	t.Setenv("OPENCODE_CONFIG_CONTENT", "")
	h := &Setup{bin: bin, dir: t.TempDir()}
	_, ok := h.Spec(1, session.PaneSpec{Argv: []string{"opencode"}}, parser.Builtins()["opencode"])
	require.True(t, ok)
	src, err := os.ReadFile(filepath.Join(h.dir, "1-opencode-plugin.js"))
	require.NoError(t, err)
	// node 20 reads a .js file as CommonJS; opencode (Bun) reads it as a module.
	plugin := filepath.Join(dir, "plugin.mjs")
	require.NoError(t, os.WriteFile(plugin, src, 0o600))
	harness := filepath.Join(dir, "harness.mjs")
	require.NoError(t, os.WriteFile(harness, []byte(pluginHarness), 0o600))
	cmd := exec.Command(node, harness, (&url.URL{Scheme: "file", Path: plugin}).String())
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)

	calls, err := os.ReadFile(out)
	require.NoError(t, err, "the plugin ran nothing")
	lines := strings.Split(strings.TrimSuffix(string(calls), "\n"), "\n")
	require.Len(t, lines, 2, "one call, for the pane's session alone: %q", calls)
	assert.Equal(t, "hook opencode-idle", lines[0])
	rep, ok := hookReport("opencode-idle", []byte(lines[1]))
	require.True(t, ok)
	assert.Equal(t, "ses_top", rep.Conversation)
	assert.Equal(t, "First part.\n\nSecond part,\n  indented.", rep.Text)
}
