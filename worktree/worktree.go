// Package worktree gives a pane its own git worktree: a new branch agentmux/SESSION/NAME
// made from the repository's HEAD, checked out in a folder outside the repository (under
// agentmux's state folder), so two agents never edit the same files. It tells whether a
// tree holds changes (uncommitted, or commits ahead of where it started), shows them as
// a diff against the starting commit, and removes a tree only when it holds none:
// no commits, no uncommitted change, no untracked and no ignored file (an agent's
// notes/ or .env is its work too, though git does not track it).
//
// Every git operation runs the git command (the person's own git and config), with none
// of the programs a repository's config may name for git to run on its own (hooks, the
// file system monitor, external diffs), in a user namespace of its own where the system
// makes them, as a pane's program runs: an agent owns its tree and the config with it.
// The starting commit is kept in the repository's config (branch.BRANCH.agentmuxbase),
// written before the tree is made, so `agentmux worktree ls` and `rm` find it from any
// process, and find a tree whose making was interrupted (list.go). A tree a pane runs
// in is locked with git's own lock (lock.go), naming the session, pane and process.
//
// It imports nothing of the project but ptyhost (RunConfined).
package worktree

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentmux/agentmux/ptyhost"
)

// BranchPrefix starts every branch a pane's worktree is made on.
const BranchPrefix = "agentmux/"

// baseKey is the config key (under branch.BRANCH) holding a tree's starting commit.
const baseKey = "agentmuxbase"

// ErrNotRepo means the folder is not inside a git repository.
var ErrNotRepo = errors.New("not inside a git repository")

// ErrTaken means the branch a new tree would be made on exists already: a tree kept
// from an earlier run of that session and pane (List finds it), or one being made.
var ErrTaken = errors.New("branch exists")

// Tree is one pane's worktree.
type Tree struct {
	// Repo is the main repository's top folder; Path the worktree's folder.
	Repo, Path string
	// Branch is its branch (agentmux/SESSION/NAME); Base the commit it started from
	// ("" when none was recorded: an interrupted start).
	Branch, Base string
	// Locked says git holds the tree locked, LockReason why (Holder.Reason for a pane
	// that runs in it; "initializing" while git checks it out).
	Locked     bool
	LockReason string
	// Problem, when set, says why the tree is incomplete (its making was interrupted,
	// or its folder is gone); Path may then be "" (no worktree). Such a tree never had
	// a pane running in it.
	Problem string
}

// Name is the tree's name as `agentmux worktree rm` takes it: SESSION/NAME.
func (t *Tree) Name() string { return strings.TrimPrefix(t.Branch, BranchPrefix) }

// git runs git with args in dir and returns its output, trailing newline trimmed; its
// error (a *gitError) carries git's own message. GIT_OPTIONAL_LOCKS=0: agentmux reads
// a tree's state while an agent works in it, and git status would otherwise refresh
// the index under index.lock as a side effect, failing the agent's own git add or
// commit of that moment ("Unable to create .../index.lock: File exists").
//
// A tree is the agent's, and so is the repository's config it shares: an agent could
// name a program there for git to run (core.fsmonitor on every status, a hook, an
// external diff, a signature's checker, a clean filter for a file whose stat changed).
// git is told to run none of those (noPrograms, the diffs' --no-ext-diff
// --no-textconv, each filter the config names emptied where git reads the tree's
// files: noFilters, and no look inside a submodule: noSubmodules), and runs where a
// pane's program would (ptyhost.RunConfined): `agentmux ls` and `worktree ls/rm` run
// it in the person's own shell, and a system that makes no user namespaces leaves git
// there. Only git worktree add (a tree made for the person's new pane) runs the
// filters its checkout needs (Git LFS's smudge).
func git(dir string, args ...string) (string, error) {
	pre := slices.Concat([]string{"-C", dir}, noPrograms)
	if readsFiles(args) {
		pre = append(pre, noFilters(dir)...)
	}
	return runGit(pre, args)
}

// runGit runs git with pre then args (the command), as git says.
func runGit(pre, args []string) (string, error) {
	cmd := exec.Command("git", slices.Concat(pre, args)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := ptyhost.RunConfined(cmd); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		code := -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		return "", &gitError{args: args, msg: msg, code: code}
	}
	return strings.TrimRight(out.String(), "\n"), nil
}

// noPrograms are git's options that keep it from running the programs a repository's
// config may name on its own: the file system monitor, the hooks, and the programs
// that check commits' signatures (log.showSignature).
var noPrograms = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
	"-c", "log.showSignature=false", "-c", "gpg.program=false", "-c", "gpg.ssh.program=false", "-c", "gpg.x509.program=false"}

// noSubmodules keeps git status and git diff out of the tree's submodules. Each has a
// config of its own, which noFilters does not read: to tell whether one is dirty git
// runs git status inside it, which reads its files through the clean filters its
// config names. A submodule that points at another commit still shows; the diff shows
// it as the commit it points at (--submodule=short, whatever diff.submodule says), as
// the commits themselves are the submodule's.
var noSubmodules = []string{"--ignore-submodules=dirty"}

// readsFiles reports whether git command args may read the tree's files (through a
// clean filter): status, diff, and the check worktree remove makes first.
func readsFiles(args []string) bool {
	return len(args) > 0 && (args[0] == "status" || args[0] == "diff") ||
		len(args) > 1 && args[0] == "worktree" && args[1] == "remove"
}

// noFilters are the options that empty every filter dir's config names (git then
// reads the files as they are): none when it names none.
func noFilters(dir string) []string {
	out, err := runGit(slices.Concat([]string{"-C", dir}, noPrograms), []string{"config", "--name-only", "--get-regexp", `^filter\.`})
	if err != nil {
		return nil // none (git config exits 1), or none readable: git will say so itself
	}
	var opts []string
	seen := map[string]bool{}
	for key := range strings.Lines(out) {
		key = strings.TrimSpace(key)
		i := strings.LastIndexByte(key, '.')
		if i <= len("filter.") {
			continue
		}
		drv := key[len("filter."):i]
		if seen[drv] {
			continue
		}
		seen[drv] = true
		for _, k := range []string{"clean=", "smudge=", "process=", "required=false"} {
			opts = append(opts, "-c", "filter."+drv+"."+k)
		}
	}
	return opts
}

// gitError is a git command that failed: its words, its message, its exit status (-1
// when it did not run).
type gitError struct {
	args []string
	msg  string
	code int
}

func (e *gitError) Error() string { return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), e.msg) }

// exitedWith reports whether err is a git command that ran and exited with code.
func exitedWith(err error, code int) bool {
	var ge *gitError
	return errors.As(err, &ge) && ge.code == code
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
// a repository without a commit, or a branch (ErrTaken: a kept tree of an earlier
// session of that name) or folder that exists already is an error that says what to
// do. Stale worktree metadata (trees whose folder is gone) is pruned first.
//
// The starting commit is recorded before git makes the branch and the tree, so a start
// killed half way leaves a record List shows (Problem) and Remove clears.
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
	if err := repairInitializing(repo); err != nil {
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	prune(repo)
	if branchExists(repo, branch) {
		return nil, fmt.Errorf("--worktree: branch %s: %w (a tree kept from an earlier session?): agentmux worktree ls shows it", branch, ErrTaken)
	}
	path := filepath.Join(root, repoID(repo), session, name)
	if _, err := os.Lstat(path); err == nil {
		return nil, fmt.Errorf("--worktree: %s exists already", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	if _, err := git(repo, "config", "branch."+branch+"."+baseKey, base); err != nil {
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	if _, err := git(repo, "worktree", "add", "-b", branch, path, base); err != nil {
		if !branchExists(repo, branch) {
			_, _ = git(repo, "config", "--remove-section", "branch."+branch)
		}
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	return &Tree{Repo: repo, Path: path, Branch: branch, Base: base}, nil
}

// branchExists reports whether the repository has branch.
func branchExists(repo, branch string) bool {
	_, err := git(repo, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch)
	return err == nil
}

// prune drops the metadata of worktrees whose folder is gone (git worktree prune: a
// locked tree is left alone). A failure changes nothing and is not the caller's.
func prune(repo string) { _, _ = git(repo, "worktree", "prune") }

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
	// since the starting commit; Ignored: files and folders git ignores (.env, notes/,
	// as git status --ignored names them), which git would delete with the tree.
	Dirty   bool
	Ahead   int
	Ignored []string
}

// Changed reports whether the tree holds anything an agent wrote, ignored files
// included.
func (s State) Changed() bool { return s.Dirty || s.Ahead > 0 || len(s.Ignored) > 0 }

// String says it as a border does: "clean", "changed", "2 ahead", "changed, 2 ahead",
// "ignored: .env, notes/" (the first three ignored paths, then how many more).
func (s State) String() string {
	var parts []string
	if s.Dirty {
		parts = append(parts, "changed")
	}
	if s.Ahead > 0 {
		parts = append(parts, strconv.Itoa(s.Ahead)+" ahead")
	}
	if n := len(s.Ignored); n > 0 {
		shown := s.Ignored[:min(n, 3)]
		more := ""
		if n > 3 {
			more = fmt.Sprintf(" and %d more", n-3)
		}
		parts = append(parts, "ignored: "+strings.Join(shown, ", ")+more)
	}
	if len(parts) == 0 {
		return "clean"
	}
	return strings.Join(parts, ", ")
}

// State reads the tree's state from git: git status with ignored and untracked files,
// and the commits since the start.
func (t *Tree) State() (State, error) {
	var st State
	if t.Problem != "" {
		return st, fmt.Errorf("%s is incomplete: %s", t.Branch, t.Problem)
	}
	out, err := git(t.Path, slices.Concat([]string{"status", "--porcelain", "--ignored", "--untracked-files=normal"}, noSubmodules)...)
	if err != nil {
		return st, err
	}
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "!! "):
			st.Ignored = append(st.Ignored, unquote(strings.TrimPrefix(line, "!! ")))
		default:
			st.Dirty = true
		}
	}
	n, err := git(t.Path, "rev-list", "--count", t.Base+"..HEAD")
	if err != nil {
		return st, err
	}
	st.Ahead, _ = strconv.Atoi(n)
	return st, nil
}

// unquote reads a path as git status --porcelain writes it: as is, or C-quoted when it
// holds unusual bytes.
func unquote(p string) string {
	if u, err := strconv.Unquote(p); err == nil && strings.HasPrefix(p, `"`) {
		return u
	}
	return p
}

// Diff is what the tree changed against its starting commit, as git shows it: the
// commits ahead, the files changed (a stat), untracked and ignored files, then the
// patch (committed and uncommitted changes together). With color, git's own colours.
func (t *Tree) Diff(color bool) (string, error) {
	c := "--color=never"
	if color {
		c = "--color=always"
	}
	var b strings.Builder
	log, err := git(t.Path, "log", c, "--no-ext-diff", "--no-textconv", "--no-show-signature", "--oneline", t.Base+"..HEAD")
	if err != nil {
		return "", err
	}
	stat, err := git(t.Path, slices.Concat([]string{"diff", c, "--no-ext-diff", "--no-textconv", "--submodule=short", "--stat"}, noSubmodules, []string{t.Base})...)
	if err != nil {
		return "", err
	}
	untracked, err := git(t.Path, "ls-files", "--others", "--exclude-standard")
	if err != nil {
		return "", err
	}
	ignored, err := git(t.Path, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return "", err
	}
	patch, err := git(t.Path, slices.Concat([]string{"diff", c, "--no-ext-diff", "--no-textconv", "--submodule=short"}, noSubmodules, []string{t.Base})...)
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
	if ignored != "" {
		b.WriteString("ignored files (git does not track them; the tree is kept for them):\n  " + strings.ReplaceAll(ignored, "\n", "\n  ") + "\n\n")
	}
	if patch == "" && untracked == "" && log == "" && ignored == "" {
		b.WriteString("no changes\n")
	}
	b.WriteString(patch)
	return b.String(), nil
}
