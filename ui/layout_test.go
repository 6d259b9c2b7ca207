package ui

// Layout tests are pure tables: panes and a screen size in, the tree's String() form and
// every pane's rectangle out, plus directional focus over those rectangles.

import "testing"

func TestBuildLayout(t *testing.T) {
	cases := []struct {
		kind  LayoutKind
		panes []int
		tree  string
	}{
		{LayoutAuto, []int{1}, "1"},
		{LayoutAuto, []int{1, 2}, "cols(1,2)"},
		{LayoutAuto, []int{1, 2, 3}, "cols(1,2,3)"},
		{LayoutAuto, []int{1, 2, 3, 4}, "rows(cols(1,2),cols(3,4))"},
		{LayoutAuto, []int{1, 2, 3, 4, 5}, "rows(cols(1,2,3),cols(4,5))"},
		{LayoutTiled, []int{1, 2, 3, 4, 5, 6, 7}, "rows(cols(1,2,3),cols(4,5,6),7)"},
		{LayoutTiled, []int{1, 2}, "cols(1,2)"},
		{LayoutTiled, []int{1, 2, 3}, "rows(cols(1,2),3)"},
		{LayoutRows, []int{1, 2, 3}, "rows(1,2,3)"},
		{LayoutColumns, []int{1, 2, 3, 4, 5}, "cols(1,2,3,4,5)"},
		{LayoutColumns, []int{4, 7}, "cols(4,7)"},
		{LayoutColumns, nil, "empty"},
	}
	for _, c := range cases {
		if got := buildLayout(c.kind, c.panes).String(); got != c.tree {
			t.Errorf("%v %v: tree %s, want %s", c.kind, c.panes, got, c.tree)
		}
	}
}

func TestLayoutRects(t *testing.T) {
	cases := []struct {
		kind  LayoutKind
		panes []int
		w, h  int
		want  string
	}{
		{LayoutAuto, []int{1}, 120, 39, "1:0,0 120x39"},
		{LayoutAuto, []int{1, 2}, 120, 39, "1:0,0 60x39 2:60,0 60x39"},
		{LayoutAuto, []int{1, 2}, 121, 39, "1:0,0 61x39 2:61,0 60x39"},
		{LayoutAuto, []int{1, 2, 3}, 100, 39, "1:0,0 34x39 2:34,0 33x39 3:67,0 33x39"},
		{LayoutRows, []int{1, 2}, 80, 23, "1:0,0 80x12 2:0,12 80x11"},
		{LayoutAuto, []int{1, 2, 3, 4}, 240, 59, "1:0,0 120x30 2:120,0 120x30 3:0,30 120x29 4:120,30 120x29"},
		{LayoutTiled, []int{1, 2, 3}, 80, 24, "1:0,0 40x12 2:40,0 40x12 3:0,12 80x12"},
		{LayoutColumns, []int{1, 2, 3}, 2, 5, "1:0,0 1x5 2:1,0 1x5 3:2,0 0x5"},
	}
	for _, c := range cases {
		got := rectsString(buildLayout(c.kind, c.panes).rects(rect{0, 0, c.w, c.h}))
		if got != c.want {
			t.Errorf("%v %v at %dx%d:\n got %s\nwant %s", c.kind, c.panes, c.w, c.h, got, c.want)
		}
	}
}

func TestParseLayout(t *testing.T) {
	for in, want := range map[string]LayoutKind{"": LayoutAuto, "columns": LayoutColumns, "rows": LayoutRows, "tiled": LayoutTiled} {
		got, err := ParseLayout(in)
		if err != nil || got != want {
			t.Errorf("ParseLayout(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseLayout("grid"); err == nil {
		t.Error("ParseLayout(grid) succeeded")
	}
}

func TestNeighbor(t *testing.T) {
	// 2x2 grid plus a tall right column: rows(cols(1,2),cols(3,4)) next to 5.
	rs := []paneRect{
		{1, rect{0, 0, 40, 20}}, {2, rect{40, 0, 40, 20}},
		{3, rect{0, 20, 40, 20}}, {4, rect{40, 20, 40, 20}},
		{5, rect{80, 0, 40, 40}},
	}
	cases := []struct {
		from int
		d    direction
		want int
	}{
		{1, dirRight, 2}, {1, dirDown, 3}, {1, dirLeft, 1}, {1, dirUp, 1},
		{2, dirRight, 5}, {4, dirRight, 5}, {4, dirUp, 2}, {3, dirRight, 4},
		{5, dirLeft, 2}, // equal distance: 2 and 4 overlap equally, the earlier wins
		{9, dirLeft, 9}, // unknown pane stays
	}
	for _, c := range cases {
		if got := neighbor(rs, c.from, c.d); got != c.want {
			t.Errorf("neighbor(%d, %v) = %d, want %d", c.from, c.d, got, c.want)
		}
	}
}
