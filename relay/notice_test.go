package relay

// Strategy: fake-clock scenarios (sim_test.go). A linked member whose turn yields no
// words (it printed nothing but the echo of what was typed) is never silent: the relay
// log says so. Output that no turn caused (a redraw while idle) is not noted.

import (
	"strings"
	"testing"
	"time"
)

func TestEmptyTurnIsNoted(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "bob", &fakeAgent{titled: true, reply: counter("bob")})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.run(5 * time.Second)
	h.output(1) // the screen drawn again as it was, while idle: no turn, nothing to note
	h.run(7 * time.Second)
	h.person(1, "hi") // echoed, busy, then idle again without a word
	h.now = h.now.Add(time.Second)
	alice.busy = false
	h.output(1)
	h.run(15 * time.Second)
	if len(h.typed) != 0 {
		t.Fatalf("typed %+v, want nothing", h.typed)
	}
	var notes []string
	for _, n := range h.notes() {
		if strings.Contains(n, "finished a turn") {
			notes = append(notes, n)
		}
	}
	if len(notes) != 1 || notes[0] != "1 alice finished a turn: nothing new found to relay" {
		t.Fatalf("notes %q, want one saying alice's turn had nothing to relay\nlog:\n%s", notes, logText(h.r))
	}
}

// A person who types into a member before it finished starting (linked from the start,
// as --link does) starts a turn there: the banner printed before is not part of it.
func TestInputBeforeStartLeavesBannerOut(t *testing.T) {
	h := newHarness(t, Config{})
	// No title: nothing says it is busy, so its turn is no start-up turn of its own.
	alice := h.agent(1, "alice", &fakeAgent{reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true})
	h.handle(LinkAll{Panes: []int{1, 2}})
	alice.print("alice's banner")
	h.person(1, "hi")
	h.run(20 * time.Second)
	if len(h.typed) != 1 || h.typed[0].text != "alice (1):\n\nalice reply 1" {
		t.Fatalf("typed %+v, want alice's answer alone\nlog:\n%s", h.typed, logText(h.r))
	}
}
