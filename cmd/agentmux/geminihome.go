package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
// Gemini replaces some files by writing a new one and renaming it over the old
// (trustedFolders.json, state.json): in this home that replaces the link with a file.
// And a file it makes that the person did not have yet lands in this home. When the run
// ends, Close copies both into ~/.gemini, where Gemini meant them to go; when agentmux
// was killed instead, the next run does (recoverHookDirs, from the home's manifest).

// geminiHookExtension is the extension's folder name and its name in Gemini.
const geminiHookExtension = "agentmux-session-hooks"

// geminiHome is one Gemini pane's home.
type geminiHome struct {
	dir    string          // GEMINI_CLI_HOME
	person string          // the person's Gemini home (holding .gemini)
	linked map[string]bool // the links made, by path in dir
}

// personGeminiHome is the folder holding the person's .gemini: GEMINI_CLI_HOME or HOME
// as the pane's environment (env, then agentmux's own) has them.
func personGeminiHome(env []string) (string, error) {
	get := func(key string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], key+"="); ok {
				return v
			}
		}
		return os.Getenv(key)
	}
	if d := get("GEMINI_CLI_HOME"); d != "" {
		return d, nil
	}
	if d := get("HOME"); d != "" {
		return d, nil
	}
	return os.UserHomeDir()
}

// newGeminiHome makes pane id's Gemini home in runDir, its AfterAgent hook running
// command.
func newGeminiHome(runDir string, id int, env []string, command string) (*geminiHome, error) {
	person, err := personGeminiHome(env)
	if err != nil {
		return nil, fmt.Errorf("gemini home: %w", err)
	}
	dir, err := os.MkdirTemp(runDir, fmt.Sprintf("%d-gemini-", id))
	if err != nil {
		return nil, fmt.Errorf("gemini home: %w", err)
	}
	g := &geminiHome{dir: dir, person: person, linked: map[string]bool{}}
	if err := g.build(command); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("gemini home: %w", err)
	}
	if err := g.save(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("gemini home: %w", err)
	}
	return g, nil
}

// geminiManifest is the file in a Gemini home that lets a later run finish it when the
// agentmux that made it was killed (recoverHookDirs): whose home it reaches and which
// of its entries were links when it was made.
const geminiManifest = "agentmux-home.json"

type geminiManifestData struct {
	Person string   `json:"person"`
	Linked []string `json:"linked"` // paths relative to the home
}

// save writes the home's manifest.
func (g *geminiHome) save() error {
	m := geminiManifestData{Person: g.person}
	for path := range g.linked {
		rel, err := filepath.Rel(g.dir, path)
		if err != nil {
			return err
		}
		m.Linked = append(m.Linked, rel)
	}
	slices.Sort(m.Linked)
	b, _ := json.Marshal(m)
	return os.WriteFile(filepath.Join(g.dir, geminiManifest), b, 0o600)
}

// loadGeminiHome reads back the home in dir from its manifest.
func loadGeminiHome(dir string) (*geminiHome, error) {
	b, err := os.ReadFile(filepath.Join(dir, geminiManifest))
	if err != nil {
		return nil, err
	}
	var m geminiManifestData
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", geminiManifest, err)
	}
	if m.Person == "" {
		return nil, fmt.Errorf("%s: no person's home", geminiManifest)
	}
	g := &geminiHome{dir: dir, person: m.Person, linked: map[string]bool{}}
	for _, rel := range m.Linked {
		g.linked[filepath.Join(dir, rel)] = true
	}
	return g, nil
}

// build fills the home: links to the person's entries, and the hook extension.
func (g *geminiHome) build(command string) error {
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
	// Named, Gemini shows "Executing Hook: agentmux" while it runs, not the command.
	hook := map[string]any{"type": "command", "name": "agentmux", "command": command}
	hooks := map[string]any{"hooks": map[string]any{"AfterAgent": []any{map[string]any{"hooks": []any{hook}}}}}
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
		if err := os.Symlink(filepath.Join(from, e.Name()), link); err != nil {
			return err
		}
		g.linked[link] = true
	}
	return nil
}

// Close copies what Gemini wrote into this home rather than through its links into the
// person's ~/.gemini (a file replaced by rename, a file or folder the person did not
// have), then removes the home. An entry the person has too is left alone when Gemini
// made it new here (someone else made the person's meanwhile); a replaced link is
// copied over the person's file, as Gemini's own rename would have done.
func (g *geminiHome) Close() error {
	err := g.copyBack(filepath.Join(g.dir, ".gemini"), filepath.Join(g.person, ".gemini"), "extensions")
	err = errors.Join(err, g.copyBack(filepath.Join(g.dir, ".gemini", "extensions"),
		filepath.Join(g.person, ".gemini", "extensions"), geminiHookExtension))
	return errors.Join(err, os.RemoveAll(g.dir))
}

// copyBack copies the entries of own that are no links into real, except skip.
func (g *geminiHome) copyBack(own, real, skip string) error {
	entries, err := os.ReadDir(own)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if e.Name() == skip || e.Type()&fs.ModeSymlink != 0 {
			continue
		}
		src, dst := filepath.Join(own, e.Name()), filepath.Join(real, e.Name())
		if err := os.MkdirAll(real, 0o700); err != nil {
			return err
		}
		if _, err := os.Lstat(dst); err == nil && !g.linked[src] {
			continue // new here, and the person has one too: theirs stays
		}
		if e.IsDir() {
			errs = append(errs, os.CopyFS(dst, os.DirFS(src)))
			continue
		}
		errs = append(errs, copyFile(src, dst))
	}
	return errors.Join(errs...)
}

// copyFile writes src's bytes and mode to dst.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, info.Mode().Perm())
}
