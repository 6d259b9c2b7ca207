package main

import (
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/worktree"
)

// A session's trees with real git in a temporary repository: a pane's tree is locked
// for it and unlocked when it closes; a tree kept from an earlier run of the same
// session and pane is taken back (and said once), stepped past when a running pane
// holds it, refused with its fixes when it is a leftover of an interrupted start; the
// note on closing names the folder, branch and what is in it.

// testRepo makes a repository with one commit.
func testRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "first"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	return dir
}

func newTrees(t *testing.T) *trees {
	return &trees{session: "s1", root: t.TempDir(), log: slog.New(slog.DiscardHandler)}
}

func TestTreesLockKeepAndReuse(t *testing.T) {
	repo := testRepo(t)
	ts := newTrees(t)
	spec := session.PaneSpec{Name: "w1", Argv: []string{"cat"}, Dir: repo}
	require.NoError(t, ts.make(&spec))
	tr := spec.Tree.(paneTree).t
	assert.True(t, tr.Locked)
	assert.Equal(t, "", ts.notice(), "a new tree is nothing to tell")

	// A second pane of the same name in this session while the first runs: refused,
	// naming who runs there; an unnamed pane steps to the next name.
	again := session.PaneSpec{Name: "w1", Argv: []string{"cat"}, Dir: repo}
	assert.ErrorContains(t, ts.make(&again), "pane w1 of session s1 runs in")
	auto := session.PaneSpec{Argv: []string{"w1"}, Dir: repo}
	require.NoError(t, ts.make(&auto))
	assert.Equal(t, "w1-2", auto.Name)
	assert.Equal(t, "", ts.closed(auto), "an unchanged tree goes without a word")

	// The agent leaves an ignored file: kept on close, unlocked, and said.
	require.NoError(t, os.WriteFile(filepath.Join(repo, ".git", "info", "exclude"), []byte(".env\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(tr.Path, ".env"), []byte("K=v\n"), 0o600))
	note := ts.closed(spec)
	assert.Equal(t, "kept: "+homeShort(tr.Path)+" (agentmux/s1/w1, ignored: .env) — agentmux worktree ls", note)
	assert.DirExists(t, tr.Path)
	listed, err := worktree.Find(repo, "s1/w1")
	require.NoError(t, err)
	assert.False(t, listed.Locked, "unlocked when its pane closed")

	// The same session and pane again: the kept tree, locked again, said once.
	next := session.PaneSpec{Name: "w1", Argv: []string{"cat"}, Dir: repo}
	require.NoError(t, ts.make(&next))
	assert.Equal(t, tr.Path, next.Dir)
	n := ts.notice()
	assert.Contains(t, n, "pane w1: reusing the kept worktree "+homeShort(tr.Path)+" (agentmux/s1/w1, ignored: .env)")
	assert.Equal(t, "", ts.notice(), "said once")
	listed, err = worktree.Find(repo, "s1/w1")
	require.NoError(t, err)
	assert.True(t, listed.Locked)
	ts.closed(next)
}

func TestTreesLeftoverIsRefusedWithItsFixes(t *testing.T) {
	repo := testRepo(t)
	out, err := exec.Command("git", "-C", repo, "branch", "agentmux/s1/w1").CombinedOutput()
	require.NoError(t, err, "%s", out)
	ts := newTrees(t)
	spec := session.PaneSpec{Name: "w1", Argv: []string{"cat"}, Dir: repo}
	err = ts.make(&spec)
	require.Error(t, err)
	for _, want := range []string{"agentmux worktree rm s1/w1", "--cwd w1=DIR"} {
		assert.Contains(t, err.Error(), want)
	}
	assert.False(t, strings.Contains(err.Error(), "--force"), "no fix that deletes work")
}

func TestHomeShort(t *testing.T) {
	t.Setenv("HOME", "/home/ann")
	assert.Equal(t, "~/x/y", homeShort("/home/ann/x/y"))
	assert.Equal(t, "/home/annex/y", homeShort("/home/annex/y"))
	assert.Equal(t, "/tmp/y", homeShort("/tmp/y"))
}

// TestHolderRunsOnlyWhileItsOwnServerAnswers: a lock names a session and its server's
// process. A SIGKILLed server's process lingers until it is reaped, and a new server of
// the same name may already answer on the socket; the lock is stale all the same, since
// the process that answers is not the one that locked. (This made the e2e reuse after a
// kill fail now and then under load: the new server called its own tree in use.)
func TestHolderRunsOnlyWhileItsOwnServerAnswers(t *testing.T) {
	rt := t.TempDir()
	require.NoError(t, os.Chmod(rt, 0o700))
	t.Setenv("XDG_RUNTIME_DIR", rt)
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)

	other := exec.Command("sleep", "60") // a live process that serves no socket
	require.NoError(t, other.Start())
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	ln, err := dirs.Listen(dirs.SocketPath(dir, "wk"))
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	assert.False(t, holderRuns(worktree.Holder{Session: "wk", Pane: "w1", PID: other.Process.Pid}),
		"a live process that is not the server answering for session wk")
	assert.False(t, holderRuns(worktree.Holder{Session: "gone", Pane: "w1", PID: other.Process.Pid}),
		"a session whose socket nobody answers")
	assert.True(t, holderRuns(worktree.Holder{Session: "wk", Pane: "w1", PID: os.Getpid()}),
		"the server that answers")
}
