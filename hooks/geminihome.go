package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Gemini CLI (0.61) reads hooks from its settings files and its extensions, all of them
// under its home (~/.gemini) or the project's .gemini folder, and none from its command
// line. It takes its home from GEMINI_CLI_HOME when that is set. So a Gemini pane gets
// a home of its own, made by agentmux for the run:
//
//	<run dir>/<id>-gemini-*/            GEMINI_CLI_HOME
//	    .agents    -> ~/.agents         (Gemini's global agents folder)
//	    .gemini/
//	        settings.json, tmp, …   -> ~/.gemini/…   one link per entry
//	        extensions/
//	            <each of the person's> -> ~/.gemini/extensions/…
//	            agentmux-session-hooks/  an extension with one AfterAgent hook
//
// Everything the person has is reached through links, so Gemini reads and writes the
// person's own files (settings, credentials, chats) as it would without agentmux, and
// no file of the person's is edited. The hook is an extension's because Gemini runs a
// settings file's hooks only in a trusted folder and an extension's everywhere.
//
// Gemini settings files cannot carry the hook instead (GEMINI_CLI_SYSTEM_SETTINGS_PATH
// would add one without a home of its own): Gemini runs the hooks of its merged
// settings, every layer, only in trusted folders, and reads extensions only from
// <home>/.gemini/extensions.
//
// Gemini replaces some files by writing a new one and renaming it over the old
// (state.json, projects.json): in this home that replaces the link with a file. And a
// file it makes that the person did not have yet lands in this home. When the run ends,
// Close copies both into ~/.gemini, where Gemini meant them to go, when that is safe
// (geminicopy.go); when agentmux was killed instead, the next run does
// (recoverHookDirs). trustedFolders.json, the one the person edits through Gemini most,
// is not copied at all: GEMINI_CLI_TRUSTED_FOLDERS_PATH names the person's own file.

// geminiHookExtension is the extension's folder name and its name in Gemini.
const geminiHookExtension = "agentmux-session-hooks"

// geminiHome is one Gemini pane's home.
type geminiHome struct {
	dir    string              // GEMINI_CLI_HOME
	person string              // the person's Gemini home (holding .gemini)
	linked map[string]fileMark // the links made, by path relative to dir: the person's entry as it was
}

// fileMark is how an entry of the person's was when its link was made: a later
// difference means someone changed it since (the change time catches a file put back
// with its old size, time and even inode).
type fileMark struct {
	Size  int64       `json:"size"`
	Mtime int64       `json:"mtime"` // nanoseconds
	Ctime int64       `json:"ctime"` // nanoseconds: no one can set it back
	Ino   uint64      `json:"ino"`
	Mode  fs.FileMode `json:"mode"`
}

// markOf is info's fileMark.
func markOf(info fs.FileInfo) fileMark {
	m := fileMark{Size: info.Size(), Mtime: info.ModTime().UnixNano(), Mode: info.Mode()}
	if sys, ok := info.Sys().(*syscall.Stat_t); ok {
		m.Ino, m.Ctime = sys.Ino, changeTime(sys)
	}
	if info.IsDir() {
		m.Size, m.Mtime, m.Ctime = 0, 0, 0 // a folder changes as Gemini writes in it through the link
	}
	return m
}

// personGeminiHome is the folder holding the person's .gemini: GEMINI_CLI_HOME or HOME
// as the pane's environment (env, then agentmux's own) has them.
func personGeminiHome(env []string) (string, error) {
	if d := lookupEnv(env, "GEMINI_CLI_HOME"); d != "" {
		return d, nil
	}
	if d := lookupEnv(env, "HOME"); d != "" {
		return d, nil
	}
	return os.UserHomeDir()
}

// lookupEnv is key's value in env (its last), else in agentmux's own environment.
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return os.Getenv(key)
}

// newGeminiHome makes pane id's Gemini home in runDir, its extension's hooks running
// the commands of events (AfterAgent, Notification) by event (none: no hooks), and
// declaring agentmux's MCP server when mcp is not nil.
func newGeminiHome(runDir string, id int, env []string, events map[string]string, mcp map[string]any) (*geminiHome, error) {
	person, err := personGeminiHome(env)
	if err != nil {
		return nil, fmt.Errorf("gemini home: %w", err)
	}
	dir, err := os.MkdirTemp(runDir, fmt.Sprintf("%d-gemini-", id))
	if err != nil {
		return nil, fmt.Errorf("gemini home: %w", err)
	}
	g := &geminiHome{dir: dir, person: person, linked: map[string]fileMark{}}
	if err := g.build(events, mcp); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("gemini home: %w", err)
	}
	if err := g.save(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("gemini home: %w", err)
	}
	return g, nil
}

// env is what the pane's environment gets for this home: GEMINI_CLI_HOME, and the
// person's own trustedFolders.json unless env names one already (Gemini replaces that
// file by renaming, which in this home would cut the link).
func (g *geminiHome) env(env []string) []string {
	add := []string{"GEMINI_CLI_HOME=" + g.dir}
	if lookupEnv(env, "GEMINI_CLI_TRUSTED_FOLDERS_PATH") == "" {
		add = append(add, "GEMINI_CLI_TRUSTED_FOLDERS_PATH="+filepath.Join(g.person, ".gemini", "trustedFolders.json"))
	}
	return append(slices.Clone(env), add...)
}

// geminiManifest is the file in a Gemini home that lets a later run finish it when the
// agentmux that made it was killed (recoverHookDirs): whose home it was made for (a
// check only: a later run gives back to its own person's home) and how the entries it
// linked were when it was made.
const geminiManifest = "agentmux-home.json"

type geminiManifestData struct {
	Person string              `json:"person"`
	Linked map[string]fileMark `json:"marks"` // by path relative to the home
}

// save writes the home's manifest.
func (g *geminiHome) save() error {
	b, _ := json.Marshal(geminiManifestData{Person: g.person, Linked: g.linked})
	return os.WriteFile(filepath.Join(g.dir, geminiManifest), b, 0o600)
}

// errOtherPerson: a killed run's Gemini home was made for another home than this run's.
var errOtherPerson = errors.New("made for another Gemini home: not given back")

// loadGeminiHome reads back the home in dir, made by an earlier run of this user's, to
// give back to person's Gemini home. The home and its manifest must be this user's own
// and closed to others, its .gemini no link, and the manifest made for person.
func loadGeminiHome(dir, person string) (*geminiHome, error) {
	if err := ownPrivateDir(dir); err != nil {
		return nil, err
	}
	if err := ownPrivateDir(filepath.Join(dir, ".gemini")); err != nil {
		return nil, err
	}
	b, err := readOwnFile(filepath.Join(dir, geminiManifest), 1<<20)
	if err != nil {
		return nil, err
	}
	var m geminiManifestData
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", geminiManifest, err)
	}
	if filepath.Clean(m.Person) != filepath.Clean(person) {
		return nil, fmt.Errorf("%s: %w", dir, errOtherPerson)
	}
	if m.Linked == nil {
		m.Linked = map[string]fileMark{}
	}
	return &geminiHome{dir: dir, person: person, linked: m.Linked}, nil
}

// build fills the home: links to the person's entries, and the hook extension.
func (g *geminiHome) build(events map[string]string, mcp map[string]any) error {
	real := filepath.Join(g.person, ".gemini")
	// Gemini makes ~/.gemini and its tmp (where chats are kept) on every start; made
	// here first, they are the person's, not this home's.
	if err := os.MkdirAll(filepath.Join(real, "tmp"), 0o700); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(g.person, ".agents")); err == nil {
		if err := os.Symlink(filepath.Join(g.person, ".agents"), filepath.Join(g.dir, ".agents")); err != nil {
			return err
		}
	}
	own := filepath.Join(g.dir, ".gemini")
	if err := g.linkEntries(real, own, "extensions"); err != nil {
		return err
	}
	ext := filepath.Join(own, "extensions")
	if err := g.linkEntries(filepath.Join(real, "extensions"), ext, geminiHookExtension); err != nil {
		return err
	}
	manifest := map[string]any{
		"name":        geminiHookExtension,
		"version":     "1.0.0",
		"description": "agentmux: tells the agentmux session this pane runs in when a turn ends",
	}
	if mcp != nil {
		manifest["mcpServers"] = map[string]any{MCPServerName: mcp}
	}
	// Named, Gemini shows "Executing Hook: agentmux" while it runs, not the command.
	hooks := namedHooks(events)
	// Install metadata, as Gemini writes for an extension installed from a folder:
	// without it, a person's security.allowedExtensions makes Gemini fail to start; with
	// it, that setting skips the extension (no hooks: turns end by the screen).
	install := map[string]any{"source": filepath.Join(ext, geminiHookExtension), "type": "local"}
	for name, v := range map[string]any{
		"gemini-extension.json":              manifest,
		filepath.Join("hooks", "hooks.json"): hooks,
		".gemini-extension-install.json":     install,
	} {
		path := filepath.Join(ext, geminiHookExtension, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return err
		}
		b, _ := json.MarshalIndent(v, "", "  ")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// linkEntries makes dir and in it a link to each entry of from (a missing from has
// none), except skip.
func (g *geminiHome) linkEntries(from, dir, skip string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == skip {
			continue
		}
		link := filepath.Join(dir, e.Name())
		info, err := os.Lstat(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.Symlink(filepath.Join(from, e.Name()), link); err != nil {
			return err
		}
		rel, err := filepath.Rel(g.dir, link)
		if err != nil {
			return err
		}
		g.linked[rel] = markOf(info)
	}
	return nil
}
