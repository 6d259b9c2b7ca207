package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LayoutKind is how panes are arranged on the screen.
type LayoutKind uint8

// The layouts --layout names. LayoutAuto is columns up to three panes and tiled beyond.
const (
	LayoutAuto LayoutKind = iota
	LayoutColumns
	LayoutRows
	LayoutTiled
)

// ParseLayout turns a --layout value into a LayoutKind ("" is LayoutAuto).
func ParseLayout(s string) (LayoutKind, error) {
	switch s {
	case "", "auto":
		return LayoutAuto, nil
	case "columns":
		return LayoutColumns, nil
	case "rows":
		return LayoutRows, nil
	case "tiled":
		return LayoutTiled, nil
	}
	return LayoutAuto, fmt.Errorf("unknown layout %q (want columns, rows or tiled)", s)
}

// String returns the flag spelling of k.
func (k LayoutKind) String() string {
	switch k {
	case LayoutColumns:
		return "columns"
	case LayoutRows:
		return "rows"
	case LayoutTiled:
		return "tiled"
	}
	return "auto"
}

// rect is a rectangle of outer-terminal cells.
type rect struct{ X, Y, W, H int }

// contains reports whether the cell (x, y) lies inside r.
func (r rect) contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// String formats r as "x,y wxh" for tests.
func (r rect) String() string { return fmt.Sprintf("%d,%d %dx%d", r.X, r.Y, r.W, r.H) }

// splitDir is the direction a split node lays out its children in.
type splitDir uint8

const (
	splitH splitDir = iota // children side by side, left to right
	splitV                 // children stacked, top to bottom
)

// node is one node of the pure layout tree: a leaf holding a pane number, or a split whose
// children share its rectangle equally along its direction (tmux's layout_cell, without
// custom sizes for now).
type node struct {
	pane     int
	dir      splitDir
	children []*node
	// share is a leaf's width and height as percentages of an even share (0: 100):
	// prefix ctrl+arrow and agentmux resize set it (share.go).
	share [2]int
}

// buildLayout returns the tree for panes (in display order) under kind.
func buildLayout(kind LayoutKind, panes []int) *node {
	if len(panes) == 0 {
		return nil
	}
	if len(panes) == 1 {
		return &node{pane: panes[0]}
	}
	if kind == LayoutAuto {
		kind = LayoutColumns
		if len(panes) > 3 {
			kind = LayoutTiled
		}
	}
	leaves := func(ids []int) []*node {
		out := make([]*node, len(ids))
		for i, id := range ids {
			out[i] = &node{pane: id}
		}
		return out
	}
	switch kind {
	case LayoutRows:
		return &node{dir: splitV, children: leaves(panes)}
	case LayoutTiled:
		cols := int(math.Ceil(math.Sqrt(float64(len(panes)))))
		root := &node{dir: splitV}
		for i := 0; i < len(panes); i += cols {
			row := panes[i:min(i+cols, len(panes))]
			if len(row) == 1 {
				root.children = append(root.children, &node{pane: row[0]})
				continue
			}
			root.children = append(root.children, &node{dir: splitH, children: leaves(row)})
		}
		if len(root.children) == 1 {
			return root.children[0]
		}
		return root
	default:
		return &node{dir: splitH, children: leaves(panes)}
	}
}

// String renders the tree compactly for tests: "cols(1,2)", "rows(cols(1,2),3)", "1".
func (n *node) String() string {
	if n == nil {
		return "empty"
	}
	if n.children == nil {
		return strconv.Itoa(n.pane)
	}
	var b strings.Builder
	if n.dir == splitH {
		b.WriteString("cols(")
	} else {
		b.WriteString("rows(")
	}
	for i, c := range n.children {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(c.String())
	}
	b.WriteByte(')')
	return b.String()
}

// paneRect is one pane's place on the screen (border included).
type paneRect struct {
	Pane int
	R    rect
}

// rects lays the tree out over area, returning every pane's rectangle in tree order.
// Sizes are shared as equally as cells allow; the leftmost/topmost children take the
// remainder. A rectangle may be smaller than a border needs when the screen is tiny: the
// view clips, it never overflows.
func (n *node) rects(area rect) []paneRect {
	var out []paneRect
	var walk func(n *node, r rect)
	walk = func(n *node, r rect) {
		if n.children == nil {
			out = append(out, paneRect{Pane: n.pane, R: r})
			return
		}
		total := r.W
		if n.dir == splitV {
			total = r.H
		}
		sizes := shareWeighted(total, n.weights())
		pos := 0
		for i, c := range n.children {
			cr := r
			if n.dir == splitH {
				cr.X, cr.W = r.X+pos, sizes[i]
			} else {
				cr.Y, cr.H = r.Y+pos, sizes[i]
			}
			pos += sizes[i]
			walk(c, cr)
		}
	}
	if n != nil {
		walk(n, area)
	}
	return out
}

// share splits total into k parts differing by at most one, larger parts first.
func share(total, k int) []int {
	out := make([]int, k)
	if total < 0 {
		total = 0
	}
	base, extra := total/k, total%k
	for i := range out {
		out[i] = base
		if i < extra {
			out[i]++
		}
	}
	return out
}

// direction is a focus-movement direction (prefix arrow).
type direction uint8

const (
	dirLeft direction = iota
	dirRight
	dirUp
	dirDown
)

// neighbor returns the pane next to from in direction d: among the panes entirely on that
// side whose extent overlaps from's on the other axis, the nearest, then the one
// overlapping most, then the earliest. It returns from itself when there is none.
func neighbor(rs []paneRect, from int, d direction) int {
	var cur rect
	found := false
	for _, pr := range rs {
		if pr.Pane == from {
			cur, found = pr.R, true
		}
	}
	if !found {
		return from
	}
	best, bestDist, bestOverlap := from, math.MaxInt, -1
	for _, pr := range rs {
		if pr.Pane == from {
			continue
		}
		r := pr.R
		var dist, overlap int
		switch d {
		case dirLeft, dirRight:
			if d == dirLeft && r.X+r.W > cur.X || d == dirRight && r.X < cur.X+cur.W {
				continue
			}
			overlap = min(r.Y+r.H, cur.Y+cur.H) - max(r.Y, cur.Y)
			dist = cur.X - (r.X + r.W)
			if d == dirRight {
				dist = r.X - (cur.X + cur.W)
			}
		default:
			if d == dirUp && r.Y+r.H > cur.Y || d == dirDown && r.Y < cur.Y+cur.H {
				continue
			}
			overlap = min(r.X+r.W, cur.X+cur.W) - max(r.X, cur.X)
			dist = cur.Y - (r.Y + r.H)
			if d == dirDown {
				dist = r.Y - (cur.Y + cur.H)
			}
		}
		if overlap <= 0 {
			continue
		}
		if dist < bestDist || dist == bestDist && overlap > bestOverlap {
			best, bestDist, bestOverlap = pr.Pane, dist, overlap
		}
	}
	return best
}
