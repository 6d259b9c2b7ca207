package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// This file is the relay log overlay (prefix r): a box over the lower part of the pane
// area listing the relay's log, one entry a row, newest at the bottom. While it is shown
// it takes the keyboard, like scroll mode: the arrows move the selected entry (its time
// in reverse video; the newest by default), PgUp/PgDn, g/G (Home/End) and the mouse
// wheel over it scroll it; Enter opens the selected entry whole (a delivery's full text,
// which rows cut with …) in a scrollable view that q or Esc leaves; q, Esc or prefix r
// close the log; other keys are not sent to any pane (the box covers the focused pane's
// input row, so typing there blind would surprise), and the status line says how to
// leave. Other prefix commands still work.
//
// Each delivery row reads: time, from → to, its state word (waiting for idle, waiting for
// the person, held, typed, submitted, confirmed, failed, dropped), size, first words.
// The state comes before the words so a narrow screen cuts words, never the state.

// logView is the overlay's state. Owned by the event loop.
type logView struct {
	open bool
	// bottom is the absolute number (counted as session.Log counts: the n-th entry ever
	// made is n-1) of the newest entry shown; -1 follows the newest as entries arrive, so what a
	// reader scrolled to stays put.
	bottom int
	// sel is the absolute number of the selected entry; -1 selects the newest shown.
	sel int
	// detail is the entry opened whole with Enter (nil: the list is shown); detailTop
	// its first row shown.
	detail    *session.Entry
	detailTop int
	// y0 and h are the box's rows on screen when last drawn (for the mouse wheel).
	y0, h int
}

// logHint is the status line's reminder while the log takes the keys.
const logHint = "relay log: ↑↓ select, Enter opens, PgUp/PgDn, g/G scroll; q or Esc closes"

// detailHint is the status line's reminder while an entry is open whole.
const detailHint = "relay entry: ↑↓ PgUp/PgDn g/G scroll; q or Esc goes back to the log"

// stateWidth is the widest state word, so the columns after it line up.
var stateWidth = len(session.WaitingPerson.String())

// toggleLog shows or hides the relay log overlay (prefix r); it opens following the
// newest entry.
func (m *model) toggleLog() {
	m.logv.open = !m.logv.open
	m.logv.bottom, m.logv.sel, m.logv.detail = -1, -1, nil
	for _, v := range m.views {
		v.stale = true // the overlay's rows are drawn over pane rows
	}
	m.fr.invalidate()
}

// logRowsShown is how many entry rows the overlay has room for.
func (m *model) logRowsShown() int {
	areaH := m.height - 1
	return max(min(areaH-3, max(areaH/2, 6)), 1)
}

// logWindow returns the slice of the log the overlay shows, the absolute number of its
// first entry, the entries ever logged and those held, clamping the scroll position.
func (m *model) logWindow() (shown []session.Entry, first, total, held int) {
	var log []session.Entry
	log, total = m.s.Log()
	held = len(log)
	base := total - len(log) // absolute number of log[0]
	n := m.logRowsShown()
	end := len(log)
	if m.logv.bottom >= 0 {
		end = min(max(m.logv.bottom-base+1, min(n, len(log))), len(log))
		if end == len(log) {
			m.logv.bottom = -1 // scrolled back to the newest: follow again
		}
	}
	start := max(end-n, 0)
	if m.logv.sel >= 0 && (m.logv.sel < base+start || m.logv.sel >= base+end) {
		m.logv.sel = min(max(m.logv.sel, base+start), base+end-1) // scrolled away: follow
	}
	return log[start:end], base + start, total, held
}

// selected returns the absolute number of the selected entry (the newest when none was
// chosen) and the log's first held and total counts.
func (m *model) selected() (sel, base, total int) {
	log, total := m.s.Log()
	base = total - len(log)
	sel = m.logv.sel
	if sel < 0 || sel >= total {
		sel = total - 1
		if m.logv.bottom >= 0 {
			sel = m.logv.bottom
		}
	}
	return max(sel, base), base, total
}

// selectLog moves the selection by delta entries, scrolling to keep it in view.
func (m *model) selectLog(delta int) {
	sel, base, total := m.selected()
	if total == 0 {
		return
	}
	sel = min(max(sel+delta, base), total-1)
	m.logv.sel = sel
	n := m.logRowsShown()
	b := m.logv.bottom
	if b < 0 {
		b = total - 1
	}
	switch {
	case sel > b:
		b = sel
	case sel <= b-n:
		b = sel + n - 1
	}
	if b >= total-1 {
		b = -1
	}
	m.logv.bottom = b
	m.logChanged()
}

// openEntry shows the selected entry whole (Enter).
func (m *model) openEntry() {
	sel, base, total := m.selected()
	log, _ := m.s.Log()
	if total == 0 || sel-base >= len(log) {
		return
	}
	e := log[sel-base]
	m.logv.sel = sel
	m.logv.detail, m.logv.detailTop = &e, 0
	m.logChanged()
}

// scrollLog moves the overlay by delta entries (negative: towards older ones).
func (m *model) scrollLog(delta int) {
	log, total := m.s.Log()
	if total == 0 {
		return
	}
	b := m.logv.bottom
	if b < 0 {
		b = total - 1
	}
	base := total - len(log)
	b = max(b+delta, base+min(m.logRowsShown(), total-base)-1) // no further than the oldest page
	if m.logv.sel >= 0 || delta < 0 {
		sel, _, _ := m.selected()
		m.logv.sel = sel + delta // the selection moves with the page (logWindow clamps it)
	}
	if b >= total-1 {
		b = -1 // the newest: follow
		m.logv.sel = -1
	}
	m.logv.bottom = b
	m.logChanged()
}

// logChanged makes the next frame redraw the overlay and the rows beside it.
func (m *model) logChanged() { m.fr.invalidate() }

// logKey handles a key typed while the log is shown.
func (m *model) logKey(k keys.Key) {
	if m.logv.detail != nil {
		m.detailKey(k)
		return
	}
	page := max(m.logRowsShown()-1, 1)
	r, isRune := plainRune(k)
	switch {
	case k.Code == keys.KeyPgUp:
		m.scrollLog(-page)
	case k.Code == keys.KeyPgDn:
		m.scrollLog(page)
	case k.Code == keys.KeyUp:
		m.selectLog(-1)
	case k.Code == keys.KeyDown:
		m.selectLog(1)
	case k.Code == keys.KeyEnter && k.Mod == 0:
		m.openEntry()
	case k.Code == keys.KeyHome, isRune && r == 'g':
		_, total := m.s.Log()
		m.scrollLog(-total)
	case k.Code == keys.KeyEnd, isRune && r == 'G':
		m.logv.bottom, m.logv.sel = -1, -1
		m.logChanged()
	case k.Code == keys.KeyEscape, isRune && r == 'q':
		m.toggleLog()
	default:
		m.setHint(logHint, scopeLog, 0)
	}
}

// logMouse takes a mouse event over the shown log: the wheel scrolls it, other events
// do nothing. It reports whether the event was over the log.
func (m *model) logMouse(ev keys.Mouse) bool {
	if !m.logv.open || ev.Y < m.logv.y0 || ev.Y >= m.logv.y0+m.logv.h {
		return false
	}
	switch {
	case m.logv.detail != nil && ev.Button == keys.WheelUp:
		m.scrollDetail(-wheelLines)
	case m.logv.detail != nil && ev.Button == keys.WheelDown:
		m.scrollDetail(wheelLines)
	case ev.Button == keys.WheelUp:
		m.scrollLog(-wheelLines)
	case ev.Button == keys.WheelDown:
		m.scrollLog(wheelLines)
	}
	return true
}

// logTitle heads the relay log overlay; position says which entries are shown.
func logTitle(position string) string {
	return "relay log" + position + " · ↑↓ select · Enter opens · PgUp/PgDn g/G scroll · q, Esc or prefix r closes"
}

// overlayLog draws the relay log over the lower part of the pane area. Like the help,
// the rows beside it are redrawn clipped.
func (m *model) overlayLog(lines []string) {
	areaH := m.height - 1
	m.logv.h = 0
	if areaH < 3 || m.width < 8 {
		return
	}
	innerW := m.width - 4 // border and one column of padding each side
	if m.logv.detail != nil {
		m.overlayDetail(lines, innerW)
		return
	}
	shown, first, total, held := m.logWindow()
	sel, _, _ := m.selected()
	pos := ""
	if len(shown) > 0 && len(shown) < held {
		pos = fmt.Sprintf(" %d-%d of %d", first+1, first+len(shown), total)
	}
	rows := []string{m.st.helpTitle.Render(ansi.Truncate(logTitle(pos), innerW, "…"))}
	if len(shown) == 0 {
		rows = append(rows, "nothing yet: link panes with prefix l then a pane number, or prefix L")
	}
	rows = append(rows, m.logRows(shown, innerW, sel, first)...)
	m.drawLogBox(lines, rows, innerW)
}

// logRows renders entries (the first at index first of the log, sel selected) in w
// columns, their routes padded to the widest and their sizes right-aligned, so states
// and sizes stand in columns.
func (m *model) logRows(entries []session.Entry, w, sel, first int) []string {
	var routeW, sizeW int
	for _, e := range entries {
		if e.Delivery != 0 {
			routeW = max(routeW, ansi.StringWidth(logRoute(e)))
			sizeW = max(sizeW, len(strconv.Itoa(e.Size)))
		}
	}
	rows := make([]string, 0, len(entries))
	for i, e := range entries {
		rows = append(rows, m.logRow(e, w, first+i == sel, routeW, sizeW))
	}
	return rows
}

// logRoute is a delivery's "1 alice → 2 bob"; a sender that is no pane is named as
// history names it ("you → 2 bob" for the person's `agentmux send`, "agentmux → 2 bob"
// for a brief).
func logRoute(e session.Entry) string {
	from := fmt.Sprintf("%d %s", e.From, sanitize(e.FromName))
	if e.From == 0 {
		from = sanitize(e.FromName)
		if from == "" {
			from = "agentmux"
		}
	}
	return fmt.Sprintf("%s → %d %s", from, e.To, sanitize(e.ToName))
}

// drawLogBox draws rows in the log's box at the bottom of the pane area, the rows
// beside it redrawn clipped.
func (m *model) drawLogBox(lines, rows []string, innerW int) {
	areaH := m.height - 1
	box := strings.Split(m.st.helpBox.Width(innerW+2).Render(strings.Join(rows, "\n")), "\n")
	y0 := max(areaH-len(box), 0)
	m.logv.y0, m.logv.h = y0, min(len(box), areaH)
	var b strings.Builder
	for i, bl := range box {
		y := y0 + i
		if y >= areaH {
			break
		}
		bl = ansi.Truncate(bl, m.width, "")
		b.Reset()
		b.WriteString(bl)
		m.writeSpan(&b, y, ansi.StringWidth(bl), m.width)
		lines[y] = b.String()
	}
}

// logRow renders one entry in w columns: "15:04:05  1 alice → 2 bob  confirmed
// 120 chars  first words…", or "15:04:05  note" for a notice. Only the words (or the
// note) are cut to fit. The route is padded to routeW columns and the size to sizeW
// digits when the state still fits after them.
func (m *model) logRow(e session.Entry, w int, selected bool, routeW, sizeW int) string {
	ts := e.At.Format("15:04:05") + "  "
	if selected {
		ts = m.st.selected.Render(e.At.Format("15:04:05")) + "  "
	}
	if e.Delivery == 0 {
		st := m.st.exited
		if needsAttention(e.Note) {
			st = m.st.needsYou
		}
		return ts + st.Render(ansi.Truncate(sanitize(e.Note), max(w-ansi.StringWidth(ts), 0), "…"))
	}
	route := logRoute(e)
	state := e.Phase.String()
	if padded := route + strings.Repeat(" ", max(routeW-ansi.StringWidth(route), 0)); ansi.StringWidth(ts+padded)+2+len(state) <= w {
		route = padded
	}
	route += "  "
	pad := strings.Repeat(" ", max(stateWidth-len(state), 0)) + "  "
	words := fmt.Sprintf("%*d chars  %q", sizeW, e.Size, sanitize(e.Words))
	if e.Note != "" {
		words += " (" + sanitize(e.Note) + ")"
	}
	head := ts + route
	used := ansi.StringWidth(head)
	if used+len(state) > w {
		return ansi.Truncate(head+state, w, "…")
	}
	return head + m.phaseStyle(e.Phase).Render(state) + ansi.Truncate(pad+words, max(w-used-len(state), 0), "…")
}

// phaseStyle colours a delivery's state: queued in amber, in flight plain, confirmed
// green, failed or dropped red.
func (m *model) phaseStyle(p session.Phase) interface{ Render(...string) string } {
	switch p {
	case session.Waiting, session.WaitingPerson, session.HeldPhase:
		return m.st.busy
	case session.Confirmed:
		return m.st.running
	case session.Failed, session.Dropped:
		return m.st.needsYou
	}
	return m.st.title
}
