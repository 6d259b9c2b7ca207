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

// scrollState is one pane's scroll position.
type scrollState struct {
	top int64 // absolute number of the top row shown
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
	v.scroll = &scrollState{top: bottom}
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

// scrollKey handles a key typed while the focused pane is in scroll mode: PgUp/PgDn,
// arrows, g/G (and Home/End) move; q or Esc leaves; other keys are ignored.
func (m *model) scrollKey(v *paneView, k keys.Key) {
	oldest, bottom := scrollBounds(v)
	page := int64(max(v.content.H-1, 1))
	top := v.scroll.top
	r, isRune := plainRune(k)
	switch {
	case k.Code == keys.KeyPgUp:
		m.scrollTo(v, top-page)
	case k.Code == keys.KeyPgDn:
		m.scrollTo(v, top+page)
	case k.Code == keys.KeyUp:
		m.scrollTo(v, top-1)
	case k.Code == keys.KeyDown:
		m.scrollTo(v, top+1)
	case k.Code == keys.KeyHome, isRune && r == 'g':
		m.scrollTo(v, oldest)
	case k.Code == keys.KeyEnd, isRune && r == 'G':
		m.scrollTo(v, bottom)
	case k.Code == keys.KeyEscape, isRune && r == 'q':
		m.leaveScroll(v)
	default:
		m.setStatus("scroll mode: PgUp/PgDn, arrows, g/G move; q or Esc leaves")
	}
}

// wheel scrolls pane p's history by one notch, entering scroll mode going up and
// leaving it on reaching the bottom going down.
func (m *model) wheel(v *paneView, up bool) {
	if up {
		if v.scroll == nil {
			_, bottom := scrollBounds(v)
			v.scroll = &scrollState{top: bottom}
		}
		m.scrollTo(v, v.scroll.top-wheelLines)
		return
	}
	if v.scroll != nil && m.scrollTo(v, v.scroll.top+wheelLines) {
		m.leaveScroll(v)
	}
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
