package e2e

// screen is a snapshot of agentmux's screen as text cells, with helpers to find a pane by
// its border title ("╭ 1 alice ─ running ──╮") and read what is inside its border.

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agentmux/agentmux/vterm"
)

type screen struct {
	cells [][]string // [row][col]: a cell's text, "" for the right half of a wide character
	snap  *vterm.Snapshot
}

func newScreen(snap *vterm.Snapshot) *screen {
	s := &screen{snap: snap, cells: make([][]string, len(snap.Lines))}
	for y, l := range snap.Lines {
		row := make([]string, len(l.Cells))
		for x, c := range l.Cells {
			row[x] = c.String()
		}
		s.cells[y] = row
	}
	return s
}

// row returns row y as text, trailing blanks trimmed.
func (s *screen) row(y int) string { return s.span(y, 0, len(s.cells[y])) }

// span returns the text of columns [x0, x1) of row y, trailing blanks trimmed.
func (s *screen) span(y, x0, x1 int) string {
	x0, x1 = max(x0, 0), min(x1, len(s.cells[y]))
	if x0 >= x1 {
		return ""
	}
	return strings.TrimRight(strings.Join(s.cells[y][x0:x1], ""), " ")
}

// text is the whole screen, one line per row.
func (s *screen) text() string {
	rows := make([]string, len(s.cells))
	for y := range s.cells {
		rows[y] = s.row(y)
	}
	return strings.Join(rows, "\n")
}

// has reports whether some row contains x.
func (s *screen) has(x string) bool { return strings.Contains(s.text(), x) }

// dump is the screen with row numbers, for failure messages.
func (s *screen) dump() string {
	var b strings.Builder
	for y := range s.cells {
		fmt.Fprintf(&b, "%02d|%s\n", y+1, s.row(y))
	}
	return b.String()
}

// pane is one pane's box on the screen.
type pane struct {
	title         string // the top border's text, e.g. "╭ 1 alice ─ running ──╮"
	top, left     int    // the top-left corner
	bottom, right int    // the bottom-right corner
	lines         []string
}

// text is the pane's content, one line per row.
func (p pane) text() string { return strings.Join(p.lines, "\n") }

// has reports whether the pane's content contains x.
func (p pane) has(x string) bool { return strings.Contains(p.text(), x) }

// pane finds the pane whose border title starts with "N ", and reads its content. ok is
// false when no such border is on screen.
func (s *screen) pane(n int) (p pane, ok bool) {
	want := regexp.MustCompile(fmt.Sprintf(`^╭ %d \S`, n))
	for y, row := range s.cells {
		for x, c := range row {
			if c != "╭" || !want.MatchString(s.span(y, x, len(row))) {
				continue
			}
			right := x + 1
			for right < len(row) && row[right] != "╮" {
				right++
			}
			bottom := y + 1
			for bottom < len(s.cells) && s.cells[bottom][x] != "╰" {
				bottom++
			}
			if right == len(row) || bottom == len(s.cells) {
				return pane{}, false
			}
			p := pane{title: s.span(y, x, right+1), top: y, left: x, bottom: bottom, right: right}
			for yy := y + 1; yy < bottom; yy++ {
				p.lines = append(p.lines, s.span(yy, x+1, right))
			}
			return p, true
		}
	}
	return pane{}, false
}

// paneHas reports whether pane n is on screen and its content contains x.
func (s *screen) paneHas(n int, x string) bool {
	p, ok := s.pane(n)
	return ok && p.has(x)
}

// titleHas reports whether pane n's border title contains x.
func (s *screen) titleHas(n int, x string) bool {
	p, ok := s.pane(n)
	return ok && strings.Contains(p.title, x)
}
