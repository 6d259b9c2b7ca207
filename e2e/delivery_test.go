package e2e

// The delivery rules through the binary: messages sent with `agentmux send` to a
// session (--session), a person's stale draft kept aside for one batch and typed back,
// an urgent message into a busy agent, a timeout expiring, `agentmux remind`, and a
// turn's answer taken from the program's own hook (the fake claude runs the Stop hook
// agentmux gives it with --settings).
//
// They need the session socket wired into the running agentmux (--session, the panes'
// AGENTMUX_SOCKET): each checks that `agentmux sessions` lists its session once the
// panes are up, and skips with the reason when it does not.

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// deliveryEnv is a session's runtime and config folders: the socket lives in the one,
// config.toml (with the [delivery] given) in the other.
type deliveryEnv struct {
	name string
	env  []string
}

func newDeliveryEnv(t *testing.T, name, delivery string) deliveryEnv {
	t.Helper()
	cfg := t.TempDir()
	if delivery != "" {
		dir := filepath.Join(cfg, "agentmux")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[delivery]\n"+delivery), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rt := t.TempDir()
	if err := os.Chmod(rt, 0o700); err != nil {
		t.Fatal(err)
	}
	return deliveryEnv{name: name, env: []string{"XDG_RUNTIME_DIR=" + rt, "XDG_CONFIG_HOME=" + cfg}}
}

// start runs agentmux --session NAME with the fake agents, waits for their start
// screens, and skips the test when the session serves no socket.
func (de deliveryEnv) start(t *testing.T, flags []string, agents ...*fake) *relaySession {
	t.Helper()
	if out, err := exec.Command(agentmuxBin, "--session", de.name, "--version").CombinedOutput(); err != nil {
		t.Skipf("agentmux has no --session flag yet (%v: %s): these tests need the session socket "+
			"wired into the running agentmux (--session, the panes' AGENTMUX_SOCKET)", err, strings.TrimSpace(string(out)))
	}
	args := append([]string{"--idle", relayIdle, "--session", de.name}, flags...)
	for _, f := range agents {
		args = append(args, f.arg())
	}
	rs := &relaySession{session: startWith(t, options{env: de.env}, args...), agents: agents}
	rs.diag = rs.transcripts
	rs.waitScreen("every agent's start screen", func(scr *screen) bool {
		for _, f := range agents {
			if !f.ready(scr) {
				return false
			}
		}
		return true
	}, waitLong)
	if out, err := de.cmd(t, "sessions"); err != nil || !listed(out, de.name) {
		t.Skipf("the session socket is not wired into agentmux yet (agentmux sessions: %q, %v): "+
			"these tests need --session and the panes' AGENTMUX_SOCKET", out, err)
	}
	return rs
}

// cmd runs an agentmux session command against the session and returns its stdout.
func (de deliveryEnv) cmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	c := exec.Command(agentmuxBin, args...)
	c.Env = append(append(os.Environ(), "AGENTMUX_SESSION="+de.name, "AGENTMUX_NAME=", "AGENTMUX_PANE="), de.env...)
	out, err := c.Output()
	return string(out), err
}

// must runs a session command that must succeed.
func (de deliveryEnv) must(t *testing.T, args ...string) string {
	t.Helper()
	out, err := de.cmd(t, args...)
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("agentmux %v: %v: %s", args, err, ee.Stderr)
		}
		t.Fatalf("agentmux %v: %v", args, err)
	}
	return out
}

// events starts `agentmux events` and returns a func that waits (up to relayWait) for
// an event line holding every one of words.
func (de deliveryEnv) events(t *testing.T) func(words ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c := exec.CommandContext(ctx, agentmuxBin, "events", "--session", de.name)
	c.Env = append(os.Environ(), de.env...)
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = c.Wait() })
	lines := make(chan string, 256)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return func(words ...string) string {
		t.Helper()
		deadline := time.NewTimer(relayWait)
		defer deadline.Stop()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("agentmux events ended before an event with %q", words)
				}
				all := true
				for _, w := range words {
					all = all && strings.Contains(l, w)
				}
				if all {
					return l
				}
			case <-deadline.C:
				t.Fatalf("no event with %q within %v", words, relayWait)
			}
		}
	}
}

// TestDeliveryDraftKeptAsideForOneBatch: a person drafts in bob's pane while three
// messages arrive; once the draft is unchanged for input_stale_timeout (2 s here) it is
// set aside, the three go in one paste, and when bob's answer is complete the draft is
// typed back exactly, never submitted.
func TestDeliveryDraftKeptAsideForOneBatch(t *testing.T) {
	t.Parallel()
	de := newDeliveryEnv(t, "drafting", `input_stale_timeout = "2s"`+"\n")
	alice, bob := newFake(t, 1, "alice", "plain"), newFake(t, 2, "bob", "alt")
	rs := de.start(t, nil, alice, bob)
	rs.focus(2)
	// Bob's deliveries are held (prefix p) while the messages are sent, so they all wait,
	// however long the sends take; the draft's last key and the release then start its
	// stale time.
	rs.send(prefix + "p")
	rs.wait("bob held", func(scr *screen) bool { return scr.paneHas(2, "held") || scr.has("held") })
	const draft = "half a thought, not for now"
	rs.send(draft[:len(draft)-1])
	rs.wait("the person's draft in bob's input row", func(scr *screen) bool { return scr.paneHas(2, "› "+draft[:len(draft)-1]) })
	for _, m := range []string{"first", "second", "third"} {
		de.must(t, "send", "bob", m)
	}
	rs.wait("three messages waiting for bob", func(scr *screen) bool { return scr.has("3 waiting") })
	rs.send(draft[len(draft)-1:])
	rs.send(prefix + "p")
	want := "you:\n\nfirst\n\nyou:\n\nsecond\n\nyou:\n\nthird"
	rs.wait("one batch, answered, then the draft back in the input row", func(scr *screen) bool {
		tk := bob.read()
		return len(tk.in) == 1 && len(tk.out) == 1 && scr.paneHas(2, "› "+draft) &&
			scr.statusHas("kept aside for 3 messages and put back")
	})
	if got := bob.read().in[0]; got != want {
		t.Errorf("bob got %q, want one paste %q", got, want)
	}
	// Put back without Enter: nothing more reaches bob while the draft stays (three of
	// agentmux's idle times is ample for a stray carriage return to be submitted).
	rs.holds("the draft typed back, never submitted", 3*time.Duration(relayIdleMs)*time.Millisecond, func(scr *screen) bool {
		return len(bob.read().in) == 1 && scr.paneHas(2, "› "+draft)
	})
}

// relayIdleMs is relayIdle in milliseconds.
const relayIdleMs = 500

// TestDeliveryUrgentInterruptsABusyAgent: bob works on a long turn with a person's
// draft under it; an urgent message interrupts him (Escape: the long job never gets its
// answer), goes in at once, and the draft comes back after his answer, untouched.
func TestDeliveryUrgentInterruptsABusyAgent(t *testing.T) {
	t.Parallel()
	de := newDeliveryEnv(t, "urgent", "")
	bob := newFake(t, 1, "bob", "alt", "--busy", "8s")
	rs := de.start(t, nil, bob)
	rs.send("a long job\r")
	rs.wait("bob busy with the job", func(scr *screen) bool { return len(bob.read().in) == 1 })
	const draft = "next idea"
	rs.send(draft)
	rs.wait("the draft under the busy turn", func(scr *screen) bool { return scr.paneHas(1, "› "+draft) })
	de.must(t, "send", "--urgent", "bob", "stop: the build is red")
	rs.wait("the urgent message in", func(scr *screen) bool { return len(bob.read().in) == 2 })
	tk := bob.read()
	if tk.in[1] != "you:\n\nstop: the build is red" {
		t.Errorf("bob got %q", tk.in[1])
	}
	if len(tk.out) != 0 {
		t.Errorf("bob answered %q before the urgent message: it waited for the turn instead of interrupting it", tk.out)
	}
	rs.wait("the answer to it, then the draft back", func(scr *screen) bool {
		return len(bob.read().out) == 1 && scr.paneHas(1, "› "+draft) && scr.statusHas("put back")
	})
	if got := bob.read().in; len(got) != 2 {
		t.Errorf("bob got %q: the draft was submitted", got)
	}
}

// TestDeliveryTimeoutExpires: a message with --timeout 1s to an agent busy for longer
// expires (an event says so) and is never typed, not even once the agent is idle.
func TestDeliveryTimeoutExpires(t *testing.T) {
	t.Parallel()
	de := newDeliveryEnv(t, "timeout", "")
	bob := newFake(t, 1, "bob", "alt", "--busy", "4s")
	rs := de.start(t, nil, bob)
	next := de.events(t)
	rs.send("work\r")
	rs.wait("bob busy", func(scr *screen) bool { return len(bob.read().in) == 1 })
	de.must(t, "send", "--timeout", "1s", "bob", "too late")
	next(`"kind":"delivery"`, `"phase":"expired"`)
	rs.wait("bob's turn over", func(scr *screen) bool { return len(bob.read().out) == 1 })
	rs.holds("nothing typed after the timeout", 3*time.Duration(relayIdleMs)*time.Millisecond, func(scr *screen) bool {
		return len(bob.read().in) == 1
	})
}

// TestDeliveryRemind: agentmux remind types "[agentmux] reminder: …" into the pane
// after the delay, not before.
func TestDeliveryRemind(t *testing.T) {
	t.Parallel()
	de := newDeliveryEnv(t, "remind", "")
	bob := newFake(t, 1, "bob", "alt")
	rs := de.start(t, nil, bob)
	asked := time.Now()
	de.must(t, "remind", "2s", "--to", "bob", "check the build")
	rs.wait("the reminder typed into bob", func(scr *screen) bool { return len(bob.read().in) == 1 })
	if got := bob.read().in[0]; got != "[agentmux] reminder: check the build" {
		t.Errorf("bob got %q", got)
	}
	if d := time.Since(asked); d < 2*time.Second {
		t.Errorf("reminded after %v, before its 2 s", d)
	}
}

// TestDeliveryFromTheStopHook: the fake claude runs the Stop hook agentmux gives it
// (--settings), `agentmux hook stop` reports the answer to the session, and the
// delivery to bob carries it, the relay log naming the hook as its source. The fake
// runs its hook once its answer is drawn, as Claude Code does, and the hook is a new
// agentmux process: on a loaded machine it reports after the default hook_wait (1 s)
// past the screen's idle, and the turn is read from the screen instead. hook_wait is
// the bound of a process start here (a hook that reports ends the turn at once).
func TestDeliveryFromTheStopHook(t *testing.T) {
	t.Parallel()
	de := newDeliveryEnv(t, "hooks", fmt.Sprintf("hook_wait = %q\n", waitLong.String()))
	alice, bob := newFake(t, 1, "alice", "inline"), newFake(t, 2, "bob", "alt")
	rs := de.start(t, []string{"--link"}, alice, bob)
	rs.send("hello there\r")
	rs.wait("alice's answer delivered to bob", func(scr *screen) bool {
		return len(alice.read().out) == 1 && len(bob.read().in) == 1
	})
	checkDelivery(t, bob.read().in[0], alice, bob, alice.read().out[0], true)
	rs.send(prefix + "r")
	rs.send("\r") // open the selected entry: one of alice's deliveries to bob
	rs.wait("the relay log naming the hook", func(scr *screen) bool {
		return scr.has("answer as the model wrote it, from its claude stop")
	})
}

// TestDeliveryUrgentIntoAReadLoopKeepsTheDraft: a shell read loop with a "bot> " prompt,
// a program no profile knows. The person is typing there when an urgent message comes:
// once the typing stops the draft is cleared, the message goes in on a line of its own,
// and the draft comes back where it was, not submitted; Enter then sends it as typed.
func TestDeliveryUrgentIntoAReadLoopKeepsTheDraft(t *testing.T) {
	t.Parallel()
	de := newDeliveryEnv(t, "readloop", "")
	loop := `bot=bash -c 'while IFS= read -r -p "bot> " line; do echo "got [$line]"; done'`
	s := startWith(t, options{env: de.env}, "--idle", relayIdle, "--session", de.name, loop)
	rs := &relaySession{session: s}
	rs.waitScreen("the prompt", func(scr *screen) bool { return scr.paneHas(1, "bot>") }, waitLong)
	const draft = "half typed"
	rs.send(draft)
	rs.wait("the draft after the prompt", func(scr *screen) bool { return scr.paneHas(1, "bot> "+draft) })
	de.must(t, "send", "--urgent", "bot", "status please")
	rs.wait("the message read, the draft back", func(scr *screen) bool {
		return scr.paneHas(1, "got [you:  status please]") && scr.paneHas(1, "bot> "+draft) && scr.statusHas("put back")
	})
	// Put back without Enter: three of agentmux's idle times is ample for a stray
	// carriage return to be read.
	rs.holds("the draft typed back, not submitted", 3*time.Duration(relayIdleMs)*time.Millisecond, func(scr *screen) bool {
		return !scr.paneHas(1, "got ["+draft)
	})
	rs.send("\r")
	rs.wait("the draft sent as typed", func(scr *screen) bool { return scr.paneHas(1, "got ["+draft+"]") })
}
