package hooks

// With the MCP option each supported program's spec gets agentmux's MCP server by its
// own per-run mechanism (read back from the argv or the files of the run's folder),
// with or without the hooks, and no file of the person's changes.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/session"
)

// mcpEntry is a program's entry for the server, as its config holds it.
type mcpEntry struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

func TestMCPServerPerProgram(t *testing.T) {
	const bin = "/opt/agent mux/agentmux"
	b := parser.Builtins()
	for _, noHooks := range []bool{false, true} {
		h := &Setup{bin: bin, dir: t.TempDir(), mcp: true, noHooks: noHooks}

		// Claude: --mcp-config JSON last, or before "--"; its hooks (--settings) as before.
		spec, on := h.Spec(1, session.PaneSpec{Argv: []string{"claude", "--model", "x"}}, b["claude"])
		assert.Equal(t, !noHooks, on)
		n := len(spec.Argv)
		require.GreaterOrEqual(t, n, 5)
		assert.Equal(t, "--mcp-config", spec.Argv[n-2])
		var conf struct{ MCPServers map[string]mcpEntry }
		require.NoError(t, json.Unmarshal([]byte(spec.Argv[n-1]), &conf))
		assert.Equal(t, mcpEntry{Type: "stdio", Command: bin, Args: []string{"mcp"}}, conf.MCPServers["agentmux"])
		if noHooks {
			assert.Equal(t, []string{"claude", "--model", "x"}, spec.Argv[:3])
		} else {
			assert.Equal(t, []string{"claude", "--settings"}, spec.Argv[:2])
		}
		spec, _ = h.Spec(1, session.PaneSpec{Argv: []string{"claude", "--", "a prompt"}}, b["claude"])
		assert.Equal(t, []string{"--", "a prompt"}, spec.Argv[len(spec.Argv)-2:], "the option goes before --: it takes no word of the person's")

		// Codex: -c options, the pane's agentmux variables passed on.
		spec, on = h.Spec(2, session.PaneSpec{Argv: []string{"codex", "--full-auto"}}, b["codex"])
		assert.Equal(t, !noHooks, on)
		assert.Subset(t, spec.Argv, []string{
			`mcp_servers.agentmux.command="/opt/agent mux/agentmux"`,
			`mcp_servers.agentmux.args=["mcp"]`,
			`mcp_servers.agentmux.env_vars=["AGENTMUX_SOCKET","AGENTMUX_PROOF","AGENTMUX_SESSION","AGENTMUX_NAME","AGENTMUX_PANE"]`,
		})
		assert.Equal(t, "--full-auto", spec.Argv[len(spec.Argv)-1])

		// Qwen: the run's defaults layer.
		home, system := qwenPerson(t)
		before := snapshot(t, home)
		spec, on = h.Spec(5, session.PaneSpec{Argv: []string{"qwen"}, Env: []string{"HOME=" + home, "QWEN_CODE_SYSTEM_SETTINGS_PATH=" + system}}, b["qwen"])
		assert.Equal(t, !noHooks, on)
		raw, err := os.ReadFile(lookupEnv(spec.Env, "QWEN_CODE_SYSTEM_DEFAULTS_PATH"))
		require.NoError(t, err)
		var qwen struct {
			MCPServers map[string]mcpEntry
			Hooks      map[string]any
		}
		require.NoError(t, json.Unmarshal(raw, &qwen))
		assert.Equal(t, mcpEntry{Command: bin, Args: []string{"mcp"}}, qwen.MCPServers["agentmux"])
		assert.Equal(t, noHooks, qwen.Hooks == nil, "the Stop hook goes with the hooks")
		assert.Equal(t, before, snapshot(t, home), "the person's files are untouched")

		// Gemini: the extension of the pane's own home.
		person := t.TempDir()
		writeIn(t, person, map[string]string{".gemini/settings.json": `{"a":1}`})
		spec, on = h.Spec(3, session.PaneSpec{Argv: []string{"gemini"}, Env: []string{"HOME=" + person}}, b["gemini"])
		assert.Equal(t, !noHooks, on)
		ext := filepath.Join(lookupEnv(spec.Env, "GEMINI_CLI_HOME"), ".gemini", "extensions", geminiHookExtension)
		raw, err = os.ReadFile(filepath.Join(ext, "gemini-extension.json"))
		require.NoError(t, err)
		var manifest struct{ MCPServers map[string]mcpEntry }
		require.NoError(t, json.Unmarshal(raw, &manifest))
		assert.Equal(t, mcpEntry{Command: bin, Args: []string{"mcp"}}, manifest.MCPServers["agentmux"])
		hooks, err := os.ReadFile(filepath.Join(ext, "hooks", "hooks.json"))
		require.NoError(t, err)
		assert.Equal(t, noHooks, !json.Valid(hooks) || !containsAfterAgent(hooks), "the AfterAgent hook goes with the hooks")
		require.NoError(t, h.Close())
		settings, _ := readIn(t, filepath.Join(person, ".gemini"), "settings.json")
		assert.Equal(t, `{"a":1}`, settings, "the person's settings are untouched")
	}
}

// containsAfterAgent reports whether a hooks.json holds an AfterAgent hook.
func containsAfterAgent(b []byte) bool {
	var v struct{ Hooks map[string]any }
	return json.Unmarshal(b, &v) == nil && v.Hooks["AfterAgent"] != nil
}

func TestNoMCPServerWithoutTheOption(t *testing.T) {
	h := &Setup{bin: "/bin/agentmux", dir: t.TempDir()}
	spec, _ := h.Spec(1, session.PaneSpec{Argv: []string{"claude"}}, parser.Builtins()["claude"])
	assert.NotContains(t, spec.Argv, "--mcp-config")
	spec, _ = h.Spec(2, session.PaneSpec{Argv: []string{"codex"}}, parser.Builtins()["codex"])
	for _, a := range spec.Argv {
		assert.NotContains(t, a, "mcp_servers")
	}
}
