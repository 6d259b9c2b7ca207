package e2e

// A person's draft the relay cannot follow, through the binary: keys typed into the
// outer terminal reach a fake agent's pane, and `agentmux send --wait` waits for the
// message's last phase. A draft made unknown by a key agentmux cannot follow (Up) holds
// the message for twice input_stale_timeout at most, then the message ends expired as
// a --timeout does (its exit code, its event, the status line saying why) and the draft
// is never touched; a draft the screen shows gone (the person deleted what Up left
// there) no longer holds the message at all.

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// sendWait runs `agentmux send --wait` in the background and returns a func that waits
// (up to relayWait) for its exit code and output.
func sendWait(t *testing.T, de deliveryEnv, to, text string) func() (int, string) {
	t.Helper()
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		out, err := de.cmd(t, "send", "--wait", to, text)
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			code = -1
		}
		done <- result{code, out}
	}()
	return func() (int, string) {
		t.Helper()
		select {
		case r := <-done:
			return r.code, strings.TrimSpace(r.out)
		case <-time.After(relayWait):
			t.Fatalf("agentmux send --wait %s did not end within %v", to, relayWait)
			return 0, ""
		}
	}
}

// TestDeliveryUnknownDraftExpiresWhatWaits: the person types "hi" into bob and presses
// Up (bob keeps "hi"; agentmux cannot know what Up did), then leaves it. With
// input_stale_timeout 1s the message sent to bob ends expired after 2 s, said on the
// status line and as an event; `send --wait` exits 1 printing "expired"; nothing is
// typed into bob and the draft stays as it was.
func TestDeliveryUnknownDraftExpiresWhatWaits(t *testing.T) {
	t.Parallel()
	de := newDeliveryEnv(t, "unknowndraft", `input_stale_timeout = "1s"`+"\n")
	bob := newFake(t, 1, "bob", "inline")
	rs := de.start(t, nil, bob)
	next := de.events(t)
	rs.send("hi")
	rs.wait("the draft in bob's input row", func(scr *screen) bool { return scr.paneHas(1, "❯ hi") })
	rs.send("\x1b[A")
	wait := sendWait(t, de, "bob", "hello")
	rs.wait("the status line saying why", func(scr *screen) bool {
		return scr.statusHas("could not be read or set aside")
	})
	next(`"kind":"delivery"`, `"phase":"expired"`)
	if code, out := wait(); code != 1 || !strings.Contains(out, " expired: hello") {
		t.Errorf("send --wait exited %d printing %q, want 1 and the message expired", code, out)
	}
	if in := bob.read().in; len(in) != 0 {
		t.Errorf("bob got %q: nothing may be typed over a draft agentmux cannot read", in)
	}
	if !rs.screen().paneHas(1, "❯ hi") {
		t.Errorf("bob's draft was touched:\n%s", rs.describe())
	}
}

// TestDeliveryDraftShownGoneHoldsNothing: the person types "hi", presses Up, then
// deletes what is there with Backspace: agentmux's count of the draft is unknown, but
// bob's input row shows it empty. Once the typing hold passed, the message goes in
// (input_stale_timeout is long: it is not the stale rule that lets it through).
func TestDeliveryDraftShownGoneHoldsNothing(t *testing.T) {
	t.Parallel()
	de := newDeliveryEnv(t, "phantomdraft", `input_stale_timeout = "10m"`+"\n")
	bob := newFake(t, 1, "bob", "inline")
	rs := de.start(t, nil, bob)
	rs.send("hi")
	rs.wait("the draft in bob's input row", func(scr *screen) bool { return scr.paneHas(1, "❯ hi") })
	rs.send("\x1b[A")
	rs.send("\x7f\x7f")
	rs.wait("bob's input row empty", func(scr *screen) bool { return !scr.paneHas(1, "❯ hi") && !scr.paneHas(1, "❯ h") })
	wait := sendWait(t, de, "bob", "hello")
	if code, out := wait(); code != 0 || !strings.Contains(out, " confirmed") {
		t.Fatalf("send --wait exited %d printing %q, want 0 and the message confirmed\n%s", code, out, rs.describe())
	}
	if in := bob.read().in; len(in) != 1 || in[0] != "you:\n\nhello" {
		t.Errorf("bob got %q", in)
	}
}
