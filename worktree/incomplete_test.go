package worktree

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What a start killed half way leaves: each state made the way git leaves it, then
// real git worktree add processes killed with SIGKILL at a spread of moments. Every
// leftover is listed (a branch, a worktree entry or a recorded start that List does not
// show would be invisible to agentmux worktree ls), and Remove clears it all.

// gitIn runs git in dir for a test.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git(dir, args...)
	require.NoError(t, err)
	return out
}

// leftovers is every trace of a pane's tree git holds: agentmux branches, worktree
// entries besides the main one, recorded starts.
func leftovers(t *testing.T, r string) []string {
	t.Helper()
	var out []string
	if b := gitIn(t, r, "for-each-ref", "--format=%(refname)", "refs/heads/"+BranchPrefix); b != "" {
		out = append(out, strings.Split(b, "\n")...)
	}
	for _, line := range strings.Split(gitIn(t, r, "worktree", "list", "--porcelain"), "\n")[1:] {
		if strings.HasPrefix(line, "worktree ") {
			out = append(out, line)
		}
	}
	bases, err := recordedBases(r)
	require.NoError(t, err)
	for b := range bases {
		out = append(out, "config "+b)
	}
	return out
}

func TestIncompleteTreesAreListedAndRemoved(t *testing.T) {
	r := repo(t, false)
	root := t.TempDir()
	base := gitIn(t, r, "rev-parse", "HEAD")

	gitIn(t, r, "config", "branch.agentmux/s/recorded.agentmuxbase", base) // killed before the branch
	gitIn(t, r, "branch", "agentmux/s/legacy")                             // an older agentmux, killed after the branch
	gitIn(t, r, "config", "branch.agentmux/s/branch.agentmuxbase", base)
	gitIn(t, r, "branch", "agentmux/s/branch") // killed after the branch, before the tree
	checkout, err := Create(r, root, "s", "checkout")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(r, ".git", "worktrees", "checkout", "locked"), []byte("initializing"), 0o600))
	require.NoError(t, os.Remove(filepath.Join(checkout.Path, "a.txt"))) // not checked out yet
	gone, err := Create(r, root, "s", "gone")
	require.NoError(t, err)
	inUse, err := Create(r, root, "s", "goneinuse") // locked by its pane, its folder deleted
	require.NoError(t, err)
	gitIn(t, r, "worktree", "lock", "--reason", "held by a pane", inUse.Path)
	require.NoError(t, os.RemoveAll(gone.Path))
	require.NoError(t, os.RemoveAll(inUse.Path))
	gitIn(t, r, "worktree", "add", "-q", "-b", "agentmux/s/nobase", filepath.Join(root, "nobase"), base)
	require.NoError(t, os.WriteFile(filepath.Join(root, "nobase", "by-hand.txt"), []byte("x\n"), 0o600))
	gitIn(t, r, "branch", "agentmux/s/work") // its branch holds a commit nothing else has
	gitIn(t, r, "config", "branch.agentmux/s/work.agentmuxbase", base)
	work, err := os.MkdirTemp(root, "w")
	require.NoError(t, err)
	gitIn(t, r, "worktree", "add", "-q", work, "agentmux/s/work")
	commitIn(t, work, "c.txt", "committed\n")
	gitIn(t, r, "worktree", "remove", work)
	gitIn(t, r, "branch", "agentmux/mine")         // not a pane's branch: left alone
	gitIn(t, r, "branch", "agentmux/s/checkedout") // the person checked it out in the main tree
	gitIn(t, r, "checkout", "-q", "agentmux/s/checkedout")

	trees, err := List(r)
	require.NoError(t, err)
	problems := map[string]string{}
	for _, tr := range trees {
		problems[tr.Name()] = tr.Problem
	}
	assert.Equal(t, map[string]string{
		"s/recorded":  problemNoBranch,
		"s/legacy":    problemNoTree,
		"s/branch":    problemNoTree,
		"s/checkout":  problemCheckout,
		"s/gone":      problemFolderGone,
		"s/goneinuse": problemFolderGone,
		"s/nobase":    problemNoBase,
		"s/work":      problemNoTree,
	}, problems)
	_, err = Create(r, root, "s", "branch")
	assert.ErrorIs(t, err, ErrTaken, "a leftover branch is not taken over silently")

	for _, tr := range trees {
		_, err := tr.State()
		assert.Error(t, err, "%s has no state to read", tr.Name())
		if tr.Name() == "s/goneinuse" {
			_, err := tr.Remove(false)
			assert.ErrorIs(t, err, ErrLocked, "in use: its pane holds it")
			gitIn(t, r, "worktree", "unlock", tr.Path) // its pane ended
			tr.Locked, tr.LockReason = false, ""
		}
		removed, err := tr.Remove(false)
		require.NoError(t, err, tr.Name())
		switch tr.Name() {
		case "s/work":
			assert.False(t, removed, "a branch holding a commit of its own is kept")
			n, err := tr.Unmerged()
			require.NoError(t, err)
			assert.Equal(t, 1, n)
		case "s/nobase":
			assert.False(t, removed, "a whole tree holding a file is kept")
		}
		if !removed {
			removed, err = tr.Remove(true)
			require.NoError(t, err)
		}
		assert.True(t, removed, tr.Name())
	}
	assert.NoDirExists(t, checkout.Path)
	assert.Equal(t, []string{"refs/heads/agentmux/mine", "refs/heads/agentmux/s/checkedout"}, leftovers(t, r))
	trees, err = List(r)
	require.NoError(t, err)
	assert.Empty(t, trees)
}

// TestKilledStartsAreAllVisible kills git worktree add (after the start is recorded, as
// Create does) at moments spread over its run, in a repository big enough that the
// checkout takes a while: whatever each kill left, List shows it and Remove clears it.
func TestKilledStartsAreAllVisible(t *testing.T) {
	r := repo(t, false)
	for i := range 200 {
		require.NoError(t, os.WriteFile(filepath.Join(r, fmt.Sprintf("f%03d.txt", i)), []byte("x\n"), 0o600))
	}
	gitIn(t, r, "add", ".")
	commitIn(t, r, "last.txt", "last\n")
	base := gitIn(t, r, "rev-parse", "HEAD")
	root := t.TempDir()

	start := time.Now()
	gitIn(t, r, "worktree", "add", "-q", "-b", "timing", filepath.Join(root, "timing"), base)
	full := time.Since(start)
	gitIn(t, r, "worktree", "remove", "--force", filepath.Join(root, "timing"))
	gitIn(t, r, "branch", "-D", "timing")

	const kills = 12
	for i := range kills {
		name := fmt.Sprintf("k%02d", i)
		branch := BranchPrefix + "s/" + name
		gitIn(t, r, "config", "branch."+branch+"."+baseKey, base)
		cmd := exec.Command("git", "-C", r, "worktree", "add", "-q", "-b", branch, filepath.Join(root, "s", name), base)
		require.NoError(t, cmd.Start())
		// The kill moments spread from at once to past the end of a whole run.
		time.Sleep(full * time.Duration(i) / (kills - 2)) //nolint:forbidigo // the moment of the kill is the input
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
	}
	trees, err := List(r)
	require.NoError(t, err)
	require.Len(t, trees, kills, "every killed start is listed")
	complete := 0
	for _, tr := range trees {
		if tr.Problem == "" {
			complete++
		}
		removed, err := tr.Remove(false)
		require.NoError(t, err, "%s (%s)", tr.Name(), tr.Problem)
		assert.True(t, removed, "%s (%s)", tr.Name(), tr.Problem)
	}
	t.Logf("%d kills over a %v add: %d left complete trees", kills, full, complete)
	if !assert.Empty(t, leftovers(t, r)) {
		t.Log(gitIn(t, r, "worktree", "list", "--porcelain"))
	}
}

// TestKilledBeforeTheBranchIsCheckedOut: git worktree add writes the tree's entry (on
// the null commit, locked "initializing") before it checks the branch out; killed then,
// the entry names no branch. Made here as git leaves it.
func TestKilledBeforeTheBranchIsCheckedOut(t *testing.T) {
	r := repo(t, false)
	root := t.TempDir()
	tr, err := Create(r, root, "s", "early")
	require.NoError(t, err)
	meta := filepath.Join(r, ".git", "worktrees", "early")
	require.NoError(t, os.WriteFile(filepath.Join(meta, "locked"), []byte("initializing"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(meta, "HEAD"), []byte(strings.Repeat("0", 40)+"\n"), 0o600))
	require.NoError(t, os.Remove(filepath.Join(tr.Path, "a.txt")))
	trees, err := List(r)
	require.NoError(t, err)
	require.Len(t, trees, 1)
	assert.Equal(t, tr.Path, trees[0].Path)
	assert.Equal(t, problemCheckout, trees[0].Problem)
	removed, err := trees[0].Remove(false)
	require.NoError(t, err)
	assert.True(t, removed)
	assert.Empty(t, leftovers(t, r))
	assert.NoDirExists(t, tr.Path)
}

// TestKilledBeforeCommondir: killed before git wrote into the entry's commondir and the
// tree's .git file, git fails every worktree command of the repository; List repairs
// the entry git marked as being made, and Remove clears it.
func TestKilledBeforeCommondir(t *testing.T) {
	r := repo(t, false)
	root := t.TempDir()
	tr, err := Create(r, root, "s", "early")
	require.NoError(t, err)
	meta := filepath.Join(r, ".git", "worktrees", "early")
	require.NoError(t, os.WriteFile(filepath.Join(meta, "locked"), []byte("initializing\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(meta, "HEAD"), []byte(strings.Repeat("0", 40)+"\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(meta, "commondir"), nil, 0o600)) // created, not yet written
	require.NoError(t, os.Remove(filepath.Join(tr.Path, ".git")))
	_, err = git(r, "worktree", "list")
	require.Error(t, err, "git itself is stuck")
	trees, err := List(r)
	require.NoError(t, err)
	require.Len(t, trees, 1)
	assert.Equal(t, problemCheckout, trees[0].Problem)
	removed, err := trees[0].Remove(false)
	require.NoError(t, err)
	assert.True(t, removed)
	assert.Empty(t, leftovers(t, r))
	assert.NoDirExists(t, tr.Path)
}

// The starting commit recorded in the repository's config is a pane's to rewrite: one
// that is no commit id (an option such as --output=FILE, which git diff would obey) is
// taken as none recorded, and never reaches git.
func TestARecordedBaseIsACommitID(t *testing.T) {
	r := repo(t, false)
	tr, err := Create(r, t.TempDir(), "s", "forged")
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "written")
	gitIn(t, r, "config", "branch."+tr.Branch+"."+baseKey, "--output="+out)
	trees, err := List(r)
	require.NoError(t, err)
	require.Len(t, trees, 1)
	assert.Equal(t, problemNoBase, trees[0].Problem)
	assert.Empty(t, trees[0].Base)
	_, _ = trees[0].Unmerged()
	assert.NoFileExists(t, out)
	assert.True(t, objectID(strings.Repeat("a", 40)))
	assert.True(t, objectID(strings.Repeat("0", 64)))
	for _, bad := range []string{"", "HEAD", "--output=x", strings.Repeat("A", 40), strings.Repeat("a", 39) + "~"} {
		assert.False(t, objectID(bad), bad)
	}
}
