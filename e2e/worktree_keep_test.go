package e2e

// A pane's worktree through the binary, with real git in a temporary repository: locked
// while its pane runs (git and worktree rm leave it alone), kept when the agent wrote
// only ignored files and said so on the status line when the pane closes, taken back
// when the same session and pane start again (also after the session's server was
// SIGKILLed, its lock stale); and what a SIGKILL during git worktree add leaves, listed
// by worktree ls and cleared by worktree rm.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// gitOut runs git in dir and returns its output, failing the test on an error.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestWorktreeKeptOnCloseLockedAndReused(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	if err := os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("notes/\n.env\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gitOut(t, repo, "add", ".gitignore")
	gitOut(t, repo, "commit", "-qm", "ignore notes")
	env := newSockEnv(t)
	o := env.opts()
	o.dir = repo
	// The agent writes only an ignored file: git calls the tree clean.
	w1 := `mkdir notes && echo the-plan > notes/plan.md && echo W1-READY; exec cat`
	s := startWith(t, o, "--session", "wk", "--worktree=w1", shArg("w1", w1), "p2=cat")
	s.waitScreen("w1 in its tree", func(sc *screen) bool { return sc.paneHas(1, "W1-READY") }, waitLong)

	if l := gitOut(t, repo, "worktree", "list", "--porcelain"); !strings.Contains(l, "locked agentmux session wk pane w1 (pid ") {
		t.Errorf("the tree is not locked while its pane runs:\n%s", l)
	}
	if wls := env.runIn(repo, "worktree", "ls"); !strings.Contains(wls, "ignored: notes/, in use by session wk pane w1") {
		t.Errorf("worktree ls while the pane runs:\n%s", wls)
	}
	if out, err := env.commandIn(repo, "worktree", "rm", "--force", "wk/w1").CombinedOutput(); err == nil || !strings.Contains(string(out), "pane w1 of session wk runs in") {
		t.Errorf("worktree rm --force of a tree a pane runs in: %v %s", err, out)
	}

	// Closing the pane keeps the tree for the ignored file, and says so.
	s.send(prefix + "1")
	s.send(prefix + "x")
	s.waitScreen("the close question", func(sc *screen) bool { return sc.statusHas("(y/n)") }, waitLong)
	s.send("y")
	s.waitScreen("the kept tree said", func(sc *screen) bool {
		return sc.statusHas("kept: ~/state/agentmux/worktrees/") && sc.statusHas("/wk/w1 (agentmux/wk/w1, ignored: notes/) — agentmux")
	}, waitLong)
	if l := gitOut(t, repo, "worktree", "list", "--porcelain"); strings.Contains(l, "locked") {
		t.Errorf("still locked after its pane closed:\n%s", l)
	}
	end(s)

	// The same session and pane again: the kept tree is taken back, and said.
	again := `cat notes/plan.md; echo W1-AGAIN; exec cat`
	s2 := startWith(t, o, "--session", "wk", "--worktree=w1", shArg("w1", again), "p2=cat")
	s2.waitScreen("the kept tree reused", func(sc *screen) bool {
		return sc.statusHas("reusing the kept worktree") && sc.paneHas(1, "the-plan") && sc.paneHas(1, "W1-AGAIN")
	}, waitLong)

	// The server is killed: its lock stays, named as not running, and is released when
	// the pane starts again.
	if err := syscall.Kill(serverPid(t, env.environ(), "wk"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s2.waitExit(waitLong)
	if wls := env.runIn(repo, "worktree", "ls"); !strings.Contains(wls, "locked by session wk pane w1 (not running)") {
		t.Errorf("worktree ls after the server was killed:\n%s", wls)
	}
	s3 := startWith(t, o, "--session", "wk", "--worktree=w1", shArg("w1", again), "p2=cat")
	s3.waitScreen("the kept tree reused after the kill", func(sc *screen) bool {
		return sc.statusHas("reusing the kept worktree") && sc.paneHas(1, "W1-AGAIN")
	}, waitLong)
	end(s3)
	if out, err := env.commandIn(repo, "worktree", "rm", "wk/w1").CombinedOutput(); err == nil || !strings.Contains(string(out), "ignored: notes/") {
		t.Errorf("worktree rm of a tree holding an ignored file: %v %s", err, out)
	}
	env.runIn(repo, "worktree", "rm", "--force", "wk/w1")
}

// TestWorktreeKilledStartIsListedAndRemoved kills the session server during git
// worktree add, just after git made the branch (git is a wrapper that makes the branch
// as git worktree add -b does first, then SIGKILLs its caller).
func TestWorktreeKilledStartIsListedAndRemoved(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	bin := t.TempDir()
	// git -C DIR [-c K=V]… worktree add -b BRANCH PATH BASE: the branch, then the kill.
	wrapper := `#!/bin/sh
case " $* " in
*" worktree add -b "*)
	dir=$2
	while [ "$1" != "-b" ]; do shift; done
	"$REALGIT" -C "$dir" branch "$2" "$4"; kill -9 $PPID; exit 1;;
esac
exec "$REALGIT" "$@"
`
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(wrapper), 0o700); err != nil {
		t.Fatal(err)
	}
	env := newSockEnv(t)
	o := env.opts()
	o.dir = repo
	killed := o
	killed.env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "REALGIT=" + real}
	s := startWith(t, killed, "--session", "wk", "--worktree=w1", shArg("w1", "exec cat"))
	if code := s.waitExit(waitLong); code == 0 {
		t.Fatalf("the start whose server was killed exited 0")
	}
	if b := gitOut(t, repo, "branch", "--list", "agentmux/*"); !strings.Contains(b, "agentmux/wk/w1") {
		t.Fatalf("the kill left no branch: %q", b)
	}

	wls := env.runIn(repo, "worktree", "ls")
	if !strings.Contains(wls, "wk/w1") || !strings.Contains(wls, "incomplete (no worktree") {
		t.Errorf("worktree ls does not show the killed start:\n%s", wls)
	}
	if out := env.runIn(repo, "worktree", "rm", "wk/w1"); !strings.Contains(out, "removed agentmux/wk/w1, left from an interrupted start") {
		t.Errorf("worktree rm: %s", out)
	}
	if b := gitOut(t, repo, "branch", "--list", "agentmux/*"); b != "" {
		t.Errorf("a branch is left: %q", b)
	}
	if wls := env.runIn(repo, "worktree", "ls"); strings.Contains(wls, "wk/w1") {
		t.Errorf("still listed:\n%s", wls)
	}
	// The same session and pane start now.
	s2 := startWith(t, o, "--session", "wk", "--worktree=w1", shArg("w1", `echo ON-$(git rev-parse --abbrev-ref HEAD); exec cat`))
	s2.waitScreen("the pane in a new tree", func(sc *screen) bool { return sc.paneHas(1, "ON-agentmux/wk/w1") }, waitLong)
	end(s2)
}
