package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hooks"
	"github.com/agentmux/agentmux/peer"
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

// trees makes panes' worktrees for one session, locks each while its pane lives, and
// removes the unchanged ones when their panes go; safe for concurrent use (the
// session's Closed runs on goroutines).
type trees struct {
	session, root string
	log           *slog.Logger
	// git is held around each git change: panes closing together (the session's end),
	// or started from a terminal and the socket at once, would race for the
	// repository's locks.
	git   sync.Mutex
	mu    sync.Mutex
	notes []string // what starting the panes has to tell the first terminal
}

// make gives spec a worktree from the repository its folder (or agentmux's) is in,
// named after the pane, or its program's name with -2, -3… while that name's tree is
// in use: a new one, or the one kept from an earlier run of this session and pane
// (said on the status line and in the log). The tree is locked for the pane.
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
		name = proto.DefaultName(spec.Argv[0])
	}
	base := name
	ts.git.Lock()
	defer ts.git.Unlock()
	for n := 2; ; n++ {
		t, note, err := ts.makeNamed(dir, name)
		if err == nil {
			spec.Dir, spec.Tree, spec.Name = t.Path, paneTree{t}, name
			if note != "" {
				ts.log.Info("worktree reused", "pane", name, "branch", t.Branch, "folder", t.Path)
				ts.mu.Lock()
				ts.notes = append(ts.notes, note)
				ts.mu.Unlock()
			} else {
				ts.log.Info("worktree made", "pane", name, "branch", t.Branch, "folder", t.Path, "base", t.Base)
			}
			return nil
		}
		if !auto || !errors.Is(err, errInUse) && !strings.Contains(err.Error(), "exists") || n > 20 {
			return err
		}
		name = base + "-" + strconv.Itoa(n)
	}
}

// errInUse means a pane that runs now holds the tree.
var errInUse = errors.New("in use")

// makeNamed makes pane name's tree, or takes back the one kept for it (note says so),
// locked for the pane.
func (ts *trees) makeNamed(dir, name string) (t *worktree.Tree, note string, err error) {
	t, err = worktree.Create(dir, ts.root, ts.session, name)
	if errors.Is(err, worktree.ErrTaken) {
		if t, err = ts.reuse(dir, name); err != nil {
			return nil, "", err
		}
		st, _ := t.State()
		note = fmt.Sprintf("pane %s: reusing the kept worktree %s (%s, %s)", name, homeShort(t.Path), t.Branch, st)
	}
	if err != nil {
		return nil, "", err
	}
	if err := t.Lock(ts.holder(name)); err != nil {
		ts.log.Warn("worktree: lock", "branch", t.Branch, "err", err)
	}
	return t, note, nil
}

// holder is who a pane's tree is locked for: this session's pane, this process.
func (ts *trees) holder(pane string) worktree.Holder {
	return worktree.Holder{Session: ts.session, Pane: pane, PID: os.Getpid()}
}

// reuse takes back the tree kept for this session's pane name: refused when a pane
// that runs now holds it (errInUse), or when it is a leftover of an interrupted start
// (its fix named); a lock left by a session that is gone is released.
func (ts *trees) reuse(dir, name string) (*worktree.Tree, error) {
	all, err := worktree.List(dir)
	if err != nil {
		return nil, fmt.Errorf("--worktree: %w", err)
	}
	full := ts.session + "/" + name
	for _, t := range all {
		if t.Name() != full {
			continue
		}
		if t.Problem != "" {
			return nil, fmt.Errorf("--worktree: %s is left from an earlier start (%s): agentmux worktree rm %s clears it, or --cwd %s=DIR starts the pane in a folder of your choosing", t.Branch, t.Problem, full, name)
		}
		if err := releaseStale(t); err != nil {
			return nil, fmt.Errorf("--worktree: %w", err)
		}
		return t, nil
	}
	return nil, fmt.Errorf("--worktree: branch %s exists but is no pane's tree (agentmux worktree ls)", worktree.BranchPrefix+full)
}

// releaseStale unlocks t when its lock names a session's pane whose session is gone;
// a pane that runs in it now is errInUse, a lock agentmux did not set an error naming
// it.
func releaseStale(t *worktree.Tree) error {
	if !t.Locked {
		return nil
	}
	h, ok := worktree.ParseHolder(t.LockReason)
	switch {
	case !ok:
		return fmt.Errorf("%s is locked (%q): git worktree unlock %s releases it", t.Path, t.LockReason, t.Path)
	case holderRuns(h):
		return fmt.Errorf("pane %s of session %s runs in %s: %w (close that pane first, or give this one another name or --cwd NAME=DIR)", h.Pane, h.Session, t.Path, errInUse)
	}
	return t.Unlock()
}

// holderRuns reports whether the session that locked a tree still runs: its process
// lives and the session socket of its name answers from that very process (the
// kernel's word on the listener, so neither a pid reused by another program nor a
// new server of the same name, started while the old one's killed process waits to
// be reaped, is taken for it).
func holderRuns(h worktree.Holder) bool {
	if h.PID == os.Getpid() {
		return true
	}
	if err := syscall.Kill(h.PID, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	dir, err := dirs.RuntimeDir()
	if err != nil {
		return true // cannot tell: the safe answer
	}
	c, err := net.DialTimeout("unix", dirs.SocketPath(dir, h.Session), 2*time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	pid := peer.PID(c)
	return pid == 0 || pid == h.PID // a system that does not say the process: it may be
}

// closed unlocks a gone pane's worktree and removes it when it holds nothing an agent
// wrote (ignored and untracked files count); a kept one is said in the log, at the
// end, and in the note it returns for the status line.
func (ts *trees) closed(spec session.PaneSpec) string {
	pt, ok := spec.Tree.(paneTree)
	if !ok {
		return ""
	}
	ts.git.Lock()
	err := pt.t.Unlock()
	removed := false
	if err == nil {
		removed, err = pt.t.Remove(false)
	}
	ts.git.Unlock()
	switch {
	case err != nil:
		ts.log.Warn("worktree: remove", "branch", pt.t.Branch, "err", err)
	case removed:
		ts.log.Info("worktree removed: unchanged", "branch", pt.t.Branch)
		return ""
	}
	st, _ := pt.Status()
	ts.log.Info("worktree kept", "branch", pt.t.Branch, "folder", pt.t.Path, "state", st)
	return keptNote(pt.t, st)
}

// keptNote is how a kept tree is said: where, its branch, what it holds, where to look.
func keptNote(t *worktree.Tree, state string) string {
	return fmt.Sprintf("kept: %s (%s, %s) — agentmux worktree ls", homeShort(t.Path), t.Branch, state)
}

// homeShort writes a folder in the person's home as ~/…, so that it fits a status line.
func homeShort(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return path
	}
	if rest, ok := strings.CutPrefix(path, strings.TrimSuffix(home, "/")+"/"); ok {
		return "~/" + rest
	}
	return path
}

// notice is what starting the panes has to tell the first terminal (kept trees
// reused), once.
func (ts *trees) notice() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	n := strings.Join(ts.notes, "; ")
	ts.notes = nil
	return n
}

// worktreeParts are `agentmux worktree ls` and `agentmux worktree rm NAME [--force]`,
// in the repository of the current folder.
var worktreeParts = []command{
	{name: "ls", exec: func(_ context.Context, _ clientArgs, sio stdio) (int, error) {
		return worktreeLs(sio.out)
	}},
	{name: "rm", maxArgs: 1, flags: []flagSpec{
		switchFlag("force", "remove it even when it holds an agent's work", func(a *worktreeRmArgs) *bool { return &a.force }),
	}, exec: func(_ context.Context, a clientArgs, sio stdio) (int, error) {
		return worktreeRm(a, sio.out)
	}},
}

// worktreeLs lists the panes' worktrees of the repository of the current folder: what
// each holds, who runs in it, and the leftovers of interrupted starts.
// worktreeRmArgs are worktree rm's: remove a tree with an agent's work too.
type worktreeRmArgs struct{ force bool }

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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", visible(t.Name(), false), visible(treeState(t), false), visible(t.Branch, false), visible(cmp.Or(t.Path, "-"), false))
	}
	return exit(tw.Flush())
}

// treeState is ls's STATE column: what the tree holds, and who runs in it; for a
// leftover, why it is incomplete.
func treeState(t *worktree.Tree) string {
	if t.Problem != "" {
		if h, ok := worktree.ParseHolder(t.LockReason); t.Locked && ok && holderRuns(h) {
			return "incomplete (" + t.Problem + "), in use by session " + h.Session + " pane " + h.Pane
		}
		return "incomplete (" + t.Problem + "): agentmux worktree rm " + t.Name() + " clears it"
	}
	st, err := t.State()
	state := st.String()
	if err != nil {
		state = "unreadable: " + err.Error()
	}
	if !t.Locked {
		return state
	}
	h, ok := worktree.ParseHolder(t.LockReason)
	switch {
	case !ok:
		return state + ", locked: " + t.LockReason
	case holderRuns(h):
		return state + ", in use by session " + h.Session + " pane " + h.Pane
	}
	return state + ", locked by session " + h.Session + " pane " + h.Pane + " (not running)"
}

// worktreeRm removes a pane's worktree and its branch, refusing one that holds an
// agent's work unless --force, and one a running pane is in; a lock left by a session
// that is gone is released. A leftover of an interrupted start goes unless its branch
// holds commits of its own.
func worktreeRm(a clientArgs, stdout io.Writer) (int, error) {
	if len(a.operands) == 0 {
		return 2, usagef("agentmux worktree rm NAME [--force]: which one? (agentmux worktree ls)")
	}
	name, force := a.operands[0], own[worktreeRmArgs](a).force
	wd, err := os.Getwd()
	if err != nil {
		return 1, err
	}
	t, err := worktree.Find(wd, name)
	if err != nil {
		return 1, err
	}
	if t.Problem != "" {
		removed, err := t.Remove(force)
		if err != nil {
			return 1, fmt.Errorf("worktree rm %s: %w", name, err)
		}
		if !removed {
			n, _ := t.Unmerged()
			if n == 0 {
				return 1, fmt.Errorf("%s holds files (git -C %s status --ignored), though no start was recorded for it: agentmux worktree rm --force %s deletes them", t.Path, t.Path, name)
			}
			return 1, fmt.Errorf("%s holds %d commits of its own (git log %s), though its start was interrupted: agentmux worktree rm --force %s deletes them", t.Branch, n, t.Branch, name)
		}
		_, err = fmt.Fprintf(stdout, "removed %s, left from an interrupted start (%s)\n", t.Branch, t.Problem)
		return exit(err)
	}
	if t.Locked {
		if h, ok := worktree.ParseHolder(t.LockReason); ok && holderRuns(h) {
			return 1, fmt.Errorf("pane %s of session %s runs in %s: close the pane (prefix x) or end the session; its tree is kept or removed then", h.Pane, h.Session, t.Path)
		}
	}
	st, err := t.State()
	if err != nil {
		return 1, err
	}
	if st.Changed() && !force {
		return 1, fmt.Errorf("%s holds an agent's work (%s): see it with git -C %s diff %.12s (git status --ignored for ignored files), keep what you want, then agentmux worktree rm --force %s deletes it", t.Branch, st, t.Path, t.Base, name)
	}
	if err := releaseStale(t); err != nil {
		return 1, fmt.Errorf("worktree rm %s: %w", name, err)
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
	if len(o.trees) != len(o.sess.Panes) { // the demo's panes came after the flags
		o.trees = make([]bool, len(o.sess.Panes))
	}
	if conf.Worktree && !o.demo {
		for i := range o.trees {
			o.trees[i] = true
		}
	}
	applyUI(o, conf.UI, o.set)
	o.mcp = o.mcp || conf.MCP && !o.demo // [mcp] enabled, as --mcp
	o.sess.MCP = o.mcp
}

// setupPanes makes the start-up panes' worktrees and wires panes started at run time
// (prefix c, agentmux new) for session name, whose environment is env: what a session
// server does before the session starts. On an error it returns the exit status.
func setupPanes(o *options, conf settings, name string, env []string, logger *slog.Logger) (*trees, int, error) {
	root, err := treeRoot()
	if err != nil {
		return nil, 1, err
	}
	ts := &trees{session: name, root: root, log: logger}
	for i := range o.sess.Panes {
		if !o.trees[i] {
			continue
		}
		if err := ts.make(&o.sess.Panes[i]); err != nil {
			for _, p := range o.sess.Panes[:i] {
				ts.closed(p)
			}
			return nil, 2, fmt.Errorf("pane %s: %w", o.sess.Panes[i].Name, err)
		}
	}
	o.sess.Closed, o.cfg.Closed, o.cfg.Notice = ts.closed, ts.closed, ts.notice
	o.sess.NewTree = func(spec *session.PaneSpec) error { // agentmux new --worktree
		err := ts.make(spec)
		ts.notice() // a reuse is in the log; no terminal asked for this pane
		return err
	}
	o.sess.AddEnv = env
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
