// Package worktree gives a pane its own git worktree: a new branch agentmux/SESSION/NAME
// made from the repository's HEAD, checked out in a folder outside the repository (under
// agentmux's state folder), so two agents never edit the same files. It tells whether a
// tree holds changes (uncommitted, or commits ahead of where it started), shows them as
// a diff against the starting commit, and removes a tree only when it holds none.
//
// Every git operation runs the git command (the person's own git, hooks and config).
// The starting commit is kept in the repository's config (branch.BRANCH.agentmuxbase),
// so `agentmux worktree ls` and `rm` find it from any process.
//
// It imports nothing of the project.
package worktree

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// BranchPrefix starts every branch a pane's worktree is made on.
const BranchPrefix = "agentmux/"

// baseKey is the config key (under branch.BRANCH) holding a tree's starting commit.
const baseKey = "agentmuxbase"

// ErrNotRepo means the folder is not inside a git repository.
var ErrNotRepo = errors.New("not inside a git repository")

// Tree is one pane's worktree.
type Tree struct {
	// Repo is the main repository's top folder; Path the worktree's folder.
	Repo, Path string
	// Branch is its branch (agentmux/SESSION/NAME); Base the commit it started from.
	Branch, Base string
}

// Name is the tree's name as `agentmux worktree rm` takes it: SESSION/NAME.
func (t *Tree) Name() string { return strings.TrimPrefix(t.Branch, BranchPrefix) }

// git runs git with args in dir and returns its output, trailing newline trimmed; its
// error carries git's own message.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimRight(out.String(), "\n"), nil
}

// TopLevel returns the top folder of the repository dir is in (ErrNotRepo when none).
// In a worktree it is the worktree's; Create always works from the main repository's.
func TopLevel(dir string) (string, error) {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, ErrNotRepo)
	}
	return top, nil
}

// mainRepo returns the main repository's top folder for dir (also from a worktree).
func mainRepo(dir string) (string, error) {
	if _, err := TopLevel(dir); err != nil {
		return "", err
	}
	common, err := git(dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", err
	}
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common), nil
	}
	return TopLevel(dir) // a bare repository's worktree: its own top
}

// Create makes pane name of session its worktree: branch agentmux/SESSION/NAME from
// the HEAD of the repository dir is in, checked out in root/REPO-ID/SESSION/NAME (root
// outside the repository: agentmux's state folder). A folder outside any repository,
// a repository without a commit, or a branch or folder that exists already (a kept
// tree of an earlier session of that name) is an error that says what to do.
func Create(dir, root, session, name string) (*Tree, error) {
	repo, err := mainRepo(dir)
	if err != nil {
		return nil, fmt.Errorf("--worktree: %w (start agentmux in one, or use --cwd for a plain folder)", err)
	}
	base, err := git(repo, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, fmt.Errorf("--worktree: %s has no commit yet to start a branch from", repo)
	}
	branch := BranchPrefix + session + "/" + name
	if _, err := git(repo, "check-ref-format", "--branch", branch); err != nil {
		return nil, fmt.Errorf("--worktree: %q cannot be a branch name", branch)
	}
	if _, err := git(repo, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch); err == nil {
		return nil, fmt.Errorf("--worktree: branch %s exists (a tree kept from an earlier session?): agentmux worktree ls shows it, agentmux worktree rm %s removes it", branch, session+"/"+name)
	}
	path := filepath.Join(root, repoID(repo), session, name)
	if _, err := os.Lstat(path); err == nil {
		return nil, fmt.Errorf("--worktree: %s exists already", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	if _, err := git(repo, "worktree", "add", "-b", branch, path, base); err != nil {
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	if _, err := git(repo, "config", "branch."+branch+"."+baseKey, base); err != nil {
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	return &Tree{Repo: repo, Path: path, Branch: branch, Base: base}, nil
}

// repoID names a repository's folder under the root: its base name and a short hash of
// its path, so two repositories of one name never share it.
func repoID(repo string) string {
	h := uint32(2166136261)
	for i := 0; i < len(repo); i++ {
		h = (h ^ uint32(repo[i])) * 16777619
	}
	return fmt.Sprintf("%s-%08x", filepath.Base(repo), h)
}

// State is what a tree holds beyond where it started.
type State struct {
	// Dirty: uncommitted changes (untracked files too); Ahead: commits on its branch
	// since the starting commit.
	Dirty bool
	Ahead int
}

// Changed reports whether the tree holds anything an agent wrote.
func (s State) Changed() bool { return s.Dirty || s.Ahead > 0 }

// String says it as a border does: "clean", "changed", "2 ahead", "changed, 2 ahead".
func (s State) String() string {
	var parts []string
	if s.Dirty {
		parts = append(parts, "changed")
	}
	if s.Ahead > 0 {
		parts = append(parts, strconv.Itoa(s.Ahead)+" ahead")
	}
	if len(parts) == 0 {
		return "clean"
	}
	return strings.Join(parts, ", ")
}

// State reads the tree's state from git.
func (t *Tree) State() (State, error) {
	var st State
	out, err := git(t.Path, "status", "--porcelain", "--untracked-files=normal")
	if err != nil {
		return st, err
	}
	st.Dirty = out != ""
	n, err := git(t.Path, "rev-list", "--count", t.Base+"..HEAD")
	if err != nil {
		return st, err
	}
	st.Ahead, _ = strconv.Atoi(n)
	return st, nil
}

// Diff is what the tree changed against its starting commit, as git shows it: the
// commits ahead, the files changed (a stat), untracked files, then the patch (committed
// and uncommitted changes together). With color, git's own colours.
func (t *Tree) Diff(color bool) (string, error) {
	c := "--color=never"
	if color {
		c = "--color=always"
	}
	var b strings.Builder
	log, err := git(t.Path, "log", c, "--oneline", t.Base+"..HEAD")
	if err != nil {
		return "", err
	}
	stat, err := git(t.Path, "diff", c, "--stat", t.Base)
	if err != nil {
		return "", err
	}
	untracked, err := git(t.Path, "ls-files", "--others", "--exclude-standard")
	if err != nil {
		return "", err
	}
	patch, err := git(t.Path, "diff", c, t.Base)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "%s in %s, against %.12s\n\n", t.Branch, t.Path, t.Base)
	if log != "" {
		b.WriteString("commits:\n" + log + "\n\n")
	}
	if stat != "" {
		b.WriteString(stat + "\n\n")
	}
	if untracked != "" {
		b.WriteString("untracked files:\n  " + strings.ReplaceAll(untracked, "\n", "\n  ") + "\n\n")
	}
	if patch == "" && untracked == "" && log == "" {
		b.WriteString("no changes\n")
	}
	b.WriteString(patch)
	return b.String(), nil
}

// Remove removes the tree and its branch when it holds no changes, and reports whether
// it did; a changed tree is kept (nothing an agent wrote is deleted unasked) unless
// force, which the person gives after being told what is in it.
func (t *Tree) Remove(force bool) (removed bool, err error) {
	st, err := t.State()
	if err != nil {
		return false, err
	}
	if st.Changed() && !force {
		return false, nil
	}
	args := []string{"worktree", "remove", t.Path}
	if force {
		args = []string{"worktree", "remove", "--force", t.Path}
	}
	if _, err := git(t.Repo, args...); err != nil {
		return false, err
	}
	if _, err := git(t.Repo, "branch", "-D", t.Branch); err != nil {
		return true, err
	}
	// The branch's config section went with it (git branch -D drops it).
	return true, nil
}

// List returns the panes' trees of the repository dir is in (every session's), by
// branch.
func List(dir string) ([]*Tree, error) {
	repo, err := mainRepo(dir)
	if err != nil {
		return nil, err
	}
	out, err := git(repo, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var trees []*Tree
	var path string
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "worktree "):
			path = strings.TrimPrefix(line, "worktree ")
		case strings.HasPrefix(line, "branch refs/heads/"+BranchPrefix):
			branch := strings.TrimPrefix(line, "branch refs/heads/")
			base, err := git(repo, "config", "branch."+branch+"."+baseKey)
			if err != nil {
				continue // a branch of that name agentmux did not make
			}
			trees = append(trees, &Tree{Repo: repo, Path: path, Branch: branch, Base: base})
		}
	}
	return trees, nil
}

// Find returns the tree named name (SESSION/NAME, or NAME when one session's tree has
// it) in the repository dir is in.
func Find(dir, name string) (*Tree, error) {
	trees, err := List(dir)
	if err != nil {
		return nil, err
	}
	var found []*Tree
	for _, t := range trees {
		if t.Name() == name || strings.HasSuffix(t.Name(), "/"+name) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("no agentmux worktree %q in this repository (agentmux worktree ls lists them)", name)
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("%d worktrees are called %q: give SESSION/%s", len(found), name, name)
}
