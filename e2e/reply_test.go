package e2e

// agentmux send --reply drives an agent as a function: it prints the addressed agent's
// next finished turn after the message went in (the words the relay would deliver),
// nothing else on stdout, exit 0; with --timeout D and no answer within D, exit 1. The
// session runs in a PTY with the fake agent (unlinked: a turn is an answer whether or
// not its pane is linked); the commands run as separate processes.

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

func TestSendReplyPrintsTheAnswer(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "rp", agent("fast", "--style", "inline"), agent("slow", "--style", "inline", "--busy", "4s"))
	s.waitScreen("both agents ready", func(sc *screen) bool {
		return sc.paneHas(1, "fast · simulated agent") && sc.paneHas(2, "slow · simulated agent")
	}, waitLong)

	out := env.run("send", "--session", "rp", "--reply", "fast", "what is two plus two")
	if !strings.Contains(out, "fast heard:") || !strings.Contains(out, "what is two plus two") || strings.Contains(out, "queued") {
		t.Errorf("send --reply printed %q, want the agent's answer alone", out)
	}
	if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
		t.Errorf("send --reply printed %q, want one line", out)
	}

	// The slow agent takes 4s: a timeout of 1s expires, exit 1, saying so.
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	var stdout, stderr strings.Builder
	cmd := env.command(ctx, "send", "--session", "rp", "--reply", "--timeout", "1s", "slow", "take your time")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil || cmd.ProcessState.ExitCode() != 1 || stdout.String() != "" || !strings.Contains(stderr.String(), "within 1s") {
		t.Errorf("send --reply --timeout 1s to a slow agent: %v, stdout %q, stderr %q; want exit 1 and why", err, stdout.String(), stderr.String())
	}
	s.waitScreen("the slow agent's answer came after all", func(sc *screen) bool { return sc.paneHas(2, "slow heard:") }, waitLong)

	// Usage errors: exit 2.
	for _, args := range [][]string{
		{"send", "--session", "rp", "--reply", "*", "hi"},
		{"send", "--session", "rp", "--reply", "--wait", "fast", "hi"},
	} {
		if err := env.command(ctx, args...).Run(); err == nil || exitCode(err) != 2 {
			t.Errorf("agentmux %s: %v, want exit 2", strings.Join(args, " "), err)
		}
	}
}

// exitCode is a finished command's exit status from its error (0 for nil).
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
