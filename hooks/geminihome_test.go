package hooks

// A Gemini pane's own home: the person's files reached through links, the hook
// extension beside the person's extensions, and what Gemini wrote into the home given
// back to the person's ~/.gemini when the run ends. And the answer read from Gemini's
// chat file as Gemini itself reads the file back.

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/session"
)

// writeIn writes files (path: content) under dir.
func writeIn(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	}
}

// readIn returns the content of dir/name, "" with ok false when there is none.
func readIn(t *testing.T, dir, name string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if os.IsNotExist(err) {
		return "", false
	}
	require.NoError(t, err)
	return string(b), true
}

func TestGeminiHomeReachesThePersonsFiles(t *testing.T) {
	person := t.TempDir()
	writeIn(t, person, map[string]string{
		".gemini/settings.json":                                   `{"theme":"x"}`,
		".gemini/oauth_creds.json":                                `{"token":"t"}`,
		".gemini/extensions/tools/gemini-extension.json":          `{"name":"tools"}`,
		".gemini/extensions/extension-enablement.json":            `{}`,
		".agents/skills/a.md":                                     "skill",
		".gemini/tmp/project/chats/session-old.jsonl":             "{}",
		".gemini/extensions/tools/hooks/hooks.json":               `{"hooks":{}}`,
		".gemini/commands/review.toml":                            "prompt = 'x'",
		".gemini/GEMINI.md":                                       "memory",
		".gemini/history/project/shell_history":                   "ls",
		".gemini/extensions/tools/commands/deploy.toml":           "prompt = 'y'",
		".gemini/extensions/tools/.gemini-extension-install.json": `{}`,
	})
	g, err := newGeminiHome(t.TempDir(), 3, []string{"HOME=" + person}, map[string]string{"AfterAgent": "'/bin/agentmux' hook after-agent"}, nil)
	require.NoError(t, err)
	own := filepath.Join(g.dir, ".gemini")
	for _, name := range []string{"settings.json", "oauth_creds.json", "GEMINI.md", "commands/review.toml",
		"tmp/project/chats/session-old.jsonl", "history/project/shell_history",
		"extensions/tools/gemini-extension.json", "extensions/tools/commands/deploy.toml", "extensions/extension-enablement.json"} {
		got, ok := readIn(t, own, name)
		want, _ := readIn(t, filepath.Join(person, ".gemini"), name)
		assert.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	got, _ := readIn(t, g.dir, ".agents/skills/a.md")
	assert.Equal(t, "skill", got)

	var manifest struct{ Name string }
	b, ok := readIn(t, own, filepath.Join("extensions", geminiHookExtension, "gemini-extension.json"))
	require.True(t, ok)
	require.NoError(t, json.Unmarshal([]byte(b), &manifest))
	assert.Equal(t, geminiHookExtension, manifest.Name, "the extension's name is its folder's")
	var install struct{ Source, Type string }
	b, ok = readIn(t, own, filepath.Join("extensions", geminiHookExtension, ".gemini-extension-install.json"))
	require.True(t, ok, "without install metadata, a person's security.allowedExtensions stops Gemini starting")
	require.NoError(t, json.Unmarshal([]byte(b), &install))
	assert.Equal(t, "local", install.Type)
	assert.Equal(t, filepath.Join(own, "extensions", geminiHookExtension), install.Source)

	// Gemini writing through a link writes the person's file.
	writeIn(t, own, map[string]string{"settings.json": `{"theme":"y"}`})
	got, _ = readIn(t, person, ".gemini/settings.json")
	assert.Equal(t, `{"theme":"y"}`, got)

	require.NoError(t, g.Close())
	_, err = os.Stat(g.dir)
	assert.True(t, os.IsNotExist(err), "the home is removed")
	entries, err := os.ReadDir(filepath.Join(person, ".gemini", "extensions"))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"extension-enablement.json", "tools"}, names, "the hook extension never reaches the person's folder")
}

func TestGeminiHomeGivesWritesBack(t *testing.T) {
	person := t.TempDir()
	writeIn(t, person, map[string]string{
		".gemini/trustedFolders.json": `{"/a":"TRUST_FOLDER"}`,
		".gemini/settings.json":       `{}`,
	})
	g, err := newGeminiHome(t.TempDir(), 1, []string{"HOME=" + person}, map[string]string{"AfterAgent": "hook"}, nil)
	require.NoError(t, err)
	own := filepath.Join(g.dir, ".gemini")

	// trustedFolders.json written to a temporary file and renamed over the link.
	writeIn(t, own, map[string]string{"trustedFolders.json.tmp": `{"/a":"TRUST_FOLDER","/b":"TRUST_FOLDER"}`})
	require.NoError(t, os.Rename(filepath.Join(own, "trustedFolders.json.tmp"), filepath.Join(own, "trustedFolders.json")))
	// Files and folders the person did not have.
	writeIn(t, own, map[string]string{
		"installation_id":                      "id-1",
		"policies/auto.toml":                   "rule",
		"extensions/new/gemini-extension.json": `{"name":"new"}`,
	})
	// A file made here that someone made in the person's folder meanwhile: theirs stays.
	writeIn(t, own, map[string]string{"projects.json": "ours"})
	writeIn(t, person, map[string]string{".gemini/projects.json": "theirs"})

	require.NoError(t, g.Close())
	for name, want := range map[string]string{
		"trustedFolders.json":                  `{"/a":"TRUST_FOLDER","/b":"TRUST_FOLDER"}`,
		"installation_id":                      "id-1",
		"policies/auto.toml":                   "rule",
		"extensions/new/gemini-extension.json": `{"name":"new"}`,
		"projects.json":                        "theirs",
		"settings.json":                        `{}`,
	} {
		got, ok := readIn(t, filepath.Join(person, ".gemini"), name)
		assert.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	info, err := os.Lstat(filepath.Join(person, ".gemini", "settings.json"))
	require.NoError(t, err)
	assert.True(t, info.Mode().IsRegular(), "the person's files stay files")
}

func TestGeminiHomeForAPersonWithoutGemini(t *testing.T) {
	person := t.TempDir()
	g, err := newGeminiHome(t.TempDir(), 1, []string{"HOME=/elsewhere", "GEMINI_CLI_HOME=" + person}, map[string]string{"AfterAgent": "hook"}, nil)
	require.NoError(t, err)
	assert.Equal(t, person, g.person, "GEMINI_CLI_HOME is the person's Gemini home when set")
	_, ok := readIn(t, filepath.Join(g.dir, ".gemini", "extensions", geminiHookExtension), "hooks/hooks.json")
	assert.True(t, ok)
	// Gemini's first run: credentials and settings made in the home go to the person's.
	writeIn(t, filepath.Join(g.dir, ".gemini"), map[string]string{"oauth_creds.json": "c", "settings.json": "s"})
	require.NoError(t, g.Close())
	for _, name := range []string{"oauth_creds.json", "settings.json"} {
		_, ok := readIn(t, filepath.Join(person, ".gemini"), name)
		assert.True(t, ok, name)
	}
	_, err = os.Stat(filepath.Join(person, ".gemini", "extensions", geminiHookExtension))
	assert.True(t, os.IsNotExist(err))
}

func TestLastGeminiText(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, lines ...string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
		return path
	}
	// The shape Gemini CLI 0.61 writes (agents/hooks_test.go runs the real one).
	meta := `{"sessionId":"50bd","projectHash":"fd8e","startTime":"2026-11-26T16:49:38.775Z","kind":"main"}`
	setup := `{"$set":{"messages":[{"id":"c0","type":"user","content":[{"text":"<session_context>…"}]}]}}`
	user := func(id, text string) string {
		return `{"id":"` + id + `","timestamp":"t","type":"user","content":[{"text":"` + text + `"}]}`
	}
	gemini := func(id, text string) string {
		return `{"id":"` + id + `","timestamp":"t","type":"gemini","content":"` + text + `","thoughts":[],"tokens":{"input":5},"model":"m"}`
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"one turn", file("a.jsonl", meta, setup, user("u1", "write the plan"), `{"$set":{"lastUpdated":"t"}}`,
			gemini("g1", `| a |\n|---|\n\n`+"```go\\n\\tx()\\n```"), `{"$set":{"lastUpdated":"t"}}`), "| a |\n|---|\n\n```go\n\tx()\n```"},
		{"the last turn", file("b.jsonl", meta, user("u1", "q1"), gemini("g1", "old"), user("u2", "q2"), gemini("g2", "new")), "new"},
		{"a tool's result ends the narration before it", file("c.jsonl", meta, user("u1", "q"), gemini("g1", "Let me look."),
			`{"id":"r1","type":"user","content":[{"functionResponse":{"name":"ls","response":{}}}]}`, gemini("g2", "Found it.")), "Found it."},
		{"a message written again replaces itself", file("d.jsonl", meta, user("u1", "q"), gemini("g1", "draft"),
			`{"id":"g1","type":"gemini","content":"final","toolCalls":[]}`), "final"},
		{"parts, thoughts left out", file("e.jsonl", meta, user("u1", "q"),
			`{"id":"g1","type":"gemini","content":[{"text":"think","thought":true},{"text":"an"},{"text":"swer"}]}`), "answer"},
		{"rewound", file("f.jsonl", meta, user("u1", "q1"), gemini("g1", "kept"), user("u2", "q2"), gemini("g2", "gone"),
			`{"$rewindTo":"u2"}`), "kept"},
		{"all replaced", file("g.jsonl", meta, user("u1", "q1"), gemini("g1", "gone"),
			`{"$set":{"messages":[`+user("u9", "q")+`,`+gemini("g9", "compressed")+`]}}`), "compressed"},
		{"a turn not answered yet", file("h.jsonl", meta, user("u1", "q1"), gemini("g1", "a1"), user("u2", "q2")), ""},
		{"older versions' one object", file("i.json", `{"sessionId":"s","messages":[`+user("u1", "q")+`,`+gemini("g1", "whole")+`]}`), "whole"},
		{"broken lines skipped", file("j.jsonl", meta, user("u1", "q"), `{"id":"g0","type":"gem`, gemini("g1", "fine")), "fine"},
		{"no file", filepath.Join(dir, "none.jsonl"), ""},
		{"no path", "", ""},
	} {
		assert.Equal(t, tc.want, lastGeminiText(tc.path), tc.name)
	}
}

// An agentmux killed before it could close its hook folder leaves Gemini's writes in
// its panes' homes: the next run gives them to the person's ~/.gemini and removes the
// folder; a running agentmux's folder, and one being made (no owner yet), stay.
func TestHookDirsOfAKilledRunAreFinished(t *testing.T) {
	tmp, person := t.TempDir(), t.TempDir()
	require.NoError(t, os.Chmod(tmp, 0o700)) // as hookRoot makes it
	t.Setenv("HOME", person)
	t.Setenv("GEMINI_CLI_HOME", "")
	writeIn(t, person, map[string]string{".gemini/settings.json": "{}"})
	dead := exec.Command("true")
	require.NoError(t, dead.Run())
	run := func(name, owner string) (string, *geminiHome) {
		dir := filepath.Join(tmp, "run-"+name)
		require.NoError(t, os.Mkdir(dir, 0o700))
		if owner != "" {
			writeIn(t, dir, map[string]string{hookOwnerFile: owner})
		}
		g, err := newGeminiHome(dir, 1, []string{"HOME=" + person}, map[string]string{"AfterAgent": "hook"}, nil)
		require.NoError(t, err)
		return dir, g
	}
	killed, g := run("killed", strconv.Itoa(dead.Process.Pid))
	own := filepath.Join(g.dir, ".gemini")
	writeIn(t, own, map[string]string{"installation_id": "id-1", "settings.json.tmp": `{"theme":"x"}`})
	require.NoError(t, os.Rename(filepath.Join(own, "settings.json.tmp"), filepath.Join(own, "settings.json")))
	alive, _ := run("alive", strconv.Itoa(os.Getpid()))
	making, _ := run("making", "")

	recoverHookDirs(tmp, slog.New(slog.DiscardHandler))
	for name, want := range map[string]string{"installation_id": "id-1", "settings.json": `{"theme":"x"}`} {
		got, ok := readIn(t, filepath.Join(person, ".gemini"), name)
		assert.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	_, err := os.Stat(killed)
	assert.True(t, os.IsNotExist(err), "the killed run's folder is removed")
	for _, dir := range []string{alive, making} {
		_, err := os.Stat(dir)
		assert.NoError(t, err, "%s stays", dir)
	}
}

// BenchmarkLastGeminiText reads the answer from a long session's chat file: 2 000 turns,
// each a prompt and a 4 KB answer with a tool call (about 9 MB). Gemini waits for its
// hook, so this is time added to every turn's end.
func BenchmarkLastGeminiText(b *testing.B) {
	var lines []string
	lines = append(lines, `{"sessionId":"s","kind":"main"}`)
	answer := strings.Repeat("word ", 800)
	for i := range 2000 {
		lines = append(lines,
			fmt.Sprintf(`{"id":"u%d","type":"user","content":[{"text":"question %d"}]}`, i, i),
			fmt.Sprintf(`{"id":"g%d","type":"gemini","content":%q,"thoughts":[],"tokens":{"input":5},"model":"m"}`, i, answer),
			`{"$set":{"lastUpdated":"t"}}`)
	}
	path := filepath.Join(b.TempDir(), "session.jsonl")
	data := []byte(strings.Join(lines, "\n") + "\n")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if lastGeminiText(path) != answer {
			b.Fatal("wrong answer")
		}
	}
}

// A Gemini home that cannot be made (here: the person's home is a file) leaves the pane
// without hooks, its spec as it was: it ends turns by its screen.
func TestGeminiPaneWithoutAHomeGetsNoHooks(t *testing.T) {
	notADir := filepath.Join(t.TempDir(), "file")
	writeIn(t, filepath.Dir(notADir), map[string]string{"file": "x"})
	h := &Setup{bin: "/bin/agentmux", dir: t.TempDir()}
	gem := session.PaneSpec{Argv: []string{"gemini"}, Env: []string{"HOME=" + notADir}}
	spec, ok := h.Spec(1, gem, parser.Builtins()["gemini"])
	assert.False(t, ok)
	assert.Equal(t, gem, spec)
	entries, err := os.ReadDir(h.dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing left behind")
}
