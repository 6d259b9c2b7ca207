package proto

// X_EVENT on the wire: the typed fields say From and To, and "peer" is still written
// for clients of version 1 with the meaning it had (a delivery's sender, a message's
// recipients); phases read an older session's display words as their wire names.

import (
	"encoding/json"
	"testing"
)

func TestEventKeepsPeerForVersion1(t *testing.T) {
	for _, c := range []struct {
		ev   Event
		peer string
	}{
		{Event{Kind: EventDelivery, Member: "bob", From: "alice", To: "bob", Phase: PhaseTyped}, "alice"},
		{Event{Kind: EventMessage, Member: "alice", From: "alice", To: "bob,carol", Phase: PhaseQueued}, "bob,carol"},
		{Event{Kind: EventLinkRequest, Member: "bob", From: "alice@laptop", To: "bob"}, "alice@laptop"},
		{Event{Kind: EventTurn, Member: "bob", Text: "done"}, ""},
	} {
		b, err := json.Marshal(c.ev)
		if err != nil {
			t.Fatal(err)
		}
		var wire map[string]any
		if err := json.Unmarshal(b, &wire); err != nil {
			t.Fatal(err)
		}
		if got, _ := wire["peer"].(string); got != c.peer {
			t.Errorf("%s: peer %q, want %q (%s)", c.ev.Kind, got, c.peer, b)
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil || back != c.ev {
			t.Errorf("%s: read back %+v (%v), want %+v", c.ev.Kind, back, err, c.ev)
		}
	}
}

func TestPhaseReadsOlderWords(t *testing.T) {
	for in, want := range map[string]Phase{
		`"waiting for idle"`: PhaseWaiting, `"waiting for the person"`: PhaseWaitingPerson,
		`"waiting"`: PhaseWaiting, `"typed"`: PhaseTyped, `"held"`: PhaseHeld,
	} {
		var p Phase
		if err := json.Unmarshal([]byte(in), &p); err != nil || p != want {
			t.Errorf("read %s: %q (%v), want %q", in, p, err, want)
		}
	}
}

func TestPhaseFinalAndLanded(t *testing.T) {
	final := map[Phase]bool{PhaseConfirmed: true, PhaseFailed: true, PhaseDropped: true, PhaseExpired: true}
	landed := map[Phase]bool{PhaseSubmitted: true, PhaseConfirmed: true}
	recorded := map[Phase]bool{PhaseTyped: true, PhaseSubmitted: true, PhaseConfirmed: true, PhaseFailed: true, PhaseDropped: true, PhaseExpired: true}
	for _, p := range []Phase{PhaseQueued, PhaseWaiting, PhaseWaitingPerson, PhaseHeld, PhaseDelivered, PhaseTyped,
		PhaseSubmitted, PhaseConfirmed, PhaseFailed, PhaseDropped, PhaseExpired} {
		if p.Final() != final[p] || p.Landed() != landed[p] || p.Recorded() != recorded[p] {
			t.Errorf("%s: Final %v Landed %v Recorded %v", p, p.Final(), p.Landed(), p.Recorded())
		}
	}
}

// A stored message's phase is the furthest its times say; a failure, an expiry or a drop
// outranks what came before it.
func TestMessagePhase(t *testing.T) {
	for _, c := range []struct {
		m    Message
		want Phase
	}{
		{Message{Queued: 1}, PhaseQueued},
		{Message{Queued: 1, Typed: 2}, PhaseTyped},
		{Message{Queued: 1, Typed: 2, Submitted: 3}, PhaseSubmitted},
		{Message{Queued: 1, Typed: 2, Submitted: 3, Confirmed: 4}, PhaseConfirmed},
		{Message{Queued: 1, Typed: 2, Failed: 3}, PhaseFailed},
		{Message{Queued: 1, Expired: 2}, PhaseExpired},
		{Message{Queued: 1, Dropped: 2}, PhaseDropped},
	} {
		if got := c.m.Phase(); got != c.want {
			t.Errorf("%+v: phase %q, want %q", c.m, got, c.want)
		}
	}
}
