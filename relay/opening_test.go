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
