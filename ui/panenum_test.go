package ui

// Pane numbers of two digits, driven through Update: with fewer than 10 panes a digit
// acts at once and never waits; with 12 panes prefix 1 focuses pane 1 at once and a
// second digit moves on to pane 1N, while a key that is no digit ends the wait and
// reaches pane 1. The wait's end is the digitTimeoutMsg the tick would deliver, sent by
// hand (stale generations do nothing). Linking reads two digits the same way.

import (
	"fmt"
	"testing"

	"github.com/agentmux/agentmux/keys"
)

func twelve() []string {
	var names []string
	for i := 1; i <= 12; i++ {
		names = append(names, fmt.Sprintf("p%d", i))
	}
	return names
}

// TestSingleDigitNeverWaitsUnderTenPanes guards the design (it passed before two-digit
// numbers too): under 10 panes nothing waits.
func TestSingleDigitNeverWaitsUnderTenPanes(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b", "c")
	hs.press(testPrefix, runeKey('2'))
	if hs.m.focus != 2 || hs.m.mode != modeNormal {
		t.Fatalf("prefix 2: focus %d, mode %d", hs.m.focus, hs.m.mode)
	}
	hs.press(runeKey('5'))
	if got := hs.procs[2].Sent(); got != "5" {
		t.Errorf("a digit after prefix 2 went %q to pane 2, want \"5\"", got)
	}
}

func TestTwoDigitPaneNumbers(t *testing.T) {
	hs := newHarness(t, 200, 60, twelve()...)
	hs.press(testPrefix, runeKey('1'), runeKey('2'))
	if hs.m.focus != 12 || hs.m.mode != modeNormal {
		t.Fatalf("prefix 1 2: focus %d, mode %d; want pane 12", hs.m.focus, hs.m.mode)
	}
	hs.press(testPrefix, runeKey('1'), runeKey('0'))
	if hs.m.focus != 10 {
		t.Fatalf("prefix 1 0: focus %d; want pane 10", hs.m.focus)
	}
	// prefix 1 focuses pane 1 at once; a key that is no digit ends the wait and goes there.
	hs.press(testPrefix, runeKey('1'))
	if hs.m.focus != 1 || hs.m.mode != modeDigit {
		t.Fatalf("prefix 1: focus %d, mode %d", hs.m.focus, hs.m.mode)
	}
	hs.press(runeKey('x'))
	if got := hs.procs[1].Sent(); got != "x" || hs.m.mode != modeNormal {
		t.Errorf("x after prefix 1 reached pane 1 as %q (mode %d)", got, hs.m.mode)
	}
	// The wait ends by itself; a stale timeout does nothing.
	hs.press(testPrefix, runeKey('3'))
	hs.press(testPrefix, runeKey('1'))
	gen := hs.m.pending.gen
	hs.send(digitTimeoutMsg{gen: gen - 1})
	if hs.m.mode != modeDigit {
		t.Fatal("a stale timeout ended the wait")
	}
	hs.send(digitTimeoutMsg{gen: gen})
	hs.press(runeKey('7'))
	if hs.m.focus != 1 || hs.procs[1].Sent() != "7" {
		t.Errorf("after the wait a digit must reach pane 1: focus %d", hs.m.focus)
	}
	// prefix 2 cannot begin a pane number here: no wait.
	hs.press(testPrefix, runeKey('2'))
	if hs.m.focus != 2 || hs.m.mode != modeNormal {
		t.Errorf("prefix 2 with 12 panes: focus %d, mode %d", hs.m.focus, hs.m.mode)
	}
	// Linking: prefix l 1 1 links with pane 11; prefix l 1 Enter with pane 1.
	hs.press(testPrefix, runeKey('l'), runeKey('1'), runeKey('1'))
	if g := hs.member(2).Group; g == 0 || hs.member(11).Group != g {
		t.Fatalf("prefix l 1 1 did not link 2 with 11: %q", hs.m.status.text)
	}
	hs.press(testPrefix, runeKey('1'), runeKey('2'))
	hs.press(testPrefix, runeKey('l'), runeKey('1'), codeKey(keys.KeyEnter))
	if g := hs.member(12).Group; g == 0 || hs.member(1).Group != g {
		t.Errorf("prefix l 1 Enter did not link 12 with 1: %q", hs.m.status.text)
	}
	if got := hs.procs[12].Sent(); got != "" {
		t.Errorf("Enter after prefix l 1 reached pane 12 as %q", got)
	}
}
