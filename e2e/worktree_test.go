package e2e

// Each pane in its own git worktree, with real git in a temporary repository: made from
// HEAD on agentmux/SESSION/NAME outside the repository, used by the pane, shown on the
// border and in ls, its diff by agentmux diff and prefix D, kept at the end when changed
// and removed when not; worktree ls and rm; a folder outside any repository refused.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/internal/oswait"
)

// gitRepo makes a repository with one commit and an uncommitted change of its own.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	git("add", "README")
	git("commit", "-q", "-m", "first")
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("the person's own edit\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestWorktreePanes(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	env := newSockEnv(t)
	o := env.opts()
	o.dir = repo
	// w1 commits a file and leaves a change; w2 only says where it is.
	w1 := `git -c user.name=a -c user.email=a@x commit -qm agent-commit --allow-empty && echo agent-data > agent.txt && echo W1-$(cat README) && exec cat`
	w2 := `echo W2-ON-$(git rev-parse --abbrev-ref HEAD); exec cat`
	s := startWith(t, o, "--session", "wt", "--worktree", shArg("w1", w1), shArg("w2", w2))
	s.waitScreen("both panes in their trees", func(sc *screen) bool {
		return sc.paneHas(1, "W1-hello") && sc.paneHas(2, "W2-ON-agentmux/wt/w2")
	}, waitLong)
	s.waitScreen("branch and state on the borders", func(sc *screen) bool {
		return sc.titleHas(1, "agentmux/wt/w1 changed, 1 ahead") && sc.titleHas(2, "agentmux/wt/w2 clean")
	}, waitLong)

	ls := env.run("ls", "--session", "wt")
	if !strings.Contains(ls, "⎇ agentmux/wt/w1 (changed, 1 ahead)") || !strings.Contains(ls, "⎇ agentmux/wt/w2 (clean)") {
		t.Errorf("ls does not show the trees:\n%s", ls)
	}
	for _, line := range strings.Split(ls, "\n") {
		if strings.Contains(line, "agentmux/wt/") && strings.Contains(line, repo+"/") {
			t.Errorf("a tree inside the repository: %s", line)
		}
	}
	if d := env.run("diff", "--session", "wt", "w1"); !strings.Contains(d, "agent-commit") || !strings.Contains(d, "agent.txt") || !strings.HasSuffix(d, "\n") {
		t.Errorf("agentmux diff w1 (ending with a newline):\n%q", d)
	}
	// prefix c with --worktree: a new pane in a tree of its own.
	s.send(prefix + "c")
	s.waitScreen("the prompt", func(sc *screen) bool { return sc.statusHas("new pane") }, waitLong)
	s.send(`--worktree w3=sh -c "echo W3-ON-$(git rev-parse --abbrev-ref HEAD); exec cat"` + "\r")
	s.waitScreen("pane 3 in its tree", func(sc *screen) bool { return sc.paneHas(3, "W3-ON-agentmux/wt/w3") }, waitLong)

	// prefix D: the diff inside agentmux, closed with q.
	s.send(prefix + "1")
	s.send(prefix + "D")
	s.waitScreen("the diff view", func(sc *screen) bool { return sc.has("diff of pane 1 w1") && sc.has("agent.txt") }, waitLong)
	s.send("q")
	s.waitScreen("the view closed", func(sc *screen) bool { return !sc.has("diff of pane 1 w1") }, waitLong)

	// A second session in the same repository gets trees of its own.
	s2 := startWith(t, o, "--session", "wt2", "--worktree", shArg("w1", w2))
	s2.waitScreen("the second session's tree", func(sc *screen) bool { return sc.paneHas(1, "W2-ON-agentmux/wt2/w1") }, waitLong)
	end(s2)

	// The end: the changed tree is kept (and said), the unchanged one removed.
	end(s)
	// The end removes the clean trees (a session server may still be ending after its
	// terminal went: git's record of the trees is watched, up to the deadline).
	var wls string
	_ = oswait.Until(waitLong, func() bool {
		wls = env.runIn(repo, "worktree", "ls")
		return !strings.Contains(wls, "wt/w2") && !strings.Contains(wls, "wt/w3") && !strings.Contains(wls, "wt2/")
	}, filepath.Join(repo, ".git", "worktrees"))
	if !strings.Contains(wls, "wt/w1") || !strings.Contains(wls, "changed, 1 ahead") || strings.Contains(wls, "wt/w2") || strings.Contains(wls, "wt/w3") || strings.Contains(wls, "wt2/") {
		t.Errorf("worktree ls after the end:\n%s", wls)
	}
	if out, err := env.commandIn(repo, "worktree", "rm", "wt/w1").CombinedOutput(); err == nil || !strings.Contains(string(out), "--force") {
		t.Errorf("worktree rm of a changed tree: %v %s", err, out)
	}
	env.runIn(repo, "worktree", "rm", "--force", "w1")
	if wls := env.runIn(repo, "worktree", "ls"); strings.Contains(wls, "wt/w1") {
		t.Errorf("still listed after rm --force:\n%s", wls)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "README")); string(b) != "the person's own edit\n" {
		t.Errorf("the repository's own change was touched: %q", b)
	}
}

// end ends session s with prefix q and y, and waits for its terminal to exit 0.
func end(s *session) {
	s.t.Helper()
	s.send(prefix + "q")
	s.waitScreen("the end question", func(sc *screen) bool { return sc.statusHas("(y/n)") || sc.statusHas("y: end") }, waitLong)
	s.send("y")
	if code := s.waitExit(waitLong); code != 0 {
		s.t.Errorf("exit %d after the end", code)
	}
}

func TestWorktreeOutsideARepositoryFails(t *testing.T) {
	t.Parallel()
	s := startWith(t, options{dir: t.TempDir()}, "--worktree", "a=cat")
	if code := s.waitExit(waitLong); code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	<-s.eof
	if !s.screen().has("not inside a git repository") {
		t.Errorf("no clear error:\n%s", s.screen().dump())
	}
}
