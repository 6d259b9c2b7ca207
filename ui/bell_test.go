package ui

// Strategy: the headless harness writes BEL, OSC 9, OSC 777 and OSC 0/2 sequences into
// fake panes' real emulators, as their programs would, and reads the top border rows of
// the view: a pane that rang while not focused shows the bell mark until it is focused,
// the focused pane never does, a notification's text reaches the status line, and a
// program's title shows after the state only when it fits whole.

import (
	"strings"
	"testing"
)

// topRow is the view's first row without escapes (both panes' top borders).
func (hs *harness) topRow() string {
	return strings.SplitN(hs.text(), "\n", 2)[0]
}

// paneTop is pane id's top border text in a two-column layout.
func (hs *harness) paneTop(id int) string {
	row := []rune(hs.topRow())
	for _, pr := range hs.m.rects {
		if pr.Pane == id {
			return string(row[pr.R.X : pr.R.X+pr.R.W])
		}
	}
	return ""
}

func TestBellMarksUnfocusedPaneUntilFocused(t *testing.T) {
	hs := newHarness(t, 120, 30, "alice", "bob")
	hs.output(2, "done\a")
	if top := hs.paneTop(2); !strings.Contains(top, bellMark) {
		t.Fatalf("pane 2 rang while not focused, border %q has no %s", top, bellMark)
	}
	if top := hs.paneTop(2); !strings.HasPrefix(top, "╭ 2 bob ─ running ─ "+bellMark) {
		t.Errorf("border %q: want “2 bob”, the state, then the mark", top)
	}
	hs.output(1, "\a")
	if top := hs.paneTop(1); strings.Contains(top, bellMark) {
		t.Errorf("the focused pane got the mark: %q", top)
	}
	hs.press(testPrefix, runeKey('2'))
	if top := hs.paneTop(2); strings.Contains(top, bellMark) {
		t.Errorf("focusing pane 2 did not clear its mark: %q", top)
	}
	hs.press(testPrefix, runeKey('1'))
	if top := hs.paneTop(2); strings.Contains(top, bellMark) {
		t.Errorf("the mark came back without a new bell: %q", top)
	}
}

func TestNotificationsMarkAndShowText(t *testing.T) {
	for _, c := range []struct{ name, seq string }{
		{"OSC 9", "\x1b]9;build finished\x1b\\"},
		{"OSC 777", "\x1b]777;notify;agent;build finished\a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			hs := newHarness(t, 120, 30, "alice", "bob")
			hs.output(2, c.seq)
			if top := hs.paneTop(2); !strings.Contains(top, bellMark) {
				t.Errorf("border %q has no mark after a notification", top)
			}
			if s := hs.text(); !strings.Contains(s[strings.LastIndex(s, "\n"):], "bob: build finished") {
				t.Errorf("status line lacks the notification:\n%s", s)
			}
		})
	}
}

func TestProgramTitleShownWhenItFits(t *testing.T) {
	hs := newHarness(t, 120, 30, "alice", "bob")
	hs.output(1, "\x1b]0;✳ Claude Code\a")
	if top := hs.paneTop(1); !strings.HasPrefix(top, "╭ 1 alice ─ running ─ ✳ Claude Code ─") {
		t.Errorf("border %q: want the name, the state, then the program's title", top)
	}
	hs.output(2, "\x1b]2;"+strings.Repeat("long title ", 10)+"\a")
	if top := hs.paneTop(2); strings.Contains(top, "long title") || !strings.HasPrefix(top, "╭ 2 bob ─ running ─") {
		t.Errorf("a title too long to fit whole must be left out: %q", top)
	}
}
