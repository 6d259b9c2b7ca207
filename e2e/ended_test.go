package e2e

// A session that ends tells every attached terminal, after restoring its screen, that
// it ended and why (kill-session from elsewhere, or prefix q in another terminal), and
// which worktrees it kept with an agent's work in them (branch, state, folder). The
// terminals are PTYs read through vterm; the worktrees are real git ones.

import (
	"os/exec"
	"testing"
)

func TestKillSessionTellsEveryTerminalAndTheKeptTrees(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	env := newSockEnv(t)
	o := env.opts()
	o.dir = repo
	w1 := `git -c user.name=a -c user.email=a@x commit -qm agent-commit --allow-empty && echo W1-READY && exec cat`
	w2 := `echo W2-READY; exec cat`
	s := startWith(t, o, "--session", "kt", "--worktree", shArg("w1", w1), shArg("w2", w2))
	s.waitScreen("both panes", func(sc *screen) bool { return sc.paneHas(1, "W1-READY") && sc.paneHas(2, "W2-READY") }, waitLong)
	second := startWith(t, o, "attach", "--session", "kt")
	second.waitScreen("the second terminal", func(sc *screen) bool { return sc.paneHas(1, "W1-READY") }, waitLong)

	cmd := exec.Command(agentmuxBin, "kill-session", "--session", "kt") // as every command takes it
	cmd.Env = env.environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kill-session: %v: %s", err, out)
	}
	for _, term := range []*session{s, second} {
		if code := term.waitExit(waitLong); code != 0 {
			t.Errorf("a terminal exited %d after kill-session, want 0", code)
		}
		<-term.eof
		sc := term.screen()
		if !sc.has("session kt ended (kill-session)") {
			t.Errorf("the terminal was not told the session ended:\n%s", sc.dump())
		}
		if !sc.has("kept agentmux/kt/w1 (1 ahead) in ") || !sc.has("agentmux worktree ls") {
			t.Errorf("the terminal was not told of the kept worktree:\n%s", sc.dump())
		}
		if sc.has("agentmux/kt/w2") {
			t.Errorf("the unchanged worktree is named as kept:\n%s", sc.dump())
		}
	}
}

func TestPrefixQTellsTheOtherTerminal(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "pq", "a=sh -c 'echo A-READY; exec cat'")
	s.waitScreen("the pane", func(sc *screen) bool { return sc.paneHas(1, "A-READY") }, waitLong)
	other := startWith(t, env.opts(), "attach", "pq")
	other.waitScreen("the other terminal", func(sc *screen) bool { return sc.paneHas(1, "A-READY") }, waitLong)
	end(s)
	if code := other.waitExit(waitLong); code != 0 {
		t.Errorf("the other terminal exited %d, want 0", code)
	}
	<-other.eof
	for _, term := range []*session{s, other} {
		<-term.eof
		if sc := term.screen(); !sc.has("session pq ended (prefix q)") || sc.has("kept ") {
			t.Errorf("the terminal was not told (only) that the session ended:\n%s", sc.dump())
		}
	}
}

// Closing the session's last pane ends it, and the terminal says so, not "prefix q".
func TestClosingTheLastPaneSaysSo(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "lp", "a=sh -c 'echo A-READY; exec cat'")
	s.waitScreen("the pane", func(sc *screen) bool { return sc.paneHas(1, "A-READY") }, waitLong)
	s.send(prefix + "x")
	s.waitScreen("the close question", func(sc *screen) bool { return sc.statusHas("(y/n)") }, waitLong)
	s.send("y")
	if code := s.waitExit(waitLong); code != 0 {
		t.Errorf("exit %d after closing the last pane, want 0", code)
	}
	<-s.eof
	if sc := s.screen(); !sc.has("session lp ended (its last pane closed)") {
		t.Errorf("the terminal was not told the last pane closed:\n%s", sc.dump())
	}
}
