package e2e

// agentmux restore through the binary: a detached session of simulated agents (the
// fake agent as claude and codex, whose hooks report a conversation id as the CLIs do)
// and a pane in a git worktree is SIGKILLed with its server, as a reboot would, then
// restored. What must come back: the panes with their numbers (one closed before the
// kill leaves its gap), the zoom, each agent on its own conversation (the fake agent
// records "ID new" or "ID resumed" as it starts), the link with the turns it spent, the
// hold, the worktree with the pane's change in it, and a message queued before the kill
// typed once. Waits are on the screen of an attached terminal and on `agentmux events`;
// the restore's time to every pane ready is logged for 2 and 8 panes.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/oswait"
)

func TestRestoreAfterSIGKILL(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t)
	env := newSockEnv(t)
	convs := filepath.Join(t.TempDir(), "conversations")
	a := newFake(t, 1, "a", "inline", "--conversations", convs)
	b := newFake(t, 3, "b", "alt", "--conversations", convs)
	w := shArg("w", `if [ -f agent.txt ]; then echo W-KEPT-$(cat agent.txt); else echo agent-data > agent.txt; echo W-NEW; fi; exec cat`)
	t.Cleanup(func() { _ = env.command(context.Background(), "kill-session", "rs").Run() })
	env.runIn(repo, "--detached", "--session", "rs", "--idle", relayIdle, "--turns", "9", "--worktree=w", a.arg(), "gone=cat", b.arg(), w)

	first := startWith(t, env.opts(), "attach", "rs")
	first.diag = func() string { return fmt.Sprintf("a: %+v\nb: %+v", a.read(), b.read()) }
	first.waitScreen("the panes started", func(sc *screen) bool { return a.ready(sc) && b.ready(sc) && sc.paneHas(4, "W-NEW") }, waitLong)
	// Pane 2 closed: the others keep their numbers, after the restore too.
	first.send(prefix + "2")
	first.send(prefix + "x")
	first.waitScreen("the close question", func(sc *screen) bool { return sc.statusHas("(y/n)") }, waitLong)
	first.send("y")
	first.waitScreen("pane 2 closed", func(sc *screen) bool { _, two := sc.pane(2); return !two && sc.titleHas(3, "b") }, waitLong)
	events := env.events("rs")
	// A turn each: their hooks report their conversations (the hub keeps the id before
	// the turn's event goes out).
	env.run("send", "--session", "rs", "a", "one")
	env.run("send", "--session", "rs", "b", "two")
	turns := map[string]bool{}
	for len(turns) < 2 {
		l := awaitLine(t, events, "a turn of a and of b", func(l string) bool { return strings.Contains(l, `"kind":"turn"`) })
		var ev struct{ Member string }
		_ = json.Unmarshal([]byte(l), &ev)
		turns[ev.Member] = true
	}
	env.run("link", "--session", "rs", "a", "b")
	env.run("hold", "--session", "rs", "b")
	// a's answer is relayed to b, held: a turn of the link is spent; so is a message.
	env.run("send", "--session", "rs", "a", "three")
	queued := strings.Fields(env.run("send", "--session", "rs", "b", "queued-1"))[0]
	first.waitScreen("the link with one turn spent", func(sc *screen) bool { return sc.has("1⇄3 1/9") }, waitLong)
	// Pane 3 zoomed: the session comes back with it zoomed.
	first.send(prefix + "3")
	first.send(prefix + "z")
	first.waitScreen("pane 3 zoomed", func(sc *screen) bool { _, one := sc.pane(1); return !one && b.ready(sc) }, waitLong)

	if err := syscall.Kill(serverPid(t, env.environ(), "rs"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.waitExit(waitLong)

	all := env.run("sessions", "--all")
	if !strings.Contains(all, "restorable") || !strings.Contains(all, "its server died") || !strings.Contains(all, repo) {
		t.Errorf("sessions --all after the kill:\n%s", all)
	}
	if out, err := env.command(context.Background(), "attach", "rs").CombinedOutput(); err == nil || !strings.Contains(string(out), "agentmux restore rs") {
		t.Errorf("attach of the dead session: %v %s; want how to restore it", err, out)
	}

	second := startWith(t, env.opts(), "restore", "rs")
	second.diag = first.diag
	second.waitScreen("pane 3 zoomed again", func(sc *screen) bool { _, one := sc.pane(1); return !one && b.ready(sc) && sc.has("1⇄3 1/9") }, waitLong)
	second.send(prefix + "z")
	second.waitScreen("the session restored", func(sc *screen) bool {
		_, two := sc.pane(2)
		return a.ready(sc) && b.ready(sc) && sc.paneHas(4, "W-KEPT-agent-data") && sc.has("1⇄3 1/9") && !two
	}, waitLong)
	if out, err := env.command(context.Background(), "restore", "rs").CombinedOutput(); err == nil || !strings.Contains(string(out), "session rs is running") {
		t.Errorf("a restore of the running session: %v %s", err, out)
	}
	checkResumed(t, convs)

	// Released, b takes what waited for it: the queued message once.
	events = env.events("rs")
	env.run("release", "--session", "rs", "b")
	awaitLine(t, events, "the queued message confirmed", func(l string) bool {
		return strings.Contains(l, `"id":"`+queued+`"`) && strings.Contains(l, `"phase":"confirmed"`)
	})
	n := 0
	for _, in := range b.read().in {
		n += strings.Count(in, "queued-1")
	}
	if n != 1 {
		t.Errorf("b read queued-1 %d times, want once: %q", n, b.read().in)
	}

	// Ended on purpose it is not offered again, unless kill-session --keep.
	env.run("kill-session", "--keep", "rs")
	second.waitExit(waitLong)
	if all := env.run("sessions", "--all"); !strings.Contains(all, "kill-session --keep") {
		t.Errorf("sessions --all after kill-session --keep:\n%s", all)
	}
	env.run("restore", "-d", "rs")
	env.run("kill-session", "rs")
	out, err := env.command(context.Background(), "restore", "rs").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "session rs was ended on purpose (kill-session)") {
		t.Errorf("a restore after kill-session: %v %s", err, out)
	}
	if all := env.run("sessions", "--all"); strings.Contains(all, "restorable") {
		t.Errorf("sessions --all offers a session ended on purpose:\n%s", all)
	}
}

// checkResumed reads the fake agents' conversations file: each conversation that
// started new before the kill was resumed after it, and no other was.
func checkResumed(t *testing.T, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	state := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		id, how, _ := strings.Cut(l, " ")
		state[id] = append(state[id], how)
	}
	if len(state) != 2 {
		t.Errorf("conversations %q: want two", raw)
	}
	for id, hows := range state {
		if strings.Join(hows, ",") != "new,resumed" {
			t.Errorf("conversation %s: %v, want new then resumed", id, hows)
		}
	}
}

// The time from agentmux restore to every pane ready (idle: its agent drew its prompt),
// for 2 and 8 simulated agents, after their server was SIGKILLed.
func TestRestoreTime(t *testing.T) {
	for _, n := range []int{2, 8} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			env := newSockEnv(t)
			name := fmt.Sprintf("rt%d", n)
			args := []string{"--detached", "--session", name, "--idle", relayIdle}
			for i := 1; i <= n; i++ {
				f := newFake(t, i, fmt.Sprintf("p%d", i), "inline", "--busy", "50ms")
				args = append(args, f.arg())
			}
			t.Cleanup(func() { _ = env.command(context.Background(), "kill-session", name).Run() })
			fresh := time.Now()
			env.run(args...)
			waitAllIdle(t, env, name, n, nil)
			t.Logf("%d panes: a fresh start's every pane ready after %v", n, time.Since(fresh).Round(time.Millisecond))
			pid := serverPid(t, env.environ(), name)
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			// The kill is delivered, not done: until the process is gone its socket still
			// answers, and restore would rightly say the session is running.
			if !oswait.Exited(pid, waitLong) {
				t.Fatalf("the server (pid %d) still runs %v after SIGKILL", pid, waitLong)
			}
			start := time.Now()
			env.run("restore", "-d", name)
			started := time.Since(start)
			waitAllIdle(t, env, name, n, env.events(name))
			t.Logf("%d panes: agentmux restore returned in %v, every pane ready %v after it started", n, started.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		})
	}
}

// waitAllIdle waits until the n panes of session name are idle: ls says which are,
// then events (subscribed before ls, when given) say the others'.
func waitAllIdle(t *testing.T, env sockEnv, name string, n int, events <-chan string) {
	t.Helper()
	if events == nil {
		events = env.events(name)
	}
	var members []struct{ Name, State string }
	if err := json.Unmarshal([]byte(env.run("ls", "--json", "--session", name)), &members); err != nil {
		t.Fatal(err)
	}
	idle := map[string]bool{}
	for _, m := range members {
		idle[m.Name] = m.State == "idle"
	}
	count := func() int {
		k := 0
		for _, v := range idle {
			if v {
				k++
			}
		}
		return k
	}
	for count() < n {
		l := awaitLine(t, events, fmt.Sprintf("%d panes idle", n), func(l string) bool { return strings.Contains(l, `"kind":"member"`) })
		var ev struct{ Member, State string }
		_ = json.Unmarshal([]byte(l), &ev)
		idle[ev.Member] = ev.State == "idle"
	}
}
