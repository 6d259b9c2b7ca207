package ui

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/vterm"
)

// This file is copy mode, the selection and search inside scroll mode (prefix [). Mouse
// tracking is always on in agentmux, so the outer terminal's own selection needs Shift;
// this is the way without it:
//
//   - scroll mode has a copy cursor (the outer terminal's cursor, a steady block), which
//     starts where the program's cursor was; the arrows (or h j k l) move it, the view
//     following, 0 and $ go to the start and end of its line;
//   - v or Space starts a selection there (again: drops it); the text between it and
//     the cursor is drawn in reverse video;
//   - Enter or y copies the selection to the outer terminal's clipboard with OSC 52
//     (written by the screen writer after a frame, never inside one) and leaves scroll
//     mode; Esc drops a selection, or leaves;
//   - / asks for text on the status line and searches older rows (scroll mode starts at
//     the bottom); n finds the next older match, N the next newer one. The match is
//     highlighted and the cursor put on it. Lower-case text matches either case.
//   - a drag with the left button over a pane whose program does not take the mouse
//     selects (entering scroll mode); releasing copies and, when the drag entered
//     scroll mode, leaves it.
//
// Rows are counted as scroll mode counts them: absolute row numbers (vterm's ScreenTop
// numbering), so output arriving meanwhile moves neither the cursor nor the selection.

// maxCopy bounds the text one copy sends (terminals cap OSC 52; xterm at about 1 MB).
const maxCopy = 1 << 20

// point is a cell of a pane's history and screen: an absolute row and a column.
type point struct {
	row int64
	col int
}

// before reports whether p comes before q in reading order.
func (p point) before(q point) bool { return p.row < q.row || p.row == q.row && p.col < q.col }

// match is a search hit: n cells from at.
type match struct {
	at point
	n  int
}

// lastRow is the absolute number of the pane's last screen row.
func lastRow(v *paneView) int64 {
	_, bottom := scrollBounds(v)
	n := 1
	if v.snap != nil {
		n = max(len(v.snap.Lines), 1)
	}
	return bottom + int64(n) - 1
}

// lineAt returns the line at absolute row abs (nil when none is held).
func lineAt(v *paneView, abs int64) *vterm.Line {
	oldest, bottom := scrollBounds(v)
	switch {
	case abs < oldest:
		return nil
	case abs < bottom:
		if ls := v.screen.HistoryLines(int(abs-oldest), 1); len(ls) == 1 {
			return ls[0]
		}
		return nil
	}
	if v.snap != nil && abs-bottom < int64(len(v.snap.Lines)) {
		return v.snap.Lines[abs-bottom]
	}
	return nil
}

// cellsText returns the text of columns [from, to) of l (the right halves of wide
// characters add nothing).
func cellsText(l *vterm.Line, from, to int) string {
	if l == nil {
		return ""
	}
	var b strings.Builder
	for x := max(from, 0); x < min(to, len(l.Cells)); x++ {
		c := l.Cells[x]
		if c.Width == 0 {
			continue
		}
		if c.Rune == 0 {
			b.WriteByte(' ')
			continue
		}
		b.WriteString(sanitize(c.String()))
	}
	return b.String()
}

// selection returns the selected span in reading order, and false when nothing is
// selected.
func (s *scrollState) selection() (from, to point, ok bool) {
	if s.anchor == nil {
		return point{}, point{}, false
	}
	from, to = *s.anchor, s.cur
	if to.before(from) {
		from, to = to, from
	}
	return from, to, true
}

// selectedText is the selection's text: rows joined by newlines (not where a row was
// soft-wrapped), trailing blanks of each row dropped.
func selectedText(v *paneView) string {
	from, to, ok := v.scroll.selection()
	if !ok {
		return ""
	}
	var b strings.Builder
	for row := from.row; row <= to.row && b.Len() < maxCopy; row++ {
		l := lineAt(v, row)
		x0, x1 := 0, 1<<30
		if row == from.row {
			x0 = from.col
		}
		if row == to.row {
			x1 = to.col + 1
		}
		text := cellsText(l, x0, x1)
		wrapped := l != nil && l.Wrapped && row != to.row
		if !wrapped {
			text = strings.TrimRight(text, " ")
		}
		b.WriteString(text)
		if row != to.row && !wrapped {
			b.WriteByte('\n')
		}
	}
	s := b.String()
	if len(s) > maxCopy {
		s = s[:maxCopy]
	}
	return s
}

// osc52 is the sequence that puts text on the outer terminal's clipboard.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

// copyText sends text to the outer terminal's clipboard and says so.
func (m *model) copyText(text string) {
	m.copied = text
	if m.scr != nil {
		m.scr.Send(osc52(text))
	}
	m.setStatus(fmt.Sprintf("copied %d characters (OSC 52: the terminal must allow clipboard writes)", len([]rune(text))))
}

// handleClipboard forwards a pane program's clipboard write to the outer terminal when
// the person allowed it, and says on the status line what became of it either way.
func (m *model) handleClipboard(ev session.Clipboard) {
	v := m.views[ev.Pane]
	if v == nil {
		return
	}
	n := len([]rune(ev.Text))
	if !m.cfg.AllowClipboard {
		m.setStatus(fmt.Sprintf("pane %d %s wrote %d characters to the clipboard: not passed on ([ui] allow_clipboard = true in config.toml lets panes)", ev.Pane, v.member.Name, n))
		return
	}
	text := ev.Text
	if len(text) > maxCopy {
		text = text[:maxCopy]
	}
	if m.scr != nil {
		m.scr.Send(osc52(text))
	}
	m.setStatus(fmt.Sprintf("pane %d %s copied %d characters to the clipboard", ev.Pane, v.member.Name, n))
}

// startCursor puts the copy cursor where the program's cursor is (on entering scroll
// mode).
func startCursor(v *paneView) point {
	_, bottom := scrollBounds(v)
	if v.snap == nil {
		return point{row: bottom}
	}
	return point{row: bottom + int64(v.snap.Cursor.Y), col: v.snap.Cursor.X}
}

// moveCursor moves the copy cursor to p (clamped to the rows held and the pane's
// width), scrolling the view to keep it in sight.
func (m *model) moveCursor(v *paneView, p point) {
	oldest, _ := scrollBounds(v)
	p.row = min(max(p.row, oldest), lastRow(v))
	p.col = min(max(p.col, 0), max(v.content.W-1, 0))
	s := v.scroll
	s.cur = p
	h := int64(max(v.content.H, 1))
	switch {
	case p.row < s.top:
		m.scrollTo(v, p.row)
	case p.row >= s.top+h:
		m.scrollTo(v, p.row-h+1)
	}
	v.stale = true
	m.fr.invalidate()
}

// keepCursorInView moves the copy cursor into the view after the view moved.
func (m *model) keepCursorInView(v *paneView) {
	s := v.scroll
	h := int64(max(v.content.H, 1))
	row := min(max(s.cur.row, s.top), s.top+h-1)
	if row != s.cur.row {
		s.cur.row = row
		v.stale = true
	}
}

// copyKey handles the copy-mode keys of scroll mode; it reports whether k was one.
func (m *model) copyKey(v *paneView, k keys.Key) bool {
	s := v.scroll
	r, isRune := plainRune(k)
	cur := s.cur
	switch {
	case k.Code == keys.KeyUp, isRune && r == 'k':
		m.moveCursor(v, point{cur.row - 1, cur.col})
	case k.Code == keys.KeyDown, isRune && r == 'j':
		m.moveCursor(v, point{cur.row + 1, cur.col})
	case k.Code == keys.KeyLeft, isRune && r == 'h':
		m.moveCursor(v, point{cur.row, cur.col - 1})
	case k.Code == keys.KeyRight, isRune && r == 'l':
		m.moveCursor(v, point{cur.row, cur.col + 1})
	case isRune && r == '0':
		m.moveCursor(v, point{cur.row, 0})
	case isRune && r == '$':
		m.moveCursor(v, point{cur.row, lastCol(lineAt(v, cur.row))})
	case isRune && (r == 'v' || r == ' '):
		if s.anchor != nil {
			s.anchor = nil
		} else {
			a := cur
			s.anchor = &a
		}
		v.stale = true
		m.fr.invalidate()
	case k.Code == keys.KeyEnter && k.Mod == 0, isRune && r == 'y':
		if s.anchor == nil {
			m.setStatus("nothing selected: v or Space starts a selection")
			return true
		}
		m.copyText(selectedText(v))
		m.leaveScroll(v)
	case isEscape(k) && s.anchor != nil:
		s.anchor = nil
		v.stale = true
		m.fr.invalidate()
	case isRune && r == '/':
		m.mode = modeSearch
		m.searchBuf = ""
		m.fr.invalidate()
	case isRune && r == 'n':
		m.search(v, true)
	case isRune && r == 'N':
		m.search(v, false)
	default:
		return false
	}
	return true
}

// lastCol is the column of l's last character that is not blank (0 when none).
func lastCol(l *vterm.Line) int {
	if l == nil {
		return 0
	}
	for x := len(l.Cells) - 1; x >= 0; x-- {
		if c := l.Cells[x]; c.Width != 0 && c.Rune != 0 && c.Rune != ' ' {
			return x
		}
	}
	return 0
}

// lineRunes returns l's text as runes and the column each one is drawn in (a
// character's combining marks share its column).
func lineRunes(l *vterm.Line) (runes []rune, cols []int) {
	if l == nil {
		return nil, nil
	}
	for x, c := range l.Cells {
		if c.Width == 0 {
			continue
		}
		t := c.String()
		if c.Rune == 0 {
			t = " "
		}
		for _, r := range t {
			runes = append(runes, r)
			cols = append(cols, x)
		}
	}
	return runes, cols
}

// searchKey handles a key while the search text is typed on the status line: Enter
// searches, Esc cancels, Backspace deletes.
func (m *model) searchKey(k keys.Key) {
	v := m.focused()
	switch {
	case isEscape(k):
		m.mode = modeNormal
	case k.Code == keys.KeyEnter && k.Mod == 0:
		m.mode = modeNormal
		if v != nil && v.scroll != nil && m.searchBuf != "" {
			v.scroll.search = m.searchBuf
			m.search(v, true)
		}
	case k.Code == keys.KeyBackspace:
		if r := []rune(m.searchBuf); len(r) > 0 {
			m.searchBuf = string(r[:len(r)-1])
		}
	default:
		if r, ok := plainRune(k); ok && unicode.IsPrint(r) {
			m.searchBuf += string(r)
		}
	}
	m.fr.invalidate()
}

// search finds the scroll state's search text from the copy cursor: towards older rows
// when up, newer ones otherwise. The cursor goes to the match, which is highlighted.
func (m *model) search(v *paneView, up bool) {
	s := v.scroll
	if s.search == "" {
		m.setStatus("no search yet: / then the text")
		return
	}
	needle := []rune(s.search)
	fold := strings.ToLower(s.search) == s.search
	if fold {
		for i, r := range needle {
			needle[i] = unicode.ToLower(r)
		}
	}
	oldest, _ := scrollBounds(v)
	last := lastRow(v)
	step := int64(1)
	if up {
		step = -1
	}
	for row := s.cur.row; row >= oldest && row <= last; row += step {
		l := lineAt(v, row)
		hay, cols := lineRunes(l)
		if fold {
			for i, r := range hay {
				hay[i] = unicode.ToLower(r)
			}
		}
		best := -1
		for i := 0; i+len(needle) <= len(hay); i++ {
			if string(hay[i:i+len(needle)]) != string(needle) {
				continue
			}
			c := cols[i]
			if row == s.cur.row && (up && c >= s.cur.col || !up && c <= s.cur.col) {
				continue
			}
			best = i
			if !up {
				break // the first after the cursor
			}
		}
		if best >= 0 {
			from, end := cols[best], cols[best+len(needle)-1]
			end += max(int(l.Cells[end].Width), 1)
			s.match = &match{at: point{row, from}, n: end - from}
			m.moveCursor(v, point{row, from})
			m.setStatus(fmt.Sprintf("found %q: n older, N newer", s.search))
			return
		}
	}
	m.setStatus(fmt.Sprintf("%q not found", s.search))
}

// highlighted returns l with columns [from, to) in reverse video (a new line; l is
// shared with snapshots and must not change), width columns wide at least.
func highlighted(l *vterm.Line, from, to, width int) *vterm.Line {
	n := width
	if l != nil {
		n = max(n, len(l.Cells))
	}
	out := &vterm.Line{Cells: make([]vterm.Cell, n)}
	if l != nil {
		copy(out.Cells, l.Cells)
		out.Wrapped = l.Wrapped
	}
	for x := range out.Cells {
		if out.Cells[x].Width == 0 && (l == nil || x >= len(l.Cells)) {
			out.Cells[x] = vterm.Cell{Rune: ' ', Width: 1}
		}
		if x >= from && x < to {
			out.Cells[x].Style.Attr ^= vterm.AttrReverse
		}
	}
	return out
}

// markRow returns the columns of absolute row abs that are selected or matched, as
// [from, to), and false when none are.
func markRow(s *scrollState, abs int64, width int) (from, to int, ok bool) {
	if a, b, sel := s.selection(); sel && abs >= a.row && abs <= b.row {
		from, to = 0, width
		if abs == a.row {
			from = a.col
		}
		if abs == b.row {
			to = b.col + 1
		}
		return from, to, true
	}
	if mt := s.match; mt != nil && mt.at.row == abs {
		return mt.at.col, mt.at.col + mt.n, true
	}
	return 0, 0, false
}

// copyMouse handles the left button over a pane whose program does not take the mouse:
// a drag selects (entering scroll mode), the release copies. It reports whether the
// event was used.
func (m *model) copyMouse(ev keys.Mouse) bool {
	if ev.Button != keys.ButtonLeft && !(ev.Action == keys.MouseRelease && m.drag != nil) {
		return false
	}
	switch ev.Action {
	case keys.MousePress:
		m.drag = nil
		id := m.paneAt(ev.X, ev.Y)
		v := m.views[id]
		if v == nil || !v.content.contains(ev.X, ev.Y) {
			return false
		}
		m.drag = &dragState{pane: id, start: m.pointAt(v, ev.X, ev.Y)}
		return false // the press still focuses the pane
	case keys.MouseMotion:
		d := m.drag
		if d == nil {
			return false
		}
		v := m.views[d.pane]
		if v == nil {
			m.drag = nil
			return true
		}
		if v.scroll == nil {
			m.enterScroll(v)
			d.entered = true
		}
		if !d.moved { // a new drag starts a new selection
			a := d.start
			v.scroll.anchor, v.scroll.match = &a, nil
		}
		d.moved = true
		m.moveCursor(v, m.pointAt(v, ev.X, ev.Y))
		return true
	case keys.MouseRelease:
		d := m.drag
		m.drag = nil
		if d == nil || !d.moved {
			return false // a click: no selection made
		}
		v := m.views[d.pane]
		if v == nil || v.scroll == nil || v.scroll.anchor == nil {
			return true
		}
		m.copyText(selectedText(v))
		v.scroll.anchor = nil
		v.stale = true
		if d.entered {
			m.leaveScroll(v)
		}
		return true
	}
	return false
}

// dragState is a left-button drag that may become a selection.
type dragState struct {
	pane    int
	start   point
	moved   bool // the pointer moved with the button held: a selection
	entered bool // the drag put the pane in scroll mode
}

// pointAt is the pane cell under outer (x, y), clamped into the content area.
func (m *model) pointAt(v *paneView, x, y int) point {
	top := v.screen.ScreenTop()
	if v.scroll != nil {
		top = v.scroll.top
	}
	cx := min(max(x-v.content.X, 0), max(v.content.W-1, 0))
	cy := min(max(y-v.content.Y, 0), max(v.content.H-1, 0))
	return point{row: top + int64(cy), col: cx}
}
