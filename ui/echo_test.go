package ui

// Strategy: the headless harness with its clock. A frame was just drawn; output from the
// pane a key was just sent to (its echo) must draw a frame as soon as echoGap has passed,
// not a whole frame interval later, once per key; output with no key before it (a flood)
// keeps the 1/60 s cap. The echo of a pane whose output wait was spent before the key
// (it is dirty, waiting for the frame tick) must still be seen: its wait is re-armed.

import (
	"testing"
	"time"
)

func TestEchoDrawsEarlyOncePerKey(t *testing.T) {
	hs := newHarness(t, 120, 30, "alice", "bob")
	hs.output(1, "> ") // draws a frame now
	drawn := hs.m.lastFrame
	hs.clock = hs.clock.Add(echoGap)
	hs.press(runeKey('x'))
	hs.host.Pane(1).Term.Write([]byte("x"))
	hs.send(paneOutputMsg{ID: 1})
	if !hs.m.lastFrame.After(drawn) {
		t.Fatalf("the echo waited for the frame tick (last frame %v, now %v)", hs.m.lastFrame, hs.clock)
	}
	drawn = hs.m.lastFrame
	// More output, no key: the flood cap holds.
	hs.clock = hs.clock.Add(echoGap)
	hs.host.Pane(1).Term.Write([]byte("flood"))
	hs.send(paneOutputMsg{ID: 1})
	if hs.m.lastFrame.After(drawn) || !hs.m.frameArmed || hs.m.frameAt != drawn.Add(frameInterval) {
		t.Fatalf("output without a key drew early: last frame %v, tick armed %v at %v", hs.m.lastFrame, hs.m.frameArmed, hs.m.frameAt)
	}
	// Output to another pane does not spend pane 1's early frame on itself.
	hs.press(runeKey('y'))
	hs.host.Pane(2).Term.Write([]byte("other"))
	hs.send(paneOutputMsg{ID: 2})
	if hs.m.lastFrame.After(drawn) {
		t.Fatalf("pane 2's output drew early on a key sent to pane 1")
	}
}

func TestEchoRearmsSpentOutputWait(t *testing.T) {
	hs := newHarness(t, 120, 30, "alice")
	hs.output(1, "> ")
	hs.clock = hs.clock.Add(time.Millisecond)
	hs.host.Pane(1).Term.Write([]byte("a"))
	hs.send(paneOutputMsg{ID: 1}) // within the interval: dirty, a tick armed, no wait out
	if v := hs.m.views[1]; !v.dirty || v.waiting {
		t.Fatalf("setup: dirty %v waiting %v", v.dirty, v.waiting)
	}
	hs.press(runeKey('b'))
	if !hs.m.views[1].waiting {
		t.Fatal("the key's echo has no output wait to arrive through")
	}
}
