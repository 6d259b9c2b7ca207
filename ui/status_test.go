package ui

// A status message that speaks of something lasting goes with it, however that ended:
// scroll mode's reminder when the wheel leaves scroll mode, the relay log's when the
// log closes, and a brief's "typed once it is idle" once it was typed.

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

func TestScrollHintGoesWithScrollMode(t *testing.T) {
	hs := newHarness(t, 80, 12, "sh")
	for i := 0; i < 40; i++ {
		hs.output(1, "line\r\n")
	}
	hs.input(keys.Mouse{X: 5, Y: 3, Button: keys.WheelUp, Action: keys.MousePress})
	if hs.m.views[1].scroll == nil {
		t.Fatal("the wheel did not enter scroll mode")
	}
	hs.press(runeKey('x')) // no scroll key: the reminder shows
	if s := hs.statusLine(); !strings.Contains(s, "scroll mode:") {
		t.Fatalf("status line %q lacks scroll mode's reminder", s)
	}
	for i := 0; i < 10 && hs.m.views[1].scroll != nil; i++ {
		hs.input(keys.Mouse{X: 5, Y: 3, Button: keys.WheelDown, Action: keys.MousePress})
	}
	if hs.m.views[1].scroll != nil {
		t.Fatal("the wheel did not leave scroll mode at the bottom")
	}
	if s := hs.statusLine(); strings.Contains(s, "scroll mode:") {
		t.Errorf("scroll mode's reminder outlived scroll mode: %q", s)
	}
}

func TestBriefNoticeGoesOnceTyped(t *testing.T) {
	hs := newRelayHarness(t, false, "alice", "bob")
	hs.startBoth()
	hs.output(1, "working…") // busy: the brief waits until alice is idle again
	hs.press(testPrefix, runeKey('b'))
	if s := hs.statusLine(); !strings.Contains(s, "typed once it is idle") {
		t.Fatalf("status line %q does not say the brief is waiting", s)
	}
	hs.advance(2 * time.Second)
	if got := hs.procs[1].Sent(); !strings.Contains(got, "you are alice, pane 1") {
		t.Fatalf("the brief was not typed: %q", got)
	}
	if s := hs.statusLine(); strings.Contains(s, "typed once it is idle") {
		t.Errorf("the brief's notice outlived its typing: %q", s)
	}
}

// With --address every pane may address any pane; no border repeats it, the status
// line says it once.
func TestStatusLineSaysAddressingIsOnForAll(t *testing.T) {
	hs := newHarnessWith(t, 100, 10, Config{}, session.Options{Address: true}, "a", "b")
	if s := hs.statusLine(); !strings.Contains(s, "addressing: all panes") {
		t.Errorf("status line %q does not say addressing is on for every pane", s)
	}
	hs = newHarness(t, 100, 10, "a", "b")
	if s := hs.statusLine(); strings.Contains(s, "addressing") {
		t.Errorf("status line %q speaks of addressing without --address", s)
	}
}

// The status line says while the session's web view runs, and in which mode.
func TestStatusLineShowsWebView(t *testing.T) {
	label := ""
	hs := newHarnessCfg(t, 100, 12, Config{Web: func() string { return label }}, "sh")
	if s := hs.statusLine(); strings.Contains(s, "web") {
		t.Fatalf("status line %q speaks of a web view that does not run", s)
	}
	label = "web (control)"
	hs.output(1, "x") // the next frame
	if s := hs.statusLine(); !strings.Contains(s, "web (control)") {
		t.Fatalf("status line %q lacks the web view", s)
	}
}

// The relay log names a sender that is no pane as history does.
func TestLogRouteNamesThePerson(t *testing.T) {
	if got := logRoute(session.Entry{FromName: "you", To: 2, ToName: "bob"}); got != "you → 2 bob" {
		t.Errorf("the person's message: %q, want you → 2 bob", got)
	}
	if got := logRoute(session.Entry{To: 2, ToName: "bob"}); got != "agentmux → 2 bob" {
		t.Errorf("agentmux's own: %q", got)
	}
	if got := logRoute(session.Entry{From: 1, FromName: "alice", To: 2, ToName: "bob"}); got != "1 alice → 2 bob" {
		t.Errorf("a pane's: %q", got)
	}
}
