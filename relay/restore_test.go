package relay

// Strategy: the simulation harness with a fake clock. A group linked with the turns a
// restored session had spent starts from them: one more delivery spends its budget and
// severs it; a group whose budget was spent is not linked again.

import (
	"testing"
	"time"
)

func TestLinkAllKeepsSpentTurns(t *testing.T) {
	h := newHarness(t, Config{Turns: 8})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: func(string) string { return "" }})
	h.run(time.Second)
	h.handle(LinkAll{Panes: []int{1, 2}, Used: 2, Budget: 3})
	if got := h.r.Status().String(); got != "1⇄2 2/3" {
		t.Fatalf("status %q, want the spent turns kept", got)
	}
	h.person(1, "go")
	h.run(30 * time.Second)
	if len(h.typed) != 1 || h.typed[0].to != 2 {
		t.Fatalf("typed %+v, want one delivery into 2", h.typed)
	}
	if got := h.r.Status().String(); got != "" {
		t.Errorf("status %q, want the group severed by its last turn", got)
	}

	h2 := newHarness(t, Config{Turns: 8})
	h2.agent(1, "alice", &fakeAgent{titled: true})
	h2.agent(2, "bob", &fakeAgent{titled: true})
	h2.handle(LinkAll{Panes: []int{1, 2}, Used: 3, Budget: 3})
	if got := h2.r.Status().String(); got != "" {
		t.Errorf("status %q, want no group for a spent budget", got)
	}
}
