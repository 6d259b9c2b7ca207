package ui

// Esc typed just before the prefix reaches agentmux in one read as ESC 0x01, which the
// decoder reads as alt+ctrl+a. These tests feed those real bytes through keys.Decoder
// and check both presses take effect: the Esc (closing the relay log, or reaching the
// pane) and the prefix command after it.

import (
	"strings"
	"testing"

	"github.com/agentmux/agentmux/keys"
)

// decoded returns what the outer terminal's bytes decode to, as one input batch.
func decoded(b string) []keys.Event {
	var d keys.Decoder
	return d.Feed([]byte(b))
}

func TestEscapeThenPrefixInOneRead(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.press(testPrefix, runeKey('r'))
	if !hs.m.logv.open {
		t.Fatal("prefix r did not open the relay log")
	}
	hs.input(decoded("\x1b\x01L")...)
	if hs.m.logv.open {
		t.Error("Esc sent together with the prefix did not close the relay log")
	}
	if !strings.Contains(hs.text(), "1⇄2") {
		t.Errorf("prefix L after the Esc did not link the panes:\n%s", hs.text())
	}
	// Outside the log, the Esc reaches the focused pane and the prefix still works.
	hs.input(decoded("\x1b\x012")...)
	if got := hs.procs[1].Sent(); got != "\x1b" {
		t.Errorf("pane 1 got %q, want the Esc", got)
	}
	if hs.m.focus != 2 {
		t.Errorf("focus %d after Esc, prefix, 2: want 2", hs.m.focus)
	}
	// Alt with another key is still one key for the pane.
	hs.input(decoded("\x1bx")...)
	if got := hs.procs[2].Sent(); got != "\x1bx" {
		t.Errorf("alt+x reached pane 2 as %q", got)
	}
}
