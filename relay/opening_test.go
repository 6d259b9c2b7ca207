package relay

// Strategy: the simulation harness (sim_test.go) with a fake clock. An agent that goes
// busy while it is still starting takes a turn by itself (an opening line, a task given
// on its command line): that turn is relayed, its banner is not.

import (
	"strings"
	"testing"
	"time"
)

func TestOpeningTurnRelayed(t *testing.T) {
	h := newHarness(t, Config{})
	alice := &fakeAgent{titled: true, busy: true}
	alice.h, alice.id, alice.rows = h, 1, 12
	h.agents[1] = alice
	h.handle(Open{Pane: 1, Name: "alice", Profile: testProfile(), Screen: fakeScreen{alice}})
	h.agent(2, "bob", &fakeAgent{titled: true, reply: counter("bob")})
	h.handle(LinkAll{Panes: []int{1, 2}})
	alice.print("alice's banner") // busy from its first paint
	h.now = h.now.Add(time.Second)
	alice.busy = false
	alice.answer("Hi bob, shall we start?")
	h.run(10 * time.Second)
	if len(h.typed) == 0 || h.typed[0].to != 2 {
		t.Fatalf("the opening turn was not delivered to bob: %+v", h.typed)
	}
	got := h.typed[0].text
	if !strings.Contains(got, "alice (1):") || !strings.Contains(got, "Hi bob, shall we start?") || strings.Contains(got, "banner") {
		t.Errorf("opening delivery %q: want alice's words only, attributed", got)
	}
}

func TestIdleStartIsNoTurn(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "bob", &fakeAgent{titled: true, reply: counter("bob")})
	h.handle(LinkAll{Panes: []int{1, 2}})
	alice.print("alice's banner, printed while idle")
	h.run(10 * time.Second)
	if len(h.typed) != 0 {
		t.Fatalf("a banner was relayed: %+v", h.typed)
	}
}

// A program with hooks says its opening turn ended: before its screen was quiet for
// --idle (it counted as started only then) or after, with a redraw after the hook. The
// hook ends that turn, with its text, whether or not its screen was read busy (its
// output may come in one piece while the session starts the other panes).
func TestHookEndsTheOpeningTurn(t *testing.T) {
	for _, c := range []struct {
		seenBusy bool
		hookLate time.Duration
	}{{true, 100 * time.Millisecond}, {false, 100 * time.Millisecond}, {false, 3 * time.Second}} {
		h := newHarness(t, Config{})
		alice := &fakeAgent{titled: true, busy: c.seenBusy, hooks: true}
		alice.h, alice.id, alice.rows = h, 1, 12
		h.agents[1] = alice
		h.handle(Open{Pane: 1, Name: "alice", Profile: testProfile(), Screen: fakeScreen{alice}, Hooks: true})
		bob := h.agent(2, "bob", &fakeAgent{titled: true, reply: counter("bob")})
		h.handle(LinkAll{Panes: []int{1, 2}})
		alice.print("alice's banner")
		h.now = h.now.Add(time.Second)
		alice.busy = false
		alice.answer("Hi bob, shall we start?")
		h.run(c.hookLate) // --idle is 1 s: started only when the hook is late
		h.handle(TurnEnd{Pane: 1, Text: "Hi bob, shall we start?", Source: "test Stop hook"})
		alice.print("") // its footer, redrawn after the hook ran: the turn's tail
		h.run(10 * time.Second)
		if want := "alice (1):  Hi bob, shall we start?"; len(bob.inputs) != 1 || bob.inputs[0] != want {
			t.Fatalf("busy seen %v, hook after %v: bob got %q, want %q", c.seenBusy, c.hookLate, bob.inputs, want)
		}
	}
}
