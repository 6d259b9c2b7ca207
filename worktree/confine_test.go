package worktree

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/ptyhost"
)

// An agent owns its tree, and the repository's config with it: whatever it sets there
// that makes git run a program must not run that program as the person, who is told
// at the session socket by the user namespace a client runs in (a pane's program is
// refused there what only the person may do). The programs git would run on its own
// (the file system monitor, hooks, external diff and textconv) do not run; those it
// cannot be told not to run (a clean filter) run in a user namespace of their own,
// where the system makes them.

// setIn sets a config key in dir's repository, as an agent in the tree could.
func setIn(t *testing.T, dir, key, value string) {
	t.Helper()
	gitOut(t, dir, "config", key, value)
}

// proofCommand is a shell command that writes the user namespace it runs in to proof.
func proofCommand(proof string) string {
	return "readlink /proc/self/ns/user > '" + proof + "'"
}

func TestGitRunsNoProgramTheTreeConfigures(t *testing.T) {
	tr, err := Create(repo(t, false), t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	proof := filepath.Join(t.TempDir(), "proof")
	setIn(t, tr.Path, "core.fsmonitor", proofCommand(proof)+"; echo '#'")
	setIn(t, tr.Path, "diff.external", proofCommand(proof))
	setIn(t, tr.Path, "core.hooksPath", filepath.Join(tr.Path, "hooks"))
	require.NoError(t, os.MkdirAll(filepath.Join(tr.Path, "hooks"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(tr.Path, "hooks", "post-checkout"), []byte("#!/bin/sh\n"+proofCommand(proof)+"\n"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(tr.Path, "a.txt"), []byte("changed\n"), 0o600))

	st, err := tr.State()
	require.NoError(t, err)
	assert.Equal(t, "changed", st.String())
	d, err := tr.Diff(false)
	require.NoError(t, err)
	assert.Contains(t, d, "+changed")
	_, err = Create(tr.Repo, t.TempDir(), "s1", "codex") // checks out a tree: post-checkout
	require.NoError(t, err)
	_, err = os.Stat(proof)
	assert.ErrorIs(t, err, os.ErrNotExist, "git ran a program the tree's config named")
}

func TestGitsFiltersRunOutsideThePersonsNamespace(t *testing.T) {
	if !ptyhost.UserNSAllowed() {
		t.Skip("this system makes no user namespaces: panes are told by their parents")
	}
	self, err := os.Readlink("/proc/self/ns/user")
	require.NoError(t, err)
	tr, err := Create(repo(t, false), t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	proof := filepath.Join(t.TempDir(), "proof")
	// A clean filter on a.txt, and its stat data made stale: git status reads the file
	// through the filter to see whether it changed.
	info := gitOut(t, tr.Path, "rev-parse", "--git-path", "info/attributes")
	attrs := filepath.Join(tr.Path, trimNL(info))
	if filepath.IsAbs(trimNL(info)) {
		attrs = trimNL(info)
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(attrs), 0o700))
	require.NoError(t, os.WriteFile(attrs, []byte("a.txt filter=probe\n"), 0o600))
	setIn(t, tr.Path, "filter.probe.clean", proofCommand(proof)+"; cat")
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(tr.Path, "a.txt"), later, later))

	_, err = tr.State()
	require.NoError(t, err)
	ns, err := os.ReadFile(proof)
	require.NoError(t, err, "the filter ran (the test's premise)")
	assert.NotEqual(t, self, trimNL(string(ns)), "git's filter ran in the person's user namespace")
}

func trimNL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
