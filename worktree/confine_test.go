package worktree

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

	readsChanged(t, tr)
	_, err = Create(tr.Repo, t.TempDir(), "s1", "codex") // checks out a tree: post-checkout
	require.NoError(t, err)
	_, err = os.Stat(proof)
	assert.ErrorIs(t, err, os.ErrNotExist, "git ran a program the tree's config named")
}

// readsChanged reads tr's state and diff, which its a.txt changed to "changed".
func readsChanged(t *testing.T, tr *Tree) {
	t.Helper()
	st, err := tr.State()
	require.NoError(t, err)
	assert.Equal(t, "changed", st.String())
	d, err := tr.Diff(false)
	require.NoError(t, err)
	assert.Contains(t, d, "+changed")
}

// A clean filter runs when git status reads a file whose stat data changed: the
// state is read with every filter the config names emptied, so none runs, in any
// process (agentmux ls runs it in the person's own shell).
func TestStateRunsNoFilter(t *testing.T) {
	tr, err := Create(repo(t, false), t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	proof := filepath.Join(t.TempDir(), "proof")
	info := trimNL(gitOut(t, tr.Path, "rev-parse", "--git-path", "info/attributes"))
	attrs := info
	if !filepath.IsAbs(info) {
		attrs = filepath.Join(tr.Path, info)
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(attrs), 0o700))
	require.NoError(t, os.WriteFile(attrs, []byte("a.txt filter=probe\n"), 0o600))
	setIn(t, tr.Path, "filter.probe.clean", proofCommand(proof)+"; cat")
	setIn(t, tr.Path, "filter.probe.required", "true")
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(tr.Path, "a.txt"), later, later))
	require.NoError(t, os.WriteFile(filepath.Join(tr.Path, "a.txt"), []byte("changed\n"), 0o600))

	readsChanged(t, tr)
	_, err = os.Stat(proof)
	assert.ErrorIs(t, err, os.ErrNotExist, "a filter the tree's config names ran")
}

// The checkout of a new tree runs the smudge filters it needs (Git LFS), as a pane's
// program runs: in a user namespace of its own, where the system makes them.
func TestACheckoutsFiltersRunOutsideThePersonsNamespace(t *testing.T) {
	if !ptyhost.UserNSAllowed() {
		t.Skip("this system makes no user namespaces: panes are told by their parents")
	}
	self, err := os.Readlink("/proc/self/ns/user")
	require.NoError(t, err)
	r := repo(t, false)
	require.NoError(t, os.WriteFile(filepath.Join(r, ".gitattributes"), []byte("a.txt filter=probe\n"), 0o600))
	commitIn(t, r, ".gitattributes", "a.txt filter=probe\n")
	proof := filepath.Join(t.TempDir(), "proof")
	setIn(t, r, "filter.probe.smudge", proofCommand(proof)+"; cat")

	_, err = Create(r, t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	ns, err := os.ReadFile(proof)
	require.NoError(t, err, "the smudge filter ran (the test's premise)")
	assert.NotEqual(t, self, trimNL(string(ns)), "git's filter ran in the person's user namespace")
}

func trimNL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// A commit that carries a signature, with log.showSignature set: git log would run the
// signature's checker (gpg.program) that the config names.
func TestDiffRunsNoSignatureChecker(t *testing.T) {
	tr, err := Create(repo(t, false), t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	proof := filepath.Join(t.TempDir(), "proof")
	script := filepath.Join(t.TempDir(), "gpg.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\n"+proofCommand(proof)+"\nexit 1\n"), 0o700))
	tree := trimNL(gitOut(t, tr.Path, "rev-parse", "HEAD^{tree}"))
	parent := trimNL(gitOut(t, tr.Path, "rev-parse", "HEAD"))
	commit := "tree " + tree + "\nparent " + parent + "\nauthor t <t@x> 1 +0000\ncommitter t <t@x> 1 +0000\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\nsigned work\n"
	cmd := exec.Command("git", "-C", tr.Path, "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Stdin = strings.NewReader(commit)
	sha, err := cmd.Output()
	require.NoError(t, err)
	gitOut(t, tr.Path, "update-ref", "HEAD", trimNL(string(sha)))
	setIn(t, tr.Path, "log.showSignature", "true")
	setIn(t, tr.Path, "gpg.program", script)

	d, err := tr.Diff(false)
	require.NoError(t, err)
	assert.Contains(t, d, "signed work")
	_, err = os.Stat(proof)
	assert.ErrorIs(t, err, os.ErrNotExist, "git ran the signature checker the tree's config names")
}

// A submodule has a config of its own, which noFilters does not read: git status and
// git diff run git status inside it to see whether it is dirty, and that reads the
// submodule's files through the clean filter its config names. An agent that adds a
// submodule to its tree and names a filter there must not have it run by agentmux ls
// or worktree ls in the person's shell either.
func TestStateRunsNoSubmodulesFilter(t *testing.T) {
	tr, err := Create(repo(t, false), t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	sub := repo(t, false)
	add := exec.Command("git", "-C", tr.Path, "-c", "protocol.file.allow=always", "submodule", "-q", "add", sub, "sub")
	out, err := add.CombinedOutput()
	require.NoError(t, err, "%s", out)
	commitIn(t, tr.Path, "b.txt", "with a submodule\n")
	inSub := filepath.Join(tr.Path, "sub")
	proof := filepath.Join(t.TempDir(), "proof")
	attrs := trimNL(gitOut(t, inSub, "rev-parse", "--path-format=absolute", "--git-path", "info/attributes"))
	require.NoError(t, os.MkdirAll(filepath.Dir(attrs), 0o700))
	require.NoError(t, os.WriteFile(attrs, []byte("a.txt filter=probe\n"), 0o600))
	setIn(t, inSub, "filter.probe.clean", proofCommand(proof)+"; cat")
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(inSub, "a.txt"), later, later)) // stat changed, content not

	_, err = tr.State()
	require.NoError(t, err)
	_, err = os.Stat(proof)
	assert.ErrorIs(t, err, os.ErrNotExist, "git status ran the clean filter a submodule's config names")
	require.NoError(t, os.RemoveAll(proof))
	_, err = tr.Diff(false)
	require.NoError(t, err)
	_, err = os.Stat(proof)
	assert.ErrorIs(t, err, os.ErrNotExist, "git diff ran the clean filter a submodule's config names")
}

// Its submodules' own changes are not read (TestStateRunsNoSubmodulesFilter): a tree
// whose only change is in a submodule reads clean, but git still refuses to remove a
// tree with a submodule without --force, so that change is kept.
func TestATreeWithASubmoduleIsKept(t *testing.T) {
	r := repo(t, false)
	add := exec.Command("git", "-C", r, "-c", "protocol.file.allow=always", "submodule", "-q", "add", repo(t, false), "sub")
	out, err := add.CombinedOutput()
	require.NoError(t, err, "%s", out)
	commitIn(t, r, "b.txt", "with a submodule\n")
	tr, err := Create(r, t.TempDir(), "s1", "claude")
	require.NoError(t, err)
	update := exec.Command("git", "-C", tr.Path, "-c", "protocol.file.allow=always", "submodule", "-q", "update", "--init")
	out, err = update.CombinedOutput()
	require.NoError(t, err, "%s", out)
	work := filepath.Join(tr.Path, "sub", "a.txt")
	require.NoError(t, os.WriteFile(work, []byte("the agent's work\n"), 0o600))

	removed, _ := tr.Remove(false)
	assert.False(t, removed)
	got, err := os.ReadFile(work)
	require.NoError(t, err)
	assert.Equal(t, "the agent's work\n", string(got))
}
