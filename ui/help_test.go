package ui

// The help is checked on a screen too short for it: its window must move with the
// arrows and PgUp/PgDn (so every binding can be read), say where it is, and close on
// any other key. Prefix then Esc must cancel without a word or a byte sent.

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/keys"
)

func TestHelpScrollsOnASmallScreen(t *testing.T) {
	hs := newHarness(t, 50, 12, "a")
	hs.press(testPrefix, runeKey('?'))
	seen := map[string]bool{}
	look := func() string {
		txt := hs.text()
		for _, b := range keymap {
			words := strings.Fields(b.desc)
			if strings.Contains(txt, b.desc[:min(len(b.desc), 20)]) {
				seen[b.desc] = true
			}
			if strings.Contains(txt, words[len(words)-1]) {
				seen["end of "+b.desc] = true // wrapped, not cut at the screen's edge
			}
		}
		return txt
	}
	first := look()
	if !strings.Contains(first, "of ") || !strings.Contains(first, "PgUp/PgDn scroll") {
		t.Fatalf("help on 50×12 does not say which rows it shows:\n%s", first)
	}
	for range 12 {
		hs.press(codeKey(keys.KeyPgDn))
		look()
		if hs.m.mode != modeHelp {
			t.Fatal("PgDn closed the help")
		}
	}
	for _, b := range keymap {
		if !seen[b.desc] || !seen["end of "+b.desc] {
			t.Errorf("scrolling the help never showed all of %q", b.desc)
		}
	}
	hs.press(codeKey(keys.KeyUp))
	if hs.m.mode != modeHelp {
		t.Fatal("up closed the help")
	}
	hs.press(runeKey('x'))
	if hs.m.mode != modeNormal || hs.procs[1].Sent() != "" {
		t.Errorf("x did not close the help quietly: mode %d", hs.m.mode)
	}
}

func TestPrefixEscapeCancelsQuietly(t *testing.T) {
	hs := newHarness(t, 80, 24, "a", "b")
	hs.press(testPrefix, codeKey(keys.KeyEscape))
	hs.press(testPrefix, runeKey('l'), codeKey(keys.KeyEscape))
	if hs.m.mode != modeNormal || hs.m.status.text != "" || hs.procs[1].Sent() != "" {
		t.Errorf("prefix Esc: mode %d, status %q, sent %q", hs.m.mode, hs.m.status.text, hs.procs[1].Peek())
	}
}

// TestHelpBoxKeepsItsWidthWhileScrolling: the box scrolled on a short screen is as wide
// at every position as its widest row anywhere, so it never narrows and shows the pane
// beside it in strips as the arrows move it.
func TestHelpBoxKeepsItsWidthWhileScrolling(t *testing.T) {
	hs := newHarness(t, 50, 12, "a")
	hs.press(testPrefix, runeKey('?'))
	width := func() int {
		box := strings.Split(hs.m.helpText(hs.m.height-1), "\n")
		return ansi.StringWidth(box[0])
	}
	want := width()
	for i := range 40 {
		hs.press(codeKey(keys.KeyDown))
		if got := width(); got != want {
			t.Fatalf("after %d down arrows (rows from %d) the help box is %d columns wide, at first %d", i+1, hs.m.helpTop+1, got, want)
		}
	}
}
