package e2e

// The outer cursor through a real PTY: agentmux must leave the outer terminal's cursor
// where the focused program put it, in the shape it asked for (DECSCUSR), and put the
// default shape back on exit.

import (
	"testing"

	"github.com/agentmux/agentmux/vterm"
)

func TestOuterCursorFollowsTheProgram(t *testing.T) {
	s := start(t, `sh -c "printf 'ready\033[6 q'; exec cat"`)
	// Pane 1's content starts at (1,1): after "ready" the program's cursor is at (6,1).
	s.waitScreen("a bar cursor after ready", func(scr *screen) bool {
		c := scr.snap.Cursor
		return scr.paneHas(1, "ready") && c.X == 6 && c.Y == 1 && c.Visible && c.Shape == vterm.CursorBar
	}, waitLong)
	s.send(prefix + "qy")
	if code := s.waitExit(waitLong); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	s.term.Drain(waitLong)
	if c := s.screen().snap.Cursor; c.Shape != vterm.CursorDefault || !c.Visible {
		t.Errorf("after exit the cursor is %+v, want the default shape, shown", c)
	}
}
