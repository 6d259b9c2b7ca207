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
func scrollBounds(p *Pane) (oldest, bottom int64) {
	bottom = p.Term.ScreenTop()
	return bottom - int64(p.Term.HistoryLen()), bottom
}

// enterScroll puts the focused pane in scroll mode at the bottom.
func (m *model) enterScroll(v *paneView) {
	p := m.host.Pane(m.focus)
	if p == nil || v.scroll != nil {
		return
	}
	_, bottom := scrollBounds(p)
	v.scroll = &scrollState{top: bottom}
	v.stale = true
	m.frameOK = false
}

// leaveScroll returns the pane to its live screen.
func (m *model) leaveScroll(v *paneView) {
	v.scroll = nil
	v.stale = true
	m.frameOK = false
}

// scrollTo moves a pane's view to top (clamped) and reports whether it is at the bottom.
func (m *model) scrollTo(p *Pane, v *paneView, top int64) bool {
	oldest, bottom := scrollBounds(p)
	top = min(max(top, oldest), bottom)
	if v.scroll.top != top {
		v.scroll.top = top
		v.stale = true
		m.frameOK = false
	}
	return top == bottom
}

// scrollKey handles a key typed while the focused pane is in scroll mode: PgUp/PgDn,
// arrows, g/G (and Home/End) move; q or Esc leaves; other keys are ignored.
func (m *model) scrollKey(v *paneView, k keys.Key) {
	p := m.host.Pane(m.focus)
	if p == nil {
		return
	}
	oldest, bottom := scrollBounds(p)
	page := int64(max(v.content.H-1, 1))
	top := v.scroll.top
	r, isRune := plainRune(k)
	switch {
	case k.Code == keys.KeyPgUp:
		m.scrollTo(p, v, top-page)
	case k.Code == keys.KeyPgDn:
		m.scrollTo(p, v, top+page)
	case k.Code == keys.KeyUp:
		m.scrollTo(p, v, top-1)
	case k.Code == keys.KeyDown:
		m.scrollTo(p, v, top+1)
	case k.Code == keys.KeyHome, isRune && r == 'g':
		m.scrollTo(p, v, oldest)
	case k.Code == keys.KeyEnd, isRune && r == 'G':
		m.scrollTo(p, v, bottom)
	case k.Code == keys.KeyEscape, isRune && r == 'q':
		m.leaveScroll(v)
	default:
		m.setStatus("scroll mode: PgUp/PgDn, arrows, g/G move; q or Esc leaves")
	}
}

// wheel scrolls pane p's history by one notch, entering scroll mode going up and
// leaving it on reaching the bottom going down.
func (m *model) wheel(p *Pane, v *paneView, up bool) {
	if up {
		if v.scroll == nil {
			_, bottom := scrollBounds(p)
			v.scroll = &scrollState{top: bottom}
		}
		m.scrollTo(p, v, v.scroll.top-wheelLines)
		return
	}
	if v.scroll != nil && m.scrollTo(p, v, v.scroll.top+wheelLines) {
		m.leaveScroll(v)
	}
}

// scrollLines returns the n lines a pane in scroll mode shows: history rows from the
// emulator, then rows of the snapshot's screen.
func scrollLines(p *Pane, v *paneView, n int) []*vterm.Line {
	out := make([]*vterm.Line, n)
	bottom := p.Term.ScreenTop()
	oldest := bottom - int64(p.Term.HistoryLen())
	top := max(v.scroll.top, oldest)
	if top < bottom {
		hist := p.Term.HistoryLines(int(top-oldest), int(min(bottom-top, int64(n))))
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
func scrollLabel(p *Pane, v *paneView) string {
	_, bottom := scrollBounds(p)
	up := bottom - v.scroll.top
	if up <= 0 {
		return "SCROLL bottom"
	}
	return fmt.Sprintf("SCROLL %d up", up)
}
