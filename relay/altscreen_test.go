package relay

// Strategy: fake-clock scenarios (sim_test.go) with a full-screen (alternate-screen)
// agent whose header row is redrawn after the baseline, as Claude Code's fullscreen
// renderer does when a frame of its logo animation comes late: the redraw alone is no
// turn, and a turn's delivery holds only its answer, never the header or the old
// transcript below it.

import (
	"testing"
	"time"
)

func TestAltScreenHeaderRedrawIsNoTurn(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, alt: true, rows: 20, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true})
	alice.print("▗▟▛███▛█▄  Fake Agent v1", " ▜██████▘  a model", "", "▎ A notice about modes.", "", "> earlier", "● An earlier answer.", "")
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	// The logo's last animation frame comes after the baseline: its rows change.
	h.now = h.now.Add(time.Second)
	alice.lines[0], alice.lines[1] = " ▐▛███▛█   Fake Agent v1", "▝▜██████▀  a model"
	h.output(1)
	h.run(15 * time.Second)
	if len(h.typed) != 0 {
		t.Fatalf("a header redraw was delivered: %+v", h.typed)
	}
	// A turn during which the logo moves again: only its answer goes.
	alice.onSubmit = func(a *fakeAgent, in string) {
		a.lines[0] = "▗▟▛███▛█▄  Fake Agent v1"
		a.h.output(a.id)
	}
	h.person(1, "hi")
	h.run(30 * time.Second)
	if len(h.typed) != 1 || h.typed[0].text != "alice (1):\n\nalice reply 1" {
		t.Fatalf("typed %+v, want only alice's answer", h.typed)
	}
}
