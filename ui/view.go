package ui

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/tty"
	"github.com/agentmux/agentmux/vterm"
)

// View returns the whole screen: exactly height lines of exactly width columns, panes
// with their borders and the status line. It is called after every message, so it
// returns the cached frame unless something visible changed, and then rebuilds only the
// rows of panes whose snapshot, size, focus or scroll position changed. With a screen
// writer attached (the real program, where bubbletea renders nothing) it builds the
// rows for the writer and returns "".
func (m *model) View() string {
	if m.fr.current() {
		return m.frame
	}
	for _, pr := range m.rects {
		if v := m.views[pr.Pane]; v != nil && v.stale {
			m.buildRows(pr.Pane, v)
		}
	}
	lines := make([]string, m.height)
	var b strings.Builder
	for y := 0; y < m.height-1; y++ {
		b = strings.Builder{}
		b.Grow(m.lineCap)
		m.writeSpan(&b, y, 0, m.width)
		lines[y] = b.String()
		m.lineCap = max(m.lineCap, b.Len())
	}
	lines[m.height-1] = m.statusLine()
	if m.mode == modeHelp {
		m.overlayHelp(lines)
	} else if m.diffv != nil {
		m.overlayDiff(lines)
	} else if m.logv.open {
		m.overlayLog(lines)
	}
	m.frameLines = lines
	m.cursor = m.outerCursor()
	m.fr.composed()
	m.frame = ""
	if m.scr == nil { // tests read the frame; the program draws frameLines itself
		m.frame = strings.Join(lines, "\n")
	}
	return m.frame
}

// present hands the current frame to the screen writer when it changed since the last
// one it was given (tests run without a writer and read View).
func (m *model) present() {
	if m.scr == nil {
		return
	}
	m.View()
	if m.fr.unshown() {
		m.scr.Present(m.frameLines, m.width, m.height, m.cursor)
	}
}

// outerCursor is where the outer terminal's cursor goes: where the focused pane's
// program has it, in its shape (DECSCUSR), so IME popups and screen readers follow it;
// in scroll mode, on the copy cursor (a steady block). It is hidden when the program
// hid it, while the pane is exited, an overlay (help, relay log) or a question is
// shown, or when it falls outside the pane's content area.
func (m *model) outerCursor() tty.Cursor {
	v := m.focused()
	if v == nil || v.snap == nil || m.mode == modeHelp || m.mode == modeConfirm || m.logv.open || m.diffv != nil {
		return tty.Cursor{}
	}
	if s := v.scroll; s != nil {
		y := s.cur.row - s.top
		if y < 0 || y >= int64(v.content.H) || s.cur.col >= v.content.W {
			return tty.Cursor{}
		}
		return tty.Cursor{X: v.content.X + s.cur.col, Y: v.content.Y + int(y), Visible: true, Shape: int(vterm.CursorBlock)}
	}
	if v.exited() {
		return tty.Cursor{}
	}
	cur := v.snap.Cursor
	if !cur.Visible || cur.X < 0 || cur.Y < 0 || cur.X >= v.content.W || cur.Y >= v.content.H {
		return tty.Cursor{}
	}
	x := cur.X
	if cur.Y < len(v.snap.Lines) {
		if l := v.snap.Lines[cur.Y]; l != nil && x > 0 && x < len(l.Cells) && l.Cells[x].Width == 0 {
			x-- // on a wide character's right half: its left column
		}
	}
	return tty.Cursor{X: v.content.X + x, Y: v.content.Y + cur.Y, Visible: true, Shape: int(cur.Shape)}
}

// buildRows renders a pane's content rows from its snapshot (or its scroll view),
// reusing cached rows for lines that did not change.
func (m *model) buildRows(id int, v *paneView) {
	v.stale = false
	c := v.content
	if v.snap == nil {
		v.rows, v.lines = v.rows[:0], v.lines[:0]
		return
	}
	v.cache.reset(c.W, c.X, v.screen.Link)
	lines := v.snap.Lines
	if v.scroll != nil {
		// history dropped at the top, or taken back by a taller screen at the bottom,
		// can leave the view's top outside what is held
		oldest, bottom := scrollBounds(v)
		v.scroll.top = min(max(v.scroll.top, oldest), bottom)
		lines = scrollLines(v, c.H)
	}
	v.rows = resize(v.rows, c.H)
	v.lines = resize(v.lines, c.H)
	for r := range c.H {
		var l *vterm.Line
		if r < len(lines) {
			l = lines[r]
		}
		if v.scroll != nil {
			if from, to, ok := markRow(v.scroll, v.scroll.top+int64(r), c.W); ok {
				// selected or matched: drawn on its own, never cached
				l = highlighted(l, from, to, c.W)
				v.lines[r] = l
				v.rows[r] = string(renderLine(nil, l, c.W, c.X, -1, v.screen.Link))
				continue
			}
		}
		v.lines[r] = l
		v.rows[r] = v.cache.row(l, -1) // the real cursor is the outer terminal's (outerCursor)
	}
	v.cache.endRebuild()
}

// resize returns s with length n, reusing its storage.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// writeSpan writes columns [from, to) of screen row y of the pane area.
func (m *model) writeSpan(b *strings.Builder, y, from, to int) {
	x := from
	for _, pr := range m.rects {
		r := pr.R
		if y < r.Y || y >= r.Y+r.H || r.X+r.W <= from || r.X >= to {
			continue
		}
		a, e := max(r.X, from), min(r.X+r.W, to)
		if a > x {
			b.WriteString(strings.Repeat(" ", a-x))
		}
		m.writePaneSpan(b, pr, y, a, e)
		x = e
	}
	if x < to {
		b.WriteString(strings.Repeat(" ", to-x))
	}
}

// writePaneSpan writes columns [a, e) of pane pr's row y: border or content.
func (m *model) writePaneSpan(b *strings.Builder, pr paneRect, y, a, e int) {
	r := pr.R
	v := m.views[pr.Pane]
	if v == nil || r.W < 2 || r.H < 2 {
		b.WriteString(strings.Repeat(" ", e-a))
		return
	}
	full := a == r.X && e == r.X+r.W
	focused := pr.Pane == m.focus
	if y == r.Y || y == r.Y+r.H-1 {
		m.borders(pr.Pane, v, r.W, focused)
		s := v.bottom
		if y == r.Y {
			s = v.top
		}
		if !full {
			s = ansi.Cut(s, a-r.X, e-r.X)
		}
		b.WriteString(s)
		return
	}
	bar := m.st.vbar
	if focused {
		bar = m.st.vbarFocus
	}
	if a == r.X {
		b.WriteString(bar)
	}
	row := y - r.Y - 1
	c := v.content
	ca, ce := max(a, c.X), min(e, c.X+c.W)
	switch {
	case ce <= ca:
	case row >= len(v.rows):
		b.WriteString(strings.Repeat(" ", ce-ca))
	case ca == c.X && ce == c.X+c.W:
		b.WriteString(v.rows[row])
	default:
		b.Write(renderSpan(nil, v.lines[row], ca-c.X, ce-c.X, c.X, -1, v.screen.Link))
	}
	if e == r.X+r.W {
		b.WriteString(bar)
	}
}

// borders refreshes a pane's cached top and bottom border rows when its width, title,
// state or focus changed.
func (m *model) borders(id int, v *paneView, w int, focused bool) {
	state, kind := borderState(v.member, m.s.AddressAll())
	if m.sync && !v.exited() {
		state = "SYNC · " + state
	}
	// Where it runs and how it was restored: after the state, only when they fit.
	var after []string
	if f := folderLabel(v); f != "" {
		after = append(after, sanitize(f))
	}
	if r := v.member.Restored; r != "" {
		after = append(after, sanitize(r))
	}
	key := borderKey{w: w, focused: focused, name: v.member.Name, state: state, after: strings.Join(after, " · "), kind: kind, bell: v.bell && !focused}
	if v.snap != nil {
		key.ptitle = v.snap.Title
	}
	if key == v.borderKey && v.top != "" {
		return
	}
	v.borderKey = key
	title := fmt.Sprintf("%d %s", id, sanitize(v.member.Name))
	v.top = m.st.topBorder(w, title, state, key.after, focused, kind, key.bell, sanitize(key.ptitle))
	v.bottom = m.st.bottomBorder(w, focused)
}

// statusLine draws the bottom line: the prefix hint, the mode, and a message or a
// question, padded to the full width.
func (m *model) statusLine() string {
	w := m.width
	sp := m.st.paints
	if m.mode == modeConfirm && m.confirm != nil {
		text := ansi.Truncate(" "+sanitize(m.confirm.prompt)+" ", w, "")
		return sp.prompt.wrap(text) + sp.status.wrap(strings.Repeat(" ", max(w-ansi.StringWidth(text), 0)))
	}
	var parts []string
	used := 0
	add := func(text string, st paint) {
		if used >= w || text == "" {
			return
		}
		text = ansi.Truncate(sanitize(text), w-used, "")
		used += ansi.StringWidth(text)
		parts = append(parts, st.wrap(text))
	}
	pl := prefixLabel(m.cfg.PrefixSpec)
	add(" "+pl+" ", sp.statusKey)
	add(" ? help ", sp.status)
	if m.cfg.Session != "" {
		add(" ["+m.cfg.Session+"] ", sp.status)
	}
	if m.att.readOnly {
		add(" read-only ", sp.statusMode)
	}
	if m.relaySum != "" {
		add(" "+m.relaySum+" ", sp.statusRelay)
	}
	if m.cfg.Web != nil {
		if w := m.cfg.Web(); w != "" {
			add(" "+w+" ", sp.statusRelay)
		}
	}
	if m.s.AddressAll() { // on for every pane, so no border repeats it
		add(" addressing: all panes ", sp.statusRelay)
	}
	switch {
	case m.mode == modePrefix:
		add(" PREFIX ", sp.statusMode)
	case m.mode == modeLink:
		add(" LINK ", sp.statusMode)
	case m.mode == modeHelp:
		add(" HELP ", sp.statusMode)
	case m.mode == modePrompt:
		add(" PROMPT ", sp.statusMode)
		add(m.promptLine(), sp.statusMsg)
	case m.mode == modeSearch:
		add(" SEARCH ", sp.statusMode)
		add(" / "+m.searchBuf+"▏ Enter searches older rows, Esc cancels", sp.statusMsg)
	}
	if v := m.focused(); v != nil && v.scroll != nil {
		add(" "+scrollLabel(v)+" ", sp.statusMode)
	}
	if m.zoomed {
		add(" ZOOM ", sp.statusMode)
	}
	if st := m.statusText(); st != "" {
		add(" "+st, sp.statusMsg)
	}
	if used < w {
		parts = append(parts, sp.status.wrap(strings.Repeat(" ", w-used)))
	}
	return strings.Join(parts, "")
}

// sanitize drops what a terminal would obey or not show (Invisible) from text
// agentmux itself shows that programs chose (pane titles, names, notes, questions), so
// nothing in it can act on the terminal or turn the rest of a border row around.
func sanitize(s string) string {
	if strings.IndexFunc(s, Invisible) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if Invisible(r) {
			return -1
		}
		return r
	}, s)
}

// Invisible reports whether a terminal would obey r rather than show it, or show
// nothing: a C0 or C1 control or DEL, a format character (bidi overrides and isolates,
// zero-width ones, tags; the zero-width joiner of emoji sequences excepted) and the line
// and paragraph separators. The one rule for text programs chose that agentmux shows:
// the screen drops these characters (sanitize, oscText), the client commands escape
// them (cmd/agentmux's visible).
func Invisible(r rune) bool {
	switch {
	case r < 0x20 || r >= 0x7f && r < 0xa0:
		return true
	case r < 0x7f || r == 0x200d:
		return false
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r)
}
