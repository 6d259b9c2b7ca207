package ui

// The layout is kept by the session (session.View): a terminal starts from it (a
// restored session's, or what another terminal left) and every change of kind, order
// or zoom goes back to it. Strategy: the fake-process harness; the rectangles tell the
// layout, the session's View what was sent.

import (
	"slices"
	"testing"

	"github.com/agentmux/agentmux/session"
)

func TestLayoutStartsFromAndGoesToTheSessionsView(t *testing.T) {
	o := session.Options{View: session.View{Layout: "rows", Order: []int{3, 1, 2}, Zoomed: 2}}
	hs := newHarnessWith(t, 120, 40, Config{}, o, "a", "b", "c")
	if hs.m.cfg.Layout != LayoutRows || !hs.m.zoomed || hs.m.focus != 2 {
		t.Fatalf("layout %v, zoomed %v on %d: want rows, pane 2 zoomed", hs.m.cfg.Layout, hs.m.zoomed, hs.m.focus)
	}
	if got := rectsString(hs.m.rects); got != "2:0,0 120x39" {
		t.Errorf("zoomed rectangles %s", got)
	}
	hs.press(testPrefix, runeKey('z'))
	if got := rectsString(hs.m.rects); got != "3:0,0 120x13 1:0,13 120x13 2:0,26 120x13" {
		t.Errorf("unzoomed, the rows in the view's order: %s", got)
	}
	hs.s.Sync()
	if v := hs.s.View(); v.Zoomed != 0 || v.Layout != "rows" || !slices.Equal(v.Order, []int{3, 1, 2}) {
		t.Errorf("the session's view after unzoom: %+v", v)
	}
	hs.press(testPrefix, runeKey(' '))
	hs.press(testPrefix, runeKey('z'))
	hs.s.Sync()
	if v := hs.s.View(); v.Zoomed != 2 || v.Layout != "tiled" {
		t.Errorf("the session's view after tiled and zoom: %+v", v)
	}
}
