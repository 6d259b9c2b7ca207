package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/agentmux/agentmux/hooks"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/ui"
	"github.com/agentmux/agentmux/worktree"
)

// This file is each pane in its own folder: --cwd NAME=DIR, and --worktree (every pane)
// or --worktree=NAME (that pane), which start the pane in a new git worktree on branch
// agentmux/SESSION/NAME under the state folder's worktrees/; `agentmux worktree ls|rm`.

// worktreeCommand is the word of `agentmux worktree ls|rm`.
const worktreeCommand = "worktree"

// treeFlag is --worktree (every pane) or --worktree=NAME (that pane, repeatable).
type treeFlag struct {
	all   bool
	names []string
}

func (f *treeFlag) String() string   { return "" }
func (f *treeFlag) IsBoolFlag() bool { return true }

// Set takes "true" (--worktree), "false", or a pane's name.
func (f *treeFlag) Set(v string) error {
	switch v {
	case "true":
		f.all = true
	case "false":
		f.all = false
	default:
		f.names = append(f.names, v)
	}
	return nil
}

// cwdFlag is --cwd NAME=DIR, repeatable.
type cwdFlag map[string]string

func (f cwdFlag) String() string { return "" }

// Set takes NAME=DIR.
func (f cwdFlag) Set(v string) error {
	name, dir, ok := strings.Cut(v, "=")
	if !ok || name == "" || dir == "" {
		return fmt.Errorf("want NAME=DIR (the pane's name, its folder), not %q", v)
	}
	f[name] = dir
	return nil
}

// applyFolders gives the panes their --cwd folders and marks those that get worktrees;
// an unknown pane name or a folder that is not one is a usage error.
func applyFolders(specs []ui.PaneSpec, cwd cwdFlag, trees treeFlag) ([]bool, error) {
	find := func(flag, name string) (int, error) {
		for i, s := range specs {
			if strings.EqualFold(s.Name, name) {
				return i, nil
			}
		}
		return 0, usagef("%s %s: no pane is named %s (name panes NAME=COMMAND)", flag, name, name)
	}
	for name, dir := range cwd {
		i, err := find("--cwd", name)
		if err != nil {
			return nil, err
		}
		abs, err := folder(dir)
		if err != nil {
			return nil, usagef("--cwd %s=%s: %v", name, dir, err)
		}
		specs[i].Dir = abs
	}
	want := make([]bool, len(specs))
	for i := range want {
		want[i] = trees.all
	}
	for _, name := range trees.names {
		i, err := find("--worktree", name)
		if err != nil {
			return nil, err
		}
		want[i] = true
	}
	return want, nil
}

// folder returns dir made absolute, or why it is no folder.
func folder(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", errors.New("not a folder")
	}
	return abs, nil
}

// treeRoot is where panes' worktrees go: worktrees in agentmux's state folder, private,
// outside every repository.
func treeRoot() (string, error) {
	dir, err := statePath("worktrees")
	if err != nil {
		return "", err
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		if _, err := hooks.PrivateDir(d); err != nil {
			return "", fmt.Errorf("worktree folder: %w", err)
		}
	}
	return dir, nil
}

// paneTree is a worktree as the session carries it (session.Workspace).
type paneTree struct{ t *worktree.Tree }

var _ session.Workspace = paneTree{}

func (p paneTree) Folder() string { return p.t.Path }
func (p paneTree) Branch() string { return p.t.Branch }

// Status says what the tree holds beyond its start.
func (p paneTree) Status() (string, error) {
	st, err := p.t.State()
	if err != nil {
		return "", err
	}
	return st.String(), nil
}

// Diff is the tree's changes against its starting commit.
func (p paneTree) Diff(color bool) (string, error) { return p.t.Diff(color) }

// trees makes panes' worktrees for one session and removes the unchanged ones when
// their panes go; safe for concurrent use (the session's Closed runs on goroutines).
type trees struct {
	session, root string
	log           *slog.Logger
	// git is held around each git change: panes closing together (the session's end),
	// or started from a terminal and the socket at once, would race for the
	// repository's locks.
	git  sync.Mutex
	mu   sync.Mutex
	kept []string // what the person is told at the end
}

// make gives spec a new worktree from the repository its folder (or agentmux's) is in:
// named after the pane, or its program's name with -2, -3… while that branch is
// taken.
func (ts *trees) make(spec *session.PaneSpec) error {
	dir := spec.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		dir = wd
	}
	name, auto := spec.Name, spec.Name == ""
	if auto {
		name = filepath.Base(spec.Argv[0])
		if session.CheckName(name) != nil {
			name = "pane"
		}
	}
	base := name
	ts.git.Lock()
	defer ts.git.Unlock()
	for n := 2; ; n++ {
		t, err := worktree.Create(dir, ts.root, ts.session, name)
		if err == nil {
			spec.Dir, spec.Tree, spec.Name = t.Path, paneTree{t}, name
			ts.log.Info("worktree made", "pane", name, "branch", t.Branch, "folder", t.Path, "base", t.Base)
			return nil
		}
		if !auto || !strings.Contains(err.Error(), "exists") || n > 20 {
			return err
		}
		name = base + "-" + strconv.Itoa(n)
	}
}

// closed removes a gone pane's worktree when it holds nothing an agent wrote, and
// keeps it (said in the log and at the end) when it does.
func (ts *trees) closed(spec session.PaneSpec) {
	pt, ok := spec.Tree.(paneTree)
	if !ok {
		return
	}
	ts.git.Lock()
	removed, err := pt.t.Remove(false)
	ts.git.Unlock()
	switch {
	case err != nil:
		ts.log.Warn("worktree: remove", "branch", pt.t.Branch, "err", err)
	case removed:
		ts.log.Info("worktree removed: unchanged", "branch", pt.t.Branch)
		return
	}
	st, _ := pt.Status()
	ts.log.Info("worktree kept", "branch", pt.t.Branch, "folder", pt.t.Path, "state", st)
	ts.mu.Lock()
	ts.kept = append(ts.kept, fmt.Sprintf("kept %s in %s (%s): agentmux worktree ls; merge it with git; agentmux worktree rm %s", pt.t.Branch, pt.t.Path, st, pt.t.Name()))
	ts.mu.Unlock()
}

// report tells the person which trees were kept.
func (ts *trees) report(w io.Writer) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, k := range ts.kept {
		fmt.Fprintln(w, "agentmux: "+k)
	}
}

// worktreeParts are `agentmux worktree ls` and `agentmux worktree rm NAME [--force]`,
// in the repository of the current folder.
var worktreeParts = []command{
	{name: "ls", exec: func(_ context.Context, _ clientArgs, sio stdio) (int, error) {
		return worktreeLs(sio.out)
	}},
	{name: "rm", maxArgs: 1, flags: []flagSpec{
		switchFlag("force", "remove it even when it holds an agent's work", func(a *clientArgs) *bool { return &a.force }),
	}, exec: func(_ context.Context, a clientArgs, sio stdio) (int, error) {
		return worktreeRm(a, sio.out)
	}},
}

// worktreeLs lists the panes' worktrees of the repository of the current folder.
func worktreeLs(stdout io.Writer) (int, error) {
	wd, err := os.Getwd()
	if err != nil {
		return 1, err
	}
	ts, err := worktree.List(wd)
	if err != nil {
		return 1, fmt.Errorf("worktree ls: %w", err)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tBRANCH\tFOLDER")
	for _, t := range ts {
		st, err := t.State()
		state := st.String()
		if err != nil {
			state = "unreadable: " + err.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", visible(t.Name(), false), state, visible(t.Branch, false), visible(t.Path, false))
	}
	return exit(tw.Flush())
}

// worktreeRm removes a pane's worktree and its branch, refusing one that holds an
// agent's work unless --force.
func worktreeRm(a clientArgs, stdout io.Writer) (int, error) {
	if len(a.operands) == 0 {
		return 2, usagef("agentmux worktree rm NAME [--force]: which one? (agentmux worktree ls)")
	}
	name, force := a.operands[0], a.force
	wd, err := os.Getwd()
	if err != nil {
		return 1, err
	}
	t, err := worktree.Find(wd, name)
	if err != nil {
		return 1, err
	}
	st, err := t.State()
	if err != nil {
		return 1, err
	}
	if st.Changed() && !force {
		return 1, fmt.Errorf("%s holds an agent's work (%s): see it with git -C %s diff %.12s, merge what you want, then agentmux worktree rm --force %s deletes it", t.Branch, st, t.Path, t.Base, name)
	}
	if _, err := t.Remove(force); err != nil {
		return 1, fmt.Errorf("worktree rm %s: %w", name, err)
	}
	_, err = fmt.Fprintf(stdout, "removed %s and %s\n", t.Branch, t.Path)
	return exit(err)
}

// folderText is ls's FOLDER column: the folder, and for a worktree its branch and what
// it holds beyond its start (read here with git: the session is not kept waiting).
func folderText(m proto.Member) string {
	if m.Branch == "" {
		return cmp.Or(m.Folder, "-")
	}
	state := "?"
	if ts, err := worktree.List(m.Folder); err == nil {
		for _, t := range ts {
			if t.Branch == m.Branch {
				if st, err := t.State(); err == nil {
					state = st.String()
				}
			}
		}
	}
	return fmt.Sprintf("%s ⎇ %s (%s)", m.Folder, m.Branch, state)
}

// applyPaneConfig applies config.toml's [ui] to o where no flag spoke, and its
// worktree = true to every pane (not the demo's).
func applyPaneConfig(o *options, conf settings) {
	if len(o.trees) != len(o.cfg.Panes) { // the demo's panes came after the flags
		o.trees = make([]bool, len(o.cfg.Panes))
	}
	if conf.Worktree && !o.demo {
		for i := range o.trees {
			o.trees[i] = true
		}
	}
	applyUI(o, conf.UI, o.set)
}

// setupPanes makes the start-up panes' worktrees and wires panes started at run time
// (prefix c, agentmux new) for session name, whose environment is env: what the
// in-process run and a session server both do before the session starts. On an error
// it returns the exit status; the trees' report names the kept ones at the end.
func setupPanes(o *options, conf settings, name string, env []string, logger *slog.Logger) (*trees, int, error) {
	root, err := treeRoot()
	if err != nil {
		return nil, 1, err
	}
	ts := &trees{session: name, root: root, log: logger}
	for i := range o.cfg.Panes {
		if !o.trees[i] {
			continue
		}
		if err := ts.make(&o.cfg.Panes[i]); err != nil {
			for _, p := range o.cfg.Panes[:i] {
				ts.closed(p)
			}
			return nil, 2, fmt.Errorf("pane %s: %w", o.cfg.Panes[i].Name, err)
		}
	}
	o.cfg.Closed, o.cfg.NewTree = ts.closed, ts.make // NewTree: agentmux new --worktree
	o.cfg.AddEnv = env
	o.cfg.ParsePane = func(line string) (session.PaneSpec, error) {
		spec, tree, err := parsePaneLine(line)
		if err == nil && (tree || conf.Worktree) {
			err = ts.make(&spec)
		}
		return spec, err
	}
	return ts, 0, nil
}

// treeNames reads --worktree NAME (a separate word) as --worktree=NAME when NAME is the
// name an AGENT argument gives a pane (NAME=COMMAND): --worktree alone is every pane's,
// so a word after it is an agent unless it names one.
func treeNames(args []string) []string {
	named := map[string]bool{}
	for _, a := range args {
		if n, _, ok := strings.Cut(a, "="); ok && validName(n) && !envName(n) {
			named[n] = true
		}
	}
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "--worktree" || a == "-worktree") && i+1 < len(args) && named[args[i+1]] {
			out = append(out, "--worktree="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}
