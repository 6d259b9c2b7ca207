package e2e

// A session started without a terminal (agentmux --detached / -d, as tmux new-session
// -d) and session names that differ only in case: the commands run as separate
// processes against the test's runtime folder, the detached session is then attached in
// a PTY and read from its screen. Every server a test starts is ended at cleanup.

import (
	"context"
	"os"
	"strings"
	"testing"
)

// detached runs agentmux with args (a detached start) and returns its exit status,
// stdout and stderr; the sessions it may have started are killed at cleanup.
func (e sockEnv) detached(names []string, args ...string) (int, string, string) {
	e.t.Helper()
	e.t.Cleanup(func() {
		for _, n := range names {
			_ = e.command(context.Background(), "kill-session", n).Run()
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	var stdout, stderr strings.Builder
	cmd := e.command(ctx, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("agentmux %s did not exit within %v", strings.Join(args, " "), waitLong)
	}
	code := 0
	if err != nil {
		code = cmd.ProcessState.ExitCode()
	}
	return code, stdout.String(), stderr.String()
}

func TestDetachedStartPrintsItsNameAndRuns(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	code, out, errOut := env.detached([]string{"dt", "dt2"}, "--detached", "--session", "dt", "a=sh -c 'echo DETACHED-A; exec cat'")
	if code != 0 || out != "dt\n" {
		t.Fatalf("agentmux --detached: exit %d, stdout %q, stderr %q; want 0 and the name", code, out, errOut)
	}
	if ls := env.run("ls", "--session", "dt"); !strings.Contains(ls, "a") || !strings.Contains(ls, "sh") {
		t.Errorf("ls of the detached session:\n%s", ls)
	}
	code, out, errOut = env.detached(nil, "-d", "--session", "dt2", "cat")
	if code != 0 || out != "dt2\n" {
		t.Errorf("agentmux -d: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A terminal attaches and sees the pane.
	s := startWith(t, env.opts(), "attach", "dt")
	s.waitScreen("the detached pane", func(sc *screen) bool { return sc.paneHas(1, "DETACHED-A") && sc.titleHas(1, "1 a") }, waitLong)
}

func TestDetachedStartErrorsAsBefore(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-d", "--session", "e1", "--bogus", "cat"}, "--bogus"},
		{[]string{"--detached", "--session", "e1", "no-such-program-xyz"}, "no-such-program-xyz"},
		{[]string{"--detached", "--session", "e1"}, "no agents given"},
		{[]string{"--detached", "--in-process", "--session", "e1", "cat"}, "--in-process"},
	} {
		code, out, errOut := env.detached([]string{"e1"}, c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("agentmux %s: exit %d, stdout %q, stderr %q; want 2 and an error naming %q", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
		if _, err := os.Stat(env.socket("e1")); err == nil {
			t.Errorf("agentmux %s started a session", strings.Join(c.args, " "))
		}
	}
}

// s1 and S1 never run side by side: attach finds names in any case, and on a
// case-insensitive file system the two sockets would be one.
func TestSessionNamesDifferingInCaseRefused(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "s1", "a=sh -c 'echo FIRST; exec cat'")
	s.waitScreen("the first session", func(sc *screen) bool { return sc.paneHas(1, "FIRST") }, waitLong)
	second := startWith(t, env.opts(), "--session", "S1", "cat")
	if code := second.waitExit(waitLong); code != 2 {
		t.Errorf("the second session exited %d, want 2", code)
	}
	<-second.eof
	if sc := second.screen(); !sc.has("session s1 is running") || !sc.has("differ only in case") {
		t.Errorf("the refusal does not say why:\n%s", sc.dump())
	}
	if _, err := os.Stat(env.socket("S1")); err == nil {
		t.Error("S1's socket exists")
	}
	if out := env.run("sessions"); strings.Contains(out, "S1") {
		t.Errorf("sessions lists S1:\n%s", out)
	}
}
