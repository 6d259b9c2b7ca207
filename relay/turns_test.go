package relay

// Strategy: the fake-clock simulation (sim_test.go). A finished turn is handed to the
// host (TakeTurns) whether or not its pane is linked, with the words a delivery would
// carry; a turn of relay commands only is not one.

import (
	"testing"
	"time"
)

func TestTurnsAreTakenLinkedOrNot(t *testing.T) {
	h, alice := trio(t, Config{})
	h.r.TakeTurns() // start-up
	alice.answer("the answer, unlinked")
	h.run(10 * time.Second)
	got := h.r.TakeTurns()
	if len(got) != 1 || got[0].Pane != 1 || got[0].Name != "alice" || words(got[0].Words) != "the answer, unlinked" {
		t.Fatalf("turns of an unlinked pane: %+v", got)
	}
	if again := h.r.TakeTurns(); len(again) != 0 {
		t.Fatalf("taken twice: %+v", again)
	}
	h.handle(Link{Pane: 1, With: 2})
	alice.answer("now linked")
	h.run(20 * time.Second)
	got = h.r.TakeTurns()
	if len(got) == 0 || got[0].Name != "alice" || words(got[0].Words) != "now linked" {
		t.Fatalf("turns of a linked pane: %+v", got)
	}
	alice.answer("@relay:bob only a command")
	h.run(30 * time.Second)
	for _, tn := range h.r.TakeTurns() {
		if tn.Pane == 1 {
			t.Fatalf("a turn of relay commands was taken as an answer: %+v", tn)
		}
	}
}

// A message typed into a pane whose program takes it and prints nothing (python's
// `you:  4`, an annotation) ends a turn of no words: the host hears of it, so whoever
// waits for that message's answer gets none rather than the next turn's words.
func TestATurnOfNoWordsIsTaken(t *testing.T) {
	h, _ := trio(t, Config{})
	bob := h.agents[2]
	bob.reply = func(string) string { return "" }
	h.r.TakeTurns() // start-up
	h.handle(Send{FromName: "ops", To: 2, Text: "4"})
	h.run(20 * time.Second)
	got := h.r.TakeTurns()
	if len(got) != 1 || got[0].Pane != 2 || got[0].Words != "" {
		t.Fatalf("turns after a message bob took silently: %+v", got)
	}
	bob.reply = counter("bob")
	h.handle(Send{FromName: "ops", To: 2, Text: "next"})
	h.run(40 * time.Second)
	if got := h.r.TakeTurns(); len(got) != 1 || got[0].Words == "" {
		t.Fatalf("the next turn: %+v", got)
	}
	h.run(60 * time.Second)
	if got := h.r.TakeTurns(); len(got) != 0 {
		t.Fatalf("a turn of no words while nothing was under way: %+v", got)
	}
}
