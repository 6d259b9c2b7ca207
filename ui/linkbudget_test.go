package ui

// Prefix l then $ asks on the status line for the spend budget of the focused pane's
// link, in the forms --link-budget takes; the relay summary then shows it. A bad form
// keeps the prompt open with the right forms, and a pane not linked is told how.

import (
	"strings"
	"testing"

	"github.com/agentmux/agentmux/keys"
)

func TestLinkBudgetPrompt(t *testing.T) {
	hs := newRelayHarness(t, false, "claude", "codex")
	hs.press(testPrefix, runeKey('l'), runeKey('$'))
	if s := hs.statusLine(); !strings.Contains(s, "pane 1 is not linked") {
		t.Fatalf("status line %q: want the hint that pane 1 is not linked", s)
	}
	hs.press(testPrefix, runeKey('l'), runeKey('2'))
	hs.press(testPrefix, runeKey('l'))
	if s := hs.statusLine(); !strings.Contains(s, "$ sets its link's spend budget") {
		t.Errorf("status line %q: want the hint of prefix l $", s)
	}
	hs.press(runeKey('$'))
	if s := hs.statusLine(); !strings.Contains(s, "spend budget of 1 claude's link (300k tokens or $2): $▏") {
		t.Fatalf("status line %q: want the budget prompt", s)
	}
	hs.press(textKeys("2x")...)
	hs.press(codeKey(keys.KeyEnter))
	if s := hs.statusLine(); !strings.Contains(s, `"$2x"`) || !strings.Contains(s, "dollars like $2") || hs.m.mode != modePrompt {
		t.Fatalf("status line %q (mode %v): want the prompt kept open with the right forms", s, hs.m.mode)
	}
	hs.press(codeKey(keys.KeyBackspace))
	hs.press(codeKey(keys.KeyEnter))
	if sum := hs.s.Status().Summary; !strings.Contains(sum, "1⇄2 0/8 $0.00/$2") {
		t.Errorf("relay summary %q: want the link's spend budget", sum)
	}
	if hs.m.mode != modeNormal {
		t.Errorf("mode %v after Enter, want normal", hs.m.mode)
	}
}
