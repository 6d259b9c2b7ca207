package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// This file is one relay log entry opened whole (Enter on the log's selected entry): a
// box over the pane area with the entry's head (time, route, state, size, note) and its
// whole text (Entry.Body: a delivery's words as typed, which the log's rows cut with …),
// wrapped to the box, scrolled with the arrows, PgUp/PgDn, g/G and the wheel; q or Esc
// goes back to the log, prefix r closes both.

// detailLines returns the open entry's text as rows of at most w columns.
func detailLines(e *session.Entry, w int) []string {
	text := e.Body
	if text == "" {
		text = e.Note
		if e.Delivery != 0 {
			text = e.Words
		}
	}
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		l = sanitize(strings.ReplaceAll(l, "\t", "    "))
		if l == "" {
			out = append(out, "")
			continue
		}
		out = append(out, strings.Split(ansi.Hardwrap(l, max(w, 1), true), "\n")...)
	}
	return out
}

// detailHead is the open entry's head: "delivery 3 · 15:04:05 · 1 alice → 2 bob ·
// confirmed · 120 chars", and its note.
func detailHead(e *session.Entry) string {
	ts := e.At.Format("15:04:05")
	if e.Delivery == 0 {
		head := "notice · " + ts
		if e.Kind != "" {
			head = fmt.Sprintf("%s · %s · %d %s → %d %s", e.Kind, ts, e.From, e.FromName, e.To, e.ToName)
		}
		return sanitize(head)
	}
	head := fmt.Sprintf("delivery %d · %s · %s · %s · %d chars", e.Delivery, ts, logRoute(*e), e.Phase, e.Size)
	if e.Note != "" {
		head += " · " + e.Note
	}
	return sanitize(head)
}

// detailRowsShown is how many text rows the open entry's box has room for: the pane
// area less the box's border, the head and the position row.
func (m *model) detailRowsShown() int { return max(m.height-1-4, 1) }

// scrollDetail moves the open entry's text by delta rows (overlayDetail clamps it).
func (m *model) scrollDetail(delta int) {
	m.logv.detailTop += delta
	m.logChanged()
}

// detailKey handles a key while an entry is open whole.
func (m *model) detailKey(k keys.Key) {
	page := max(m.detailRowsShown()-1, 1)
	r, isRune := plainRune(k)
	switch {
	case k.Code == keys.KeyPgUp:
		m.scrollDetail(-page)
	case k.Code == keys.KeyPgDn, isRune && r == ' ':
		m.scrollDetail(page)
	case k.Code == keys.KeyUp:
		m.scrollDetail(-1)
	case k.Code == keys.KeyDown:
		m.scrollDetail(1)
	case k.Code == keys.KeyHome, isRune && r == 'g':
		m.logv.detailTop = 0
		m.logChanged()
	case k.Code == keys.KeyEnd, isRune && r == 'G':
		m.scrollDetail(1 << 30)
	case isEscape(k), isRune && r == 'q':
		m.logv.detail = nil
		m.logChanged()
	default:
		m.setHint(detailHint, scopeDetail, 0)
	}
}

// overlayDetail draws the open entry over the pane area.
func (m *model) overlayDetail(lines []string, innerW int) {
	e := m.logv.detail
	text := detailLines(e, innerW)
	n := min(m.detailRowsShown(), len(text))
	m.logv.detailTop = min(max(m.logv.detailTop, 0), max(len(text)-n, 0))
	top := m.logv.detailTop
	rows := []string{m.st.helpTitle.Render(ansi.Truncate(detailHead(e), innerW, "…"))}
	rows = append(rows, text[top:top+n]...)
	pos := fmt.Sprintf("rows %d-%d of %d · ↑↓ PgUp/PgDn g/G scroll · q or Esc: back to the log", top+1, top+n, len(text))
	if n == len(text) {
		pos = "q or Esc: back to the log"
	}
	rows = append(rows, m.st.exited.Render(ansi.Truncate(pos, innerW, "…")))
	m.drawLogBox(lines, rows, innerW)
}
