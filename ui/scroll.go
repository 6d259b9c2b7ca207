package ui

import (
	"fmt"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/vterm"
)

// This file is scroll mode: a pane's view over its history and screen, entered with
// prefix [ or the mouse wheel. The position is the absolute row number (vterm's
// ScreenTop numbering) of the top line shown, so output arriving meanwhile does not
// move what the reader is looking at.

// wheelLines is how far one wheel notch scrolls.
const wheelLines = 3

// scrollState is one pane's scroll position and its copy mode (copy.go).
type scrollState struct {
	top    int64  // absolute number of the top row shown
	cur    point  // the copy cursor
	anchor *point // where the selection started; nil: none
	search string // the last search text
	match  *match // the last search hit, highlighted
}

// scrollBounds returns the absolute numbers of the oldest history row held and of the
// screen's top row (the bottom-most scroll position).
func scrollBounds(v *paneView) (oldest, bottom int64) {
	bottom = v.screen.ScreenTop()
	return bottom - int64(v.screen.HistoryLen()), bottom
}

// enterScroll puts the focused pane in scroll mode at the bottom.
func (m *model) enterScroll(v *paneView) {
	if v.scroll != nil {
		return
	}
	_, bottom := scrollBounds(v)
	v.scroll = &scrollState{top: bottom, cur: startCursor(v)}
	v.stale = true
	m.fr.invalidate()
}

// leaveScroll returns the pane to its live screen.
func (m *model) leaveScroll(v *paneView) {
	v.scroll = nil
	v.stale = true
	m.fr.invalidate()
}

// scrollTo moves a pane's view to top (clamped) and reports whether it is at the bottom.
func (m *model) scrollTo(v *paneView, top int64) bool {
	oldest, bottom := scrollBounds(v)
	top = min(max(top, oldest), bottom)
	if v.scroll.top != top {
		v.scroll.top = top
		v.stale = true
		m.fr.invalidate()
	}
	return top == bottom
}

// scrollHint is the status line's reminder of scroll mode's keys.
const scrollHint = "scroll mode: arrows, PgUp/PgDn, g/G move; v select, y copy, / search; q leaves"

// scrollKey handles a key typed while the focused pane is in scroll mode: the copy
// keys (copy.go: cursor, selection, search), PgUp/PgDn and g/G (Home/End) move the
// view, q or Esc leaves; other keys are ignored.
func (m *model) scrollKey(v *paneView, k keys.Key) {
	if m.copyKey(v, k) {
		return
	}
	oldest, bottom := scrollBounds(v)
	page := int64(max(v.content.H-1, 1))
	top := v.scroll.top
	r, isRune := plainRune(k)
	switch {
	case k.Code == keys.KeyPgUp:
		m.scrollTo(v, top-page)
		m.moveCursor(v, point{v.scroll.cur.row - page, v.scroll.cur.col})
	case k.Code == keys.KeyPgDn:
		m.scrollTo(v, top+page)
		m.moveCursor(v, point{v.scroll.cur.row + page, v.scroll.cur.col})
	case k.Code == keys.KeyHome, isRune && r == 'g':
		m.scrollTo(v, oldest)
		m.moveCursor(v, point{oldest, 0})
	case k.Code == keys.KeyEnd, isRune && r == 'G':
		m.scrollTo(v, bottom)
		m.moveCursor(v, point{lastRow(v), 0})
	case k.Code == keys.KeyEscape, isRune && r == 'q':
		m.leaveScroll(v)
	default:
		m.setHint(scrollHint, scopeScroll, v.member.Pane)
	}
}

// wheel scrolls pane p's history by one notch, entering scroll mode going up and
// leaving it on reaching the bottom going down.
func (m *model) wheel(v *paneView, up bool) {
	if up {
		if v.scroll == nil {
			_, bottom := scrollBounds(v)
			v.scroll = &scrollState{top: bottom, cur: startCursor(v)}
		}
		m.scrollTo(v, v.scroll.top-wheelLines)
		m.keepCursorInView(v)
		return
	}
	if v.scroll == nil {
		return
	}
	if m.scrollTo(v, v.scroll.top+wheelLines) && v.scroll.anchor == nil {
		m.leaveScroll(v) // at the bottom with nothing selected: back to the live screen
		return
	}
	m.keepCursorInView(v)
}

// scrollLines returns the n lines a pane in scroll mode shows: history rows from the
// emulator, then rows of the snapshot's screen.
func scrollLines(v *paneView, n int) []*vterm.Line {
	out := make([]*vterm.Line, n)
	oldest, bottom := scrollBounds(v)
	top := max(v.scroll.top, oldest)
	if top < bottom {
		hist := v.screen.HistoryLines(int(top-oldest), int(min(bottom-top, int64(n))))
		copy(out, hist)
	}
	for r := range n {
		abs := top + int64(r)
		if abs < bottom {
			continue
		}
		if i := abs - bottom; i < int64(len(v.snap.Lines)) {
			out[r] = v.snap.Lines[i]
		}
	}
	return out
}

// scrollLabel describes a pane's scroll position for the status line.
func scrollLabel(v *paneView) string {
	_, bottom := scrollBounds(v)
	up := bottom - v.scroll.top
	if up <= 0 {
		return "SCROLL bottom"
	}
	return fmt.Sprintf("SCROLL %d up", up)
}
