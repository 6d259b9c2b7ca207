package hooks

// A Qwen Code pane's hook: a system defaults file of agentmux's, named by
// QWEN_CODE_SYSTEM_DEFAULTS_PATH, with one Stop hook; the person's ~/.qwen untouched,
// and a person with system defaults of their own keeps them (the pane then has no
// hooks).

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/session"
)

// snapshot is every entry under dir with its mode, size, time and content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		s := info.Mode().String() + " " + info.ModTime().String()
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			s += " " + string(b)
		}
		out[p] = s
		return nil
	}))
	return out
}

// qwenPerson makes a person's home with a ~/.qwen of settings and credentials, and a
// system settings folder of their machine with no defaults file in it; it clears the
// defaults variable of the test's own environment.
func qwenPerson(t *testing.T) (home, system string) {
	t.Setenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH", "")
	home, system = t.TempDir(), t.TempDir()
	writeIn(t, home, map[string]string{
		".qwen/settings.json":    `{"$version":4,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"theirs"}]}]}}`,
		".qwen/oauth_creds.json": `{"token":"t"}`,
		".qwen/QWEN.md":          "memory",
	})
	return home, filepath.Join(system, "settings.json")
}

func TestQwenPaneGetsItsHooksInItsDefaultsLayer(t *testing.T) {
	home, system := qwenPerson(t)
	before := snapshot(t, home)
	h := &Setup{bin: "/opt/agent mux/agentmux", dir: t.TempDir()}
	in := session.PaneSpec{Argv: []string{"qwen", "--yolo"}, Env: []string{"A=1", "HOME=" + home, "QWEN_CODE_SYSTEM_SETTINGS_PATH=" + system}}
	spec, ok := h.Spec(5, in, parser.Builtins()["qwen"])
	require.True(t, ok)
	assert.Equal(t, in.Argv, spec.Argv, "Qwen takes no settings flag")
	require.Len(t, spec.Env, 4)
	assert.Equal(t, in.Env, spec.Env[:3], "the pane's own environment is kept")
	path, found := strings.CutPrefix(spec.Env[3], "QWEN_CODE_SYSTEM_DEFAULTS_PATH=")
	require.True(t, found, spec.Env)
	assert.Equal(t, filepath.Join(h.dir, "5-qwen-defaults.json"), path)

	info, err := os.Lstat(path)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), info.Mode(), "a private file, no link")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var settings struct {
		Version int `json:"$version"`
		Hooks   map[string][]struct {
			Hooks []struct{ Type, Name, Command string }
		}
	}
	require.NoError(t, json.Unmarshal(b, &settings))
	assert.Equal(t, qwenSettingsVersion, settings.Version, "without it Qwen rewrites the file")
	require.Len(t, settings.Hooks, 2)
	require.Len(t, settings.Hooks["Stop"], 1)
	assert.Equal(t, []struct{ Type, Name, Command string }{{"command", "agentmux", `'/opt/agent mux/agentmux' hook qwen-stop`}},
		settings.Hooks["Stop"][0].Hooks)
	require.Len(t, settings.Hooks["Notification"], 1, "its approval prompts")
	assert.Equal(t, []struct{ Type, Name, Command string }{{"command", "agentmux", `'/opt/agent mux/agentmux' hook qwen-notification`}},
		settings.Hooks["Notification"][0].Hooks)

	assert.Equal(t, before, snapshot(t, home), "nothing of the person's ~/.qwen is touched")

	// Two Qwen panes each get their own; the run's end removes them.
	spec2, ok := h.Spec(6, in, parser.Builtins()["qwen"])
	require.True(t, ok)
	assert.Equal(t, "QWEN_CODE_SYSTEM_DEFAULTS_PATH="+filepath.Join(h.dir, "6-qwen-defaults.json"), spec2.Env[3])
	require.NoError(t, h.Close())
	_, err = os.Lstat(path)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestQwenKeepsThePersonsOwnDefaults(t *testing.T) {
	home, system := qwenPerson(t)
	theirs := filepath.Join(filepath.Dir(system), "system-defaults.json")
	elsewhere := filepath.Join(t.TempDir(), "defaults.json")
	for _, tc := range []struct {
		name  string
		env   []string
		setup func()
	}{
		{"named by the variable", []string{"QWEN_CODE_SYSTEM_DEFAULTS_PATH=" + elsewhere}, func() {}},
		{"beside the system settings", nil, func() { writeIn(t, filepath.Dir(system), map[string]string{"system-defaults.json": `{}`}) }},
		{"a link there, even dangling", nil, func() { require.NoError(t, os.Symlink("/nowhere", theirs)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(theirs)
			tc.setup()
			h := &Setup{bin: "/bin/agentmux", dir: t.TempDir()}
			in := session.PaneSpec{Argv: []string{"qwen"}, Env: append([]string{"HOME=" + home, "QWEN_CODE_SYSTEM_SETTINGS_PATH=" + system}, tc.env...)}
			spec, ok := h.Spec(1, in, parser.Builtins()["qwen"])
			assert.False(t, ok, "agentmux's defaults would hide the person's")
			assert.Equal(t, in, spec)
			entries, err := os.ReadDir(h.dir)
			require.NoError(t, err)
			assert.Empty(t, entries, "nothing written")
		})
	}
	// Without a system settings variable, the defaults are looked for beside Qwen's
	// own system settings path.
	path, named := qwenSystemDefaults([]string{"QWEN_CODE_SYSTEM_SETTINGS_PATH="})
	assert.False(t, named)
	assert.Equal(t, "system-defaults.json", filepath.Base(path))
	assert.True(t, filepath.IsAbs(path), path)
}

func TestQwenStopReports(t *testing.T) {
	payload, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": "/nonexistent", "hook_event_name": "Stop",
		"stop_hook_active": false, "last_assistant_message": "| a | b |\n|---|---|\n\n```go\n\tx()\n```"})
	for _, tc := range []struct{ payload, text string }{
		{string(payload), "| a | b |\n|---|---|\n\n```go\n\tx()\n```"},
		{`{"last_assistant_message":"[no response text]"}`, ""},
		{`{}`, ""},
		{`not json`, ""},
	} {
		h, ok := hookReport("qwen-stop", []byte(tc.payload))
		require.True(t, ok, "every Stop is a turn end: %s", tc.payload)
		assert.Equal(t, "qwen", h.CLI)
		assert.Equal(t, tc.text, h.Text, tc.payload)
	}
}
