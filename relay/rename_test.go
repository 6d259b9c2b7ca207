package relay

import (
	"testing"
	"time"
)

// A renamed pane's next relayed turn is framed with its new name, the log says so,
// and the new name addresses it while the old one no longer does.
func TestRenameFramesWithNewName(t *testing.T) {
	h := newHarness(t, Config{Turns: 5})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: func(string) string { return "" }})
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.handle(Rename{Pane: 1, Name: "carol"})
	h.person(1, "start")
	h.run(30 * time.Second)
	if len(h.typed) == 0 || h.typed[0].to != 2 || h.typed[0].text != "carol (1):\n\nalice reply 1" {
		t.Fatalf("typed %+v, want carol's turn framed as carol (1)", h.typed)
	}
	if !containsNote(h.notes(), "1 alice renamed carol") {
		t.Errorf("no rename notice in %q", h.notes())
	}
	if h.r.Addressee("carol") != 1 || h.r.Addressee("alice") != 0 {
		t.Errorf("addressee carol=%d alice=%d, want 1 and 0", h.r.Addressee("carol"), h.r.Addressee("alice"))
	}
}
