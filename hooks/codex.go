package hooks

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/agentmux/agentmux/proto"
)

// Codex's notify names no file: its usage is in the rollout file of the thread
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-THREAD.jsonl, CODEX_HOME defaulting to
// ~/.codex), whose turn_context entry carries the turn id the notify gives. The hook
// looks in the newest few rollout files written lately for that turn.

// codexTurnID reports whether s has the form of a turn id the hook looks for (1 to 128
// ASCII letters, digits, '_' or '-'): anything else is not searched for.
func codexTurnID(s string) bool { return proto.IsWord(s, 128) }

// codexRecent bounds the search: files written within it, newest first, at most
// codexFiles of them, each read up to codexRead bytes.
const (
	codexRecent = time.Hour
	codexFiles  = 8
	codexRead   = 64 << 20
)

// codexRollout returns the rollout file holding turn id turnID, "" when none is found.
func codexRollout(turnID string, now time.Time) string {
	if !codexTurnID(turnID) {
		return ""
	}
	home := os.Getenv("CODEX_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		home = filepath.Join(h, ".codex")
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, day := range []time.Time{now, now.Add(-24 * time.Hour)} {
		dir := filepath.Join(home, "sessions", day.Format("2006"), day.Format("01"), day.Format("02"))
		paths, _ := filepath.Glob(filepath.Join(dir, "rollout-*.jsonl"))
		for _, p := range paths {
			if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() && now.Sub(st.ModTime()) < codexRecent {
				files = append(files, file{p, st.ModTime()})
			}
		}
	}
	slices.SortFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	want := []byte(`"turn_id":"` + turnID + `"`)
	for i, f := range files {
		if i == codexFiles {
			break
		}
		if fileHas(f.path, want) {
			return f.path
		}
	}
	return ""
}

// fileHas reports whether the file at path holds b within its first codexRead bytes.
func fileHas(path string, b []byte) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, codexRead))
	return err == nil && bytes.Contains(data, b)
}
