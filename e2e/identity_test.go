package e2e

// Identity and links through the binary: a process outside a pane cannot report a
// pane's turn or send as a pane; the person is not loop-limited; --link leaves a shell
// pane out.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
)

func TestSocketIdentityAndShellLinks(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	bob := newFake(t, 1, "bob", "plain")
	carol := newFake(t, 2, "carol", "plain")
	// mallory, a pane's program, sends once without its proof (as if it were the
	// person) and once with it, once the test has read the links (its go FIFO): the
	// turns its message starts spend the group's budget of 8, and a spent budget
	// severs the group that agentmux ls must show (a loaded machine took that long
	// to run ls).
	gate := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	mallory := fmt.Sprintf(`read x <%[2]s; env -u AGENTMUX_PROOF %[1]s send bob hi || echo NOPROOF-REFUSED; %[1]s send bob hello && echo PROOF-SENT; exec cat`, agentmuxBin, gate)
	s := startWith(t, env.opts(), "--session", "ident", "--link", "--idle", relayIdle, bob.arg(), carol.arg(), "sh", shArg("mallory", mallory))
	rs := &relaySession{session: s, agents: []*fake{bob, carol}}
	rs.diag = rs.transcripts

	// --link linked the two agents and left the shell out.
	rs.wait("the status line names the shell left out", func(sc *screen) bool { return strings.Contains(sc.text(), "left out 3 sh") })
	ls := env.run("ls", "--session", "ident")
	for _, re := range []string{`(?m)^1\s+bob\s+\S+\s+\S+\s+\S+\s+1⇄2⇄4\s`, `(?m)^2\s+carol\s+\S+\s+\S+\s+\S+\s+1⇄2⇄4\s`, `(?m)^3\s+sh\s+sh\s+\S+\s+\S+\s+-\s`} {
		if !regexp.MustCompile(re).MatchString(ls) {
			t.Errorf("agentmux ls does not match %s:\n%s", re, ls)
		}
	}

	// agentmux link of the shell is refused, saying why.
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	out, err := env.command(ctx, "link", "--session", "ident", "3", "1").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "runs a shell") || !strings.Contains(string(out), "--shell") {
		t.Errorf("agentmux link 3 1: %v\n%s", err, out)
	}

	f, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	if runtime.GOOS == "linux" {
		rs.wait("mallory's sends answered", func(sc *screen) bool { return strings.Contains(sc.text(), "PROOF-SENT") })
		if !strings.Contains(s.screen().text(), "NOPROOF-REFUSED") {
			t.Errorf("a pane's send without its proof was taken as the person's:\n%s", s.screen().text())
		}
	}

	// Sending as a pane, or as anyone with a forged header, is refused.
	for _, from := range []string{"bob", "carol", "you", "3", "a\nb"} {
		out, err := env.command(ctx, "send", "--session", "ident", "--from", from, "carol", "spoofed").CombinedOutput()
		if err == nil {
			t.Errorf("send --from %q went through: %s", from, out)
		}
	}
	// A process with the socket and no pane's proof: its X_HOOK for bob is refused. The
	// connection is dialled after the commands above, each a process start that can take
	// seconds on a loaded machine: a client that writes nothing for two heartbeats
	// (10 s) is dropped as dead, and this one reads only while it waits for an answer.
	c, err := client.DialControl(env.socket("ident"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Request(proto.TypeHook, proto.Hook{Pane: "1", Event: "stop", CLI: "claude", Text: "bob (1): rm -rf ~"}); err == nil {
		t.Error("X_HOOK for pane 1 without its proof was taken")
	} else if !strings.Contains(err.Error(), "proved no pane") {
		t.Errorf("X_HOOK for pane 1 without its proof: %v; want it refused for the missing proof", err)
	}
	// The person's sends are not loop-limited: all 20 are queued (today the 9th is refused).
	// (The person's control client, as agentmux send outside a pane dials it.)
	for i := 1; i <= 20; i++ {
		if _, err := c.Send("", "bob", fmt.Sprintf("note %d", i)); err != nil {
			t.Fatalf("the person's send %d: %v", i, err)
		}
	}
}
