package relay

// Strategy: fake-clock scenarios (sim_test.go) with a full-screen (alternate-screen)
// agent whose header row is redrawn after the baseline, as Claude Code's fullscreen
// renderer does when a frame of its logo animation comes late: the redraw alone is no
// turn, and a turn's delivery holds only its answer, never the header or the old
// transcript below it.

import (
	"testing"
	"time"

	"github.com/agentmux/agentmux/parser"
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

// A full-screen program no profile knows that clears its screen when it starts and draws
// its UI only seconds later (opencode does), after it counted as started on the blank
// screen: the UI it draws then is the end of its starting, not a turn, whether the
// person waits for it to settle or types at once; and no turn ends at the person's Enter
// with the UI and the draft as its words. The answer to the message goes, exactly.
func TestAltScreenBlankStart(t *testing.T) {
	for _, typeAt := range []time.Duration{10 * time.Second, 200 * time.Millisecond} {
		t.Run(typeAt.String(), func(t *testing.T) {
			h := newHarness(t, Config{})
			alice := &fakeAgent{h: h, id: 1, alt: true, blank: true, rows: 20, think: 2 * time.Second, reply: counter("alice")}
			h.agents[1] = alice
			h.handle(Open{Pane: 1, Name: "alice", Profile: parser.Generic(), Screen: fakeScreen{alice}})
			h.output(1) // it switched to the alternate screen and cleared it
			h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true})
			h.handle(Link{Pane: 1, With: 2})
			h.run(5 * time.Second)
			if ps, _ := h.r.Pane(1); !ps.Started {
				t.Fatalf("alice never counted as started on its blank screen: %+v", ps)
			}
			alice.blank = false
			alice.lines = []string{"alice chat · v1.0", "", "  Tip: ask about your code"}
			h.output(1)
			h.run(h.now.Sub(t0) + typeAt)
			h.person(1, "hi")
			h.run(h.now.Sub(t0) + 30*time.Second)
			if len(h.typed) != 1 || h.typed[0].text != "alice (1):\n\nalice reply 1" {
				t.Fatalf("typed %+v, want alice's answer alone\nlog:\n%s", h.typed, h.notes())
			}
		})
	}
}
