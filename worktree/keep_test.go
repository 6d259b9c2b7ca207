package worktree

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Ignored and untracked files keep a tree; a locked tree is refused until unlocked.

// ignore commits a .gitignore with the given patterns in repository dir.
func ignore(t *testing.T, dir string, patterns string) {
	t.Helper()
	commitIn(t, dir, ".gitignore", patterns)
}

func TestIgnoredFilesKeepTheTree(t *testing.T) {
	r := repo(t, false)
	ignore(t, r, "notes/\n.env\n")
	root := t.TempDir()
	for _, tc := range []struct {
		name  string
		write func(dir string)
		state string
	}{
		{"env", func(dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN=x\n"), 0o600))
		}, "ignored: .env"},
		{"notes", func(dir string) {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "notes"), 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "notes", "plan.md"), []byte("plan\n"), 0o600))
		}, "ignored: notes/"},
		{"untracked", func(dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "new.txt"), []byte("x\n"), 0o600))
		}, "changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Create(r, root, "s", tc.name)
			require.NoError(t, err)
			tc.write(tr.Path)
			st, err := tr.State()
			require.NoError(t, err)
			assert.True(t, st.Changed())
			assert.Equal(t, tc.state, st.String())
			removed, err := tr.Remove(false)
			require.NoError(t, err)
			assert.False(t, removed, "kept for what the agent wrote")
			assert.DirExists(t, tr.Path)
			if tc.name != "untracked" {
				d, err := tr.Diff(false)
				require.NoError(t, err)
				assert.Contains(t, d, "ignored files", "the diff names them")
			}
			removed, err = tr.Remove(true)
			require.NoError(t, err)
			assert.True(t, removed, "the person forces it")
			assert.NoDirExists(t, tr.Path)
		})
	}
}

func TestManyIgnoredSaysHowManyMore(t *testing.T) {
	st := State{Ignored: []string{"a", "b", "c", "d", "e"}}
	assert.Equal(t, "ignored: a, b, c and 2 more", st.String())
}

func TestLockedWhileAPaneRuns(t *testing.T) {
	r := repo(t, false)
	tr, err := Create(r, t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	h := Holder{Session: "s1", Pane: "claude", PID: 4242}
	require.NoError(t, tr.Lock(h))

	trees, err := List(r)
	require.NoError(t, err)
	require.Len(t, trees, 1)
	assert.True(t, trees[0].Locked)
	assert.Equal(t, "agentmux session s1 pane claude (pid 4242)", trees[0].LockReason)
	got, ok := ParseHolder(trees[0].LockReason)
	assert.True(t, ok)
	assert.Equal(t, h, got)
	for _, other := range []string{"", "initializing", "agentmux session s1 pane claude (pid 4242) and more", "mine"} {
		_, ok := ParseHolder(other)
		assert.False(t, ok, "%q is no holder", other)
	}

	// git itself leaves a locked tree alone; so does Remove.
	out, err := exec.Command("git", "-C", r, "worktree", "remove", tr.Path).CombinedOutput()
	assert.Error(t, err, "git worktree remove of a locked tree: %s", out)
	_, err = trees[0].Remove(true)
	assert.ErrorIs(t, err, ErrLocked)
	assert.DirExists(t, tr.Path)

	require.NoError(t, trees[0].Unlock())
	require.NoError(t, trees[0].Unlock(), "unlocking twice is no error")
	removed, err := trees[0].Remove(false)
	require.NoError(t, err)
	assert.True(t, removed)
}
