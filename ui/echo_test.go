package ui

// Strategy: the headless harness with its fake clock. A frame was just drawn; output from
// the pane a key was just sent to (its echo) must draw a frame as soon as echoGap has
// passed, not a whole frame interval later, once per key; output with no key before it
// (a flood) keeps the 1/60 s cap, in the session (which observes a pane's output at most
// once per interval) and in the model. Output the session held back before the key is
// handed over when the key is sent, and the echo after it is not held at all.

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/session"
)

// printNow makes pane id print s without moving the clock.
func (hs *harness) printNow(id int, s string) { hs.procs[id].Print(s) }

// outputNow is printNow, waiting until the model has the session's Output event.
func (hs *harness) outputNow(id int, s string) {
	hs.t.Helper()
	hs.printNow(id, s)
	hs.await(func(ev session.Event) bool { o, ok := ev.(session.Output); return ok && o.Pane == id })
}

func TestEchoDrawsEarlyOncePerKey(t *testing.T) {
	hs := newHarness(t, 120, 30, "alice", "bob")
	hs.output(1, "> ") // draws a frame now
	drawn := hs.m.pace.last
	hs.clock.Set(hs.clock.Now().Add(echoGap))
	hs.press(runeKey('x'))
	hs.outputNow(1, "x")
	require.True(t, hs.m.pace.last.After(drawn), "the echo waited for the frame tick")
	drawn = hs.m.pace.last

	// More output, no key: the flood cap holds; the frame comes a frame interval on.
	hs.clock.Set(hs.clock.Now().Add(echoGap))
	hs.outputNow(1, "flood")
	require.Equal(t, drawn, hs.m.pace.last, "output without a key drew early")
	hs.advance(frameInterval)
	require.Contains(t, hs.text(), "xflood")

	// Output to another pane does not spend pane 1's early frame on itself.
	drawn = hs.m.pace.last
	hs.press(runeKey('y'))
	hs.outputNow(2, "other")
	require.Equal(t, drawn, hs.m.pace.last, "pane 2's output drew early on a key sent to pane 1")
}

func TestEchoFrameLeavesAFloodForTheFullFrame(t *testing.T) {
	hs := newHarness(t, 120, 30, "alice", "bob")
	hs.output(1, "> ")
	hs.output(2, "$ ") // a full frame now
	full := hs.m.pace.lastFull

	// Pane 2 floods: its output waits for the next full frame.
	hs.clock.Set(hs.clock.Now().Add(echoGap))
	hs.outputNow(2, "FLOOD")
	require.NotContains(t, hs.text(), "FLOOD")

	// The echo in pane 1 draws early, and alone: pane 2's picture is not in its frame.
	hs.press(runeKey('x'))
	hs.outputNow(1, "x")
	require.Contains(t, hs.text(), "> x", "the echo waited")
	require.NotContains(t, hs.text(), "FLOOD", "the echo's early frame took the flooding pane too")
	require.Equal(t, full, hs.m.pace.lastFull, "the early frame moved the full frames' cadence")

	// The full frame comes an interval after the last one and takes the flood.
	hs.advance(frameInterval)
	require.Contains(t, hs.text(), "FLOOD")
	require.Contains(t, hs.text(), "> x")
}
