package worktree

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Real git in temporary repositories: a tree is made from HEAD on its branch outside
// the repository, its changes are seen and shown, it is removed only when unchanged
// (ignored files count as changes), it is locked while a pane runs in it, and what a
// start killed half way leaves (states made as git leaves them) is listed and removed.

// repo makes a repository with one commit (and, when dirty, an uncommitted change).
func repo(t *testing.T, dirty bool) string {
	t.Helper()
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	run("init", "-q", "-b", "main")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o600))
	run("add", "a.txt")
	run("commit", "-q", "-m", "first")
	if dirty {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("uncommitted\n"), 0o600))
	}
	return dir
}

func commitIn(t *testing.T, dir, file, text string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, file), []byte(text), 0o600))
	for _, args := range [][]string{{"add", file}, {"commit", "-q", "-m", "agent's work"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
}

func TestCreateChangeDiffKeepAndRemove(t *testing.T) {
	r := repo(t, true) // the repository's own uncommitted change stays out of the tree
	root := t.TempDir()
	sub := filepath.Join(r, "sub")
	require.NoError(t, os.Mkdir(sub, 0o700))
	tr, err := Create(sub, root, "s1", "claude")
	require.NoError(t, err)
	assert.Equal(t, "agentmux/s1/claude", tr.Branch)
	assert.True(t, strings.HasPrefix(tr.Path, root), "outside the repository: %s", tr.Path)
	got, err := os.ReadFile(filepath.Join(tr.Path, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "one\n", string(got), "made from HEAD, not the uncommitted change")
	st, err := tr.State()
	require.NoError(t, err)
	assert.False(t, st.Changed())
	assert.Equal(t, "clean", st.String())

	// A second session in the same repository gets a tree of its own.
	tr2, err := Create(r, root, "s2", "claude")
	require.NoError(t, err)
	assert.NotEqual(t, tr.Path, tr2.Path)
	_, err = Create(r, root, "s1", "claude")
	assert.ErrorIs(t, err, ErrTaken, "a taken branch")
	assert.ErrorContains(t, err, "agentmux worktree ls", "says where to look")

	// The agent commits one change and leaves another uncommitted, plus a new file.
	commitIn(t, tr.Path, "b.txt", "from the agent\n")
	require.NoError(t, os.WriteFile(filepath.Join(tr.Path, "a.txt"), []byte("one\ntwo\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(tr.Path, "new.txt"), []byte("x\n"), 0o600))
	st, err = tr.State()
	require.NoError(t, err)
	assert.Equal(t, State{Dirty: true, Ahead: 1}, st)
	assert.Equal(t, "changed, 1 ahead", st.String())
	diff, err := tr.Diff(false)
	require.NoError(t, err)
	for _, want := range []string{"agent's work", "b.txt", "+from the agent", "+two", "untracked files:\n  new.txt"} {
		assert.Contains(t, diff, want)
	}
	colored, err := tr.Diff(true)
	require.NoError(t, err)
	assert.Contains(t, colored, "\x1b[32mtwo", "git's colours")

	// Listed from the repository; a changed tree is kept, an unchanged one removed.
	trees, err := List(r)
	require.NoError(t, err)
	require.Len(t, trees, 2)
	found, err := Find(r, "s1/claude")
	require.NoError(t, err)
	assert.Equal(t, tr.Base, found.Base)
	_, err = Find(r, "claude")
	assert.ErrorContains(t, err, "SESSION/claude", "two sessions' trees of one name")
	removed, err := tr.Remove(false)
	require.NoError(t, err)
	assert.False(t, removed, "a changed tree is kept")
	assert.DirExists(t, tr.Path)
	removed, err = tr2.Remove(false)
	require.NoError(t, err)
	assert.True(t, removed)
	assert.NoDirExists(t, tr2.Path)
	_, err = git(r, "rev-parse", "--verify", "--quiet", "refs/heads/agentmux/s2/claude")
	assert.Error(t, err, "its branch went too")
	removed, err = tr.Remove(true)
	require.NoError(t, err)
	assert.True(t, removed, "forced after the person was asked")
	trees, err = List(r)
	require.NoError(t, err)
	assert.Empty(t, trees)
}

func TestCreateOutsideARepository(t *testing.T) {
	_, err := Create(t.TempDir(), t.TempDir(), "s", "a")
	assert.True(t, errors.Is(err, ErrNotRepo), "%v", err)
	assert.ErrorContains(t, err, "not inside a git repository")
}

// Reading a tree's state takes no lock an agent's git in the tree could run into: a
// file whose stat data the index holds stale would make git status rewrite the index
// (under index.lock) to refresh it; State leaves the index as it was.
func TestStateTakesNoIndexLock(t *testing.T) {
	r := repo(t, false)
	tr, err := Create(r, t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	index := strings.TrimSpace(gitOut(t, tr.Path, "rev-parse", "--git-path", "index"))
	if !filepath.IsAbs(index) {
		index = filepath.Join(tr.Path, index)
	}
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(tr.Path, "a.txt"), later, later)) // stale stat data
	before, err := os.ReadFile(index)
	require.NoError(t, err)
	for range 2 {
		st, err := tr.State()
		require.NoError(t, err)
		assert.Equal(t, "clean", st.String())
	}
	after, err := os.ReadFile(index)
	require.NoError(t, err)
	assert.Equal(t, before, after, "git status refreshed the index: it took index.lock to write it")
}

// gitOut runs git in dir and returns its output.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	require.NoError(t, err)
	return string(out)
}
