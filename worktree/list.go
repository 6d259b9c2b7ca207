package worktree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// This file finds the panes' trees of a repository, complete or not, and removes them.
// A tree is known by any of three marks: its starting commit in the repository's
// config (written first), its branch, and git's worktree entry. A start killed half way
// (SIGKILL during git worktree add) leaves some of them: such a tree is listed with a
// Problem, and Remove clears whatever is left of it.

// The problems of an incomplete tree.
const (
	problemNoBranch   = "interrupted start: no branch, no tree"
	problemNoTree     = "no worktree: an interrupted start, or its folder was removed"
	problemCheckout   = "interrupted start: checkout not finished"
	problemNoBase     = "interrupted start: no starting commit recorded"
	problemFolderGone = "its folder is gone"
)

// ErrLocked means a tree is locked (a pane runs in it, or git is making it): unlock it
// first when its holder is gone.
var ErrLocked = errors.New("locked")

// List returns the panes' trees of the repository dir is in (every session's), by
// branch: complete ones, and those a killed start or a removed folder left incomplete
// (Problem set).
func List(dir string) ([]*Tree, error) {
	repo, err := mainRepo(dir)
	if err != nil {
		return nil, err
	}
	if err := repairInitializing(repo); err != nil {
		return nil, err
	}
	out, err := git(repo, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	bases, err := recordedBases(repo)
	if err != nil {
		return nil, err
	}
	byBranch := map[string]*Tree{}
	inMain := "" // a pane's branch the person checked out in the main tree is theirs now
	var cur *Tree
	var entries []*Tree
	first := true
	for _, line := range strings.Split(out+"\n", "\n") {
		word, rest, _ := strings.Cut(line, " ")
		switch {
		case line == "":
			cur = nil
		case word == "worktree" && first:
			first = false
			if b, ok := mainBranch(out); ok {
				inMain = b
			}
		case word == "worktree":
			cur = &Tree{Repo: repo, Path: rest}
			entries = append(entries, cur)
		case cur == nil:
		case word == "branch" && strings.HasPrefix(rest, "refs/heads/"+BranchPrefix):
			cur.Branch = strings.TrimPrefix(rest, "refs/heads/")
			byBranch[cur.Branch] = cur
		case word == "locked":
			cur.Locked, cur.LockReason = true, rest
		case word == "prunable":
			cur.Problem = problemFolderGone
		}
	}
	// git calls a tree prunable only when it is not locked: a tree in use (locked by
	// its pane) whose folder was deleted is gone all the same.
	for _, e := range entries {
		if _, err := os.Lstat(e.Path); e.Problem == "" && errors.Is(err, fs.ErrNotExist) {
			e.Problem = problemFolderGone
		}
	}
	// git worktree add writes the entry before it checks the branch out: killed then,
	// the entry is on no branch yet, locked "initializing"; its folder names the pane.
	for _, e := range entries {
		if e.Branch != "" || e.LockReason != "initializing" {
			continue
		}
		b := BranchPrefix + filepath.Base(filepath.Dir(e.Path)) + "/" + filepath.Base(e.Path)
		if _, recorded := bases[b]; (recorded || paneBranch(b) && branchExists(repo, b)) && byBranch[b] == nil {
			e.Branch, e.Problem = b, problemCheckout
			byBranch[b] = e
		}
	}
	heads, err := git(repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/"+BranchPrefix)
	if err != nil {
		return nil, err
	}
	for _, b := range strings.Split(heads, "\n") {
		_, recorded := bases[b]
		if _, ok := byBranch[b]; !ok && b != "" && b != inMain && (recorded || paneBranch(b)) {
			byBranch[b] = &Tree{Repo: repo, Branch: b, Problem: problemNoTree}
		}
	}
	for b := range bases {
		if _, ok := byBranch[b]; !ok && b != inMain && !branchExists(repo, b) {
			byBranch[b] = &Tree{Repo: repo, Branch: b, Problem: problemNoBranch}
		}
	}
	var trees []*Tree
	for b, t := range byBranch {
		base, recorded := bases[b]
		switch {
		case !recorded && t.Path != "" && !paneBranch(b):
			continue // a worktree on a branch of that name agentmux did not make
		case !recorded && t.Problem == "":
			t.Problem = problemNoBase // an older agentmux recorded it after the tree
		case t.Problem == "" && t.Locked && t.LockReason == "initializing":
			t.Problem = problemCheckout
		}
		t.Base = base
		trees = append(trees, t)
	}
	sort.Slice(trees, func(i, j int) bool { return trees[i].Branch < trees[j].Branch })
	return trees, nil
}

// mainBranch returns the branch the main tree (the first entry of git worktree list
// --porcelain) has checked out.
func mainBranch(porcelain string) (string, bool) {
	block, _, _ := strings.Cut(porcelain, "\n\n")
	for _, line := range strings.Split(block, "\n") {
		if b, ok := strings.CutPrefix(line, "branch refs/heads/"); ok {
			return b, true
		}
	}
	return "", false
}

// paneBranch reports whether b has the shape of a pane's branch, agentmux/SESSION/NAME.
func paneBranch(b string) bool {
	return strings.HasPrefix(b, BranchPrefix) && strings.Count(b, "/") == 2
}

// recordedBases returns the starting commits recorded in the repository's config, by
// branch.
func recordedBases(repo string) (map[string]string, error) {
	bases := map[string]string{}
	out, err := git(repo, "config", "--get-regexp", `^branch\.`+BranchPrefix+`.*\.`+baseKey+`$`)
	switch {
	case exitedWith(err, 1): // nothing matches
		return bases, nil
	case err != nil:
		return nil, err
	}
	for _, line := range strings.Split(out, "\n") {
		key, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		b := strings.TrimSuffix(strings.TrimPrefix(key, "branch."), "."+strings.ToLower(baseKey))
		if objectID(val) { // the repository's config is a pane's to write: never an option for git
			bases[b] = val
		}
	}
	return bases, nil
}

// objectID reports whether s is a commit's id as agentmux records it (hex, SHA-1 or
// SHA-256), not anything git would read as an option or a revision expression.
func objectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Find returns the tree named name (SESSION/NAME, or NAME when one session's tree has
// it) in the repository dir is in, incomplete ones included.
func Find(dir, name string) (*Tree, error) {
	trees, err := List(dir)
	if err != nil {
		return nil, err
	}
	var found []*Tree
	for _, t := range trees {
		if t.Name() == name {
			return t, nil
		}
		if strings.HasSuffix(t.Name(), "/"+name) {
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

// Remove removes the tree and its branch when it holds no changes, and reports whether
// it did; a changed tree is kept (nothing an agent wrote is deleted unasked, ignored
// files included) unless force, which the person gives after being told what is in
// it. A locked tree is refused (ErrLocked): its holder unlocks it, or the caller once
// it knows the holder is gone.
//
// An incomplete tree (Problem) never had a pane: what is left of it goes, unless its
// branch holds commits that are not on the repository's HEAD, or (a tree checked out
// whole with no start recorded) files in it (then only with force).
func (t *Tree) Remove(force bool) (removed bool, err error) {
	if t.Locked && t.Problem != problemCheckout {
		return false, fmt.Errorf("%s: %w (%s)", t.Branch, ErrLocked, t.LockReason)
	}
	if t.Problem != "" {
		return t.removeIncomplete(force)
	}
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

// Unmerged is how many commits the branch of an incomplete tree holds that are
// neither its starting commit's nor on the repository's HEAD (0 without a branch).
func (t *Tree) Unmerged() (int, error) {
	if !branchExists(t.Repo, t.Branch) {
		return 0, nil
	}
	args := []string{"rev-list", "--count", "refs/heads/" + t.Branch, "--not", "HEAD"}
	if t.Base != "" {
		args = append(args, t.Base)
	}
	n, err := git(t.Repo, args...)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(n)
}

// removeIncomplete clears what an interrupted start left: the worktree (git's
// initializing lock first), stale metadata, the branch, the recorded start.
func (t *Tree) removeIncomplete(force bool) (bool, error) {
	n, err := t.Unmerged()
	if err != nil {
		return false, err
	}
	if n > 0 && !force {
		return false, nil
	}
	if t.Problem == problemNoBase && !force {
		// Checked out whole, by an older agentmux or by hand: what is in it counts.
		out, err := git(t.Path, append([]string{"status", "--porcelain", "--ignored"}, noSubmodules...)...)
		if err != nil || out != "" {
			return false, err
		}
	}
	if t.Path != "" && t.Problem != problemFolderGone {
		if t.Locked {
			if _, err := git(t.Repo, "worktree", "unlock", t.Path); err != nil {
				return false, err
			}
		}
		if _, err := git(t.Repo, "worktree", "remove", "--force", t.Path); err != nil {
			// Killed before git wrote the tree's .git file, git will not remove it: the
			// folder goes here, when it is where agentmux puts the pane's tree, and git's
			// entry is pruned below.
			if t.Problem != problemCheckout || !strings.HasSuffix(t.Path, string(filepath.Separator)+strings.TrimPrefix(t.Branch, BranchPrefix)) {
				return false, err
			}
			if err := os.RemoveAll(t.Path); err != nil {
				return false, err
			}
		}
	}
	prune(t.Repo)
	if branchExists(t.Repo, t.Branch) {
		if _, err := git(t.Repo, "branch", "-D", t.Branch); err != nil {
			return false, err
		}
	}
	if _, err := git(t.Repo, "config", "--get", "branch."+t.Branch+"."+baseKey); err == nil {
		if _, err := git(t.Repo, "config", "--remove-section", "branch."+t.Branch); err != nil {
			return false, err
		}
	}
	return true, nil
}

// repairInitializing completes the metadata of worktrees whose git worktree add was
// killed before it wrote their commondir file: git itself then fails every worktree
// command of the repository ("failed to read .git/worktrees/NAME/commondir"). Only an
// entry git marked as being made (locked "initializing") is touched, and only with the
// "../.." git writes there, so that git lists it again and Remove can clear it.
func repairInitializing(repo string) error {
	common, err := git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return err
	}
	admins, err := os.ReadDir(filepath.Join(common, "worktrees"))
	if err != nil {
		return nil // no linked worktrees
	}
	for _, a := range admins {
		dir := filepath.Join(common, "worktrees", a.Name())
		lock, err := os.ReadFile(filepath.Join(dir, "locked"))
		if err != nil || strings.TrimSpace(string(lock)) != "initializing" {
			continue
		}
		cd := filepath.Join(dir, "commondir")
		if b, err := os.ReadFile(cd); err == nil && len(b) > 0 {
			continue
		}
		if err := os.WriteFile(cd, []byte("../..\n"), 0o644); err != nil {
			return fmt.Errorf("repair %s: %w", dir, err)
		}
	}
	return nil
}
