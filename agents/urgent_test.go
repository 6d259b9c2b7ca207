//go:build agents

package agents

// An urgent message into a busy agent, end to end with each real CLI (Claude Code, Codex,
// Gemini CLI, pi, Qwen Code, opencode): agentmux runs the CLI in one pane; a prompt typed into it gets a slow answer
// from the mock model (a word a second); while it streams, `agentmux send --urgent` from
// outside the session sends a message. The relay must interrupt the turn (the mock sees its
// stream cut before the answer's last word) and type the message in: the model's next turn
// must hold it, once, with no key of the relay's typed into it as text, and run to its end
// (nothing the relay sends after the message cuts it).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

func TestUrgentSendInterruptsABusyAgent(t *testing.T) {
	bin := buildAgentmux(t)
	for _, name := range []string{"claude", "codex", "gemini", "pi", "qwen", "opencode"} {
		t.Run(name, func(t *testing.T) { urgentSend(t, bin, cliNamed(t, name), false) })
	}
	// A person who types the first prompt before the relay saw the pane idle (here: --idle
	// 1m, so it never does first) has it busy with a turn of theirs: that is interrupted
	// too, not waited out.
	t.Run("claude-before-started", func(t *testing.T) { urgentSend(t, bin, cliNamed(t, "claude"), true) })
}

// urgentSend runs c alone in agentmux, busy with a slow answer, and sends it an urgent
// message; early: the prompt is typed before the pane counts as started.
func urgentSend(t *testing.T, bin string, c cli, early bool) {
	const label = "URG"
	const body = "stop that and check the failing test first"
	// Both answers are 20 words over 20 s: the first is cut long before its end, the
	// second (to the urgent message) is let run out so its request is logged whole.
	srv, url := startMock(t, c.name, func(p mockmodel.Prompt) string { return slowReply(fmt.Sprint(label, p.N)) }, 20*time.Second)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, url)...)
	state := t.TempDir() // not in home: Codex's is reused across runs
	env = append(env, "XDG_STATE_HOME="+state, "XDG_RUNTIME_DIR="+t.TempDir())
	args := []string{bin, "--log-level", "debug"}
	if early {
		args = append(args, "--idle", "1m")
	}
	tm := startTerm(t, "agentmux", append(args, c.command()), project, env, 120, 40)
	defer func() {
		if t.Failed() { // what the relay did, for the failure
			log, _ := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
			t.Logf("agentmux.log:\n%s", log)
		}
	}()
	tm.waitPaneReady(c)

	// The session's events: the test waits on them, and logs them on a failure.
	ev := exec.Command(bin, "events")
	ev.Dir, ev.Env = project, env
	out, err := ev.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Start(); err != nil {
		t.Fatalf("agentmux events: %v", err)
	}
	lines := make(chan string, 1000)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var seen []string
	defer func() {
		_ = ev.Process.Kill()
		_ = ev.Wait()
		if t.Failed() {
			t.Logf("agentmux events:\n%s", strings.Join(seen, "\n"))
		}
	}()
	// event waits for an event with all of the given fields.
	event := func(what string, timeout time.Duration, fields map[string]string) {
		t.Helper()
		deadline := time.After(timeout)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("agentmux events ended before %s", what)
				}
				seen = append(seen, l)
				var e map[string]any
				if json.Unmarshal([]byte(l), &e) != nil {
					continue
				}
				match := true
				for k, v := range fields {
					match = match && e[k] == v
				}
				if match {
					return
				}
			case <-deadline:
				t.Fatalf("no event for %s in %s\n%s", what, timeout, tm.dump())
			}
		}
	}
	if !early { // the usual case: the relay saw the pane idle before the prompt
		// The stream has no snapshot: a state set before it subscribed is in the pane list
		// (asked after "subscribed", so nothing falls between the two), a later one comes
		// as an event.
		event("the events stream subscribed", 10*time.Second, map[string]string{"kind": "subscribed"})
		if st := memberState(t, bin, project, env, c.name); st != "idle" {
			event(c.name+" idle (it was "+st+")", 60*time.Second, map[string]string{"kind": "member", "member": c.name, "state": "idle"})
		}
	}
	tm.submit("answer slowly please")
	tm.waitFor("the first answer streaming", 60*time.Second, streaming(label+"1"))
	if !early {
		event(c.name+" busy", 30*time.Second, map[string]string{"kind": "member", "member": c.name, "state": "busy"})
	}
	send := exec.Command(bin, "send", "--urgent", "1", body)
	send.Dir, send.Env = project, env
	if out, err := send.CombinedOutput(); err != nil {
		t.Fatalf("agentmux send --urgent: %v\n%s", err, out)
	}

	r1 := waitTurn(t, tm, srv, c.name, 1, 30*time.Second)
	if r1.Err == "" {
		t.Errorf("turn 1 ran to its end: the urgent message did not interrupt it: %v", r1)
	}
	r2 := waitTurn(t, tm, srv, c.name, 2, 60*time.Second)
	if strings.Count(r2.Prompt, body) != 1 {
		t.Errorf("turn 2's prompt should hold the urgent message once:\n%q\nwant it to hold %q", r2.Prompt, body)
	}
	if strings.ContainsFunc(r2.Prompt, func(r rune) bool { return r < ' ' && r != '\n' }) {
		t.Errorf("turn 2's prompt holds control characters (keys typed as text): %q", r2.Prompt)
	}
	if r2.Err != "" {
		t.Errorf("turn 2, the answer to the urgent message, was cut: %v", r2)
	}
	if n := len(srv.Turns()); n != 2 {
		t.Errorf("the model got %d turns, want 2 (the first prompt, the urgent message)", n)
	}
	if contains(tm.vt.ScreenText(), label+"1-LAST") {
		t.Errorf("the first answer's last word is on screen: it was not interrupted\n%s", tm.dump())
	}
	t.Logf("turn 1 cut (%s); turn 2 prompt %q", r1.Err, r2.Prompt)
}

// memberState is pane name's state as `agentmux ls` gives it.
func memberState(t *testing.T, bin, dir string, env []string, name string) string {
	t.Helper()
	ls := exec.Command(bin, "ls", "--json")
	ls.Dir, ls.Env = dir, env
	out, err := ls.Output()
	if err != nil {
		t.Fatalf("agentmux ls --json: %v\n%s", err, out)
	}
	var ms []struct{ Name, State string }
	if err := json.Unmarshal(out, &ms); err != nil {
		t.Fatalf("agentmux ls --json: %v\n%s", err, out)
	}
	for _, m := range ms {
		if m.Name == name {
			return m.State
		}
	}
	t.Fatalf("agentmux ls --json has no %s:\n%s", name, out)
	return ""
}
