package web

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/vterm"
)

// A pane's picture goes to the page as terminal text its xterm draws: on connect (or
// after a resize) the last HistoryOnConnect lines of history pushed into its
// scrollback, then every row; after that only the rows whose Line changed (vterm keeps
// an unchanged row's pointer from one snapshot to the next), with the lines that
// scrolled into history pushed first by scrolling the page's terminal as many lines.
// Every frame ends with the cursor and the modes keys depend on.

// HistoryOnConnect is how many lines of a pane's history a page gets when it opens.
const HistoryOnConnect = 1000

// FloodLines is the most lines that scrolled into history one frame pushes into the
// page's scrollback. Past it (a flood: cat of a large log) the page gets the newest
// FloodLines and a line saying how many it skipped: encoding every line would hold the
// emulator's lock and the machine's cores for a picture nobody can read at that speed.
const FloodLines = 100

// frameScreen is the first byte of a binary frame: a pane's picture. The header is
// the byte, the pane (uint16), cols and rows (uint16 each), a flag byte (1: the page's
// terminal is reset first), then the terminal text.
const frameScreen = 'S'

// paneView is what one page's terminal of one pane shows now.
type paneView struct {
	screen *session.Screen // the pane's picture (page.go)
	// flood is the most scrolled lines pushed in one frame (0: FloodLines).
	flood      int
	lines      []*vterm.Line
	top        int64 // the absolute number of the first row (session.Screen.ScreenTop)
	cols, rows int
	alt        bool
	cursor     vterm.Cursor
	modes      vterm.Modes
	seq        uint64
	drawn      bool
}

// picture is what a pane's view is drawn from: *session.Screen (and *vterm.Terminal,
// which tests use as it is).
type picture interface {
	Snapshot() *vterm.Snapshot
	ScreenTop() int64
	HistoryLines(start, n int) []*vterm.Line
}

var _ picture = (*session.Screen)(nil)

// read takes a snapshot and the screen's top that go together (the top read before
// and after agree); ok is false when output kept moving it.
func read(sc picture) (snap *vterm.Snapshot, top int64, ok bool) {
	for range 3 {
		t1 := sc.ScreenTop()
		snap = sc.Snapshot()
		if t2 := sc.ScreenTop(); t1 == t2 {
			return snap, t1, true
		}
	}
	return snap, sc.ScreenTop(), false
}

// frame brings v up to sc's picture and returns the binary frame that does the same to
// the page's terminal (nil when nothing changed).
func (v *paneView) frame(pane int, sc picture) []byte {
	snap, top, consistent := read(sc)
	if v.drawn && snap.Seq == v.seq && top == v.top {
		return nil
	}
	reset := !v.drawn || snap.Cols != v.cols || snap.Rows != v.rows
	b := make([]byte, 8, 256)
	b[0] = frameScreen
	binary.BigEndian.PutUint16(b[1:], uint16(pane))
	binary.BigEndian.PutUint16(b[3:], uint16(snap.Cols))
	binary.BigEndian.PutUint16(b[5:], uint16(snap.Rows))
	b = append(b, "\x1b[?25l\x1b[0m"...)
	var old []*vterm.Line // old[y]: what row y of the page's terminal shows now
	switch {
	case reset:
		b[7] = 1
		b = append(b, "\x1b[H\x1b[2J\x1b[3J"...)
		if !snap.AltScreen {
			n := min(snap.HistoryLen, HistoryOnConnect)
			b = pushLines(b, sc.HistoryLines(snap.HistoryLen-n, n), snap.Rows)
		}
		v.modes = vterm.Modes{}
	case snap.AltScreen != v.alt || !consistent || top < v.top:
		// A switch of screens, or history we cannot follow: redraw every row.
	case top > v.top && !snap.AltScreen:
		// k lines scrolled into history. The rows that left are written as history has
		// them (output may have changed them before they left), then pushed into the
		// page's scrollback by scrolling as many lines.
		k := top - v.top
		flood := v.flood
		if flood <= 0 {
			flood = FloodLines
		}
		n := int(min(k, int64(flood), int64(snap.HistoryLen)))
		lines := sc.HistoryLines(snap.HistoryLen-n, n)
		if skipped := k - int64(n); skipped > 0 {
			lines = append([]*vterm.Line{skippedLine(skipped, snap.Cols)}, lines...)
		}
		if k < int64(v.rows) && n == int(k) {
			for y, l := range lines {
				b = appendRowAt(b, y, l)
			}
			b = append(b, "\x1b["...)
			b = strconv.AppendInt(b, int64(v.rows), 10)
			b = append(b, ";1H"...)
			for range k {
				b = append(b, '\n')
			}
			old = v.lines[k:]
		} else {
			b = pushLines(b, lines, snap.Rows)
		}
	default:
		old = v.lines
	}
	for y, l := range snap.Lines {
		if y < len(old) && old[y] == l {
			continue
		}
		b = appendRowAt(b, y, l)
	}
	b = appendModes(b, v.modes, snap.Modes, reset)
	b = appendCursor(b, snap.Cursor)
	v.lines, v.top, v.cols, v.rows = snap.Lines, top, snap.Cols, snap.Rows
	v.alt, v.cursor, v.modes, v.seq, v.drawn = snap.AltScreen, snap.Cursor, snap.Modes, snap.Seq, true
	return b
}

// skippedLine is the dim line that stands in the page's scrollback for n lines a
// flood scrolled by (the session's history, agentmux capture, still has them).
func skippedLine(n int64, cols int) *vterm.Line {
	text := []rune(fmt.Sprintf("⋯ %d lines scrolled by faster than this page is drawn (agentmux capture --lines has them)", n))
	l := &vterm.Line{Cells: make([]vterm.Cell, max(cols, 1))}
	for i := range l.Cells {
		l.Cells[i] = vterm.Cell{Width: 1, Style: vterm.Style{Attr: vterm.AttrDim}}
		if i < len(text) {
			l.Cells[i].Rune = text[i]
		}
	}
	return l
}

// appendRowAt redraws row y (from 0) with l.
func appendRowAt(b []byte, y int, l *vterm.Line) []byte {
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(y+1), 10)
	b = append(b, ";1H\x1b[2K"...)
	return appendRow(b, l)
}

// pushLines writes lines from the top of a screen of rows rows, each on a row it
// erases first, then scrolls until all of them are in the terminal's scrollback. The
// rows below them keep what they had: the caller redraws every row next.
func pushLines(b []byte, lines []*vterm.Line, rows int) []byte {
	if len(lines) == 0 {
		return b
	}
	b = append(b, "\x1b[H"...)
	for _, l := range lines {
		b = append(b, "\x1b[2K"...)
		b = appendRow(b, l)
		b = append(b, "\r\n"...)
	}
	for range rows - 1 {
		b = append(b, '\n')
	}
	return append(b, "\x1b[H"...)
}

// appendRow appends a row's text with its styles as SGR, from and back to the default
// style; trailing default blanks are left out (the row was erased before).
func appendRow(b []byte, l *vterm.Line) []byte {
	if l == nil {
		return b
	}
	cells := l.Cells
	for len(cells) > 0 {
		c := cells[len(cells)-1]
		if (c.Rune != 0 && c.Rune != ' ') || c.Style != (vterm.Style{}) {
			break
		}
		cells = cells[:len(cells)-1]
	}
	cur := vterm.Style{}
	for _, c := range cells {
		if c.Width == 0 {
			continue
		}
		if st := c.Style; st.FG != cur.FG || st.BG != cur.BG || st.UL != cur.UL || st.Attr != cur.Attr || st.Underline != cur.Underline {
			b = append(b, "\x1b[0"...)
			if p := st.AppendSGR(nil); len(p) > 0 {
				b = append(b, ';')
				b = append(b, p...)
			}
			b = append(b, 'm')
			cur = st
		}
		b = appendCell(b, c)
	}
	if cur != (vterm.Style{}) {
		b = append(b, "\x1b[0m"...)
	}
	return b
}

// appendCell appends a cell's text; control characters never reach the page's
// terminal (the emulator holds none, this is belt and braces).
func appendCell(b []byte, c vterm.Cell) []byte {
	r := c.Rune
	if r == 0 {
		return append(b, ' ')
	}
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
		return append(b, ' ')
	}
	b = utf8.AppendRune(b, r)
	return append(b, c.Comb...)
}

// appendModes sets the modes that change what the page's keys send (cursor keys,
// keypad, bracketed paste) where they differ from what the page has.
func appendModes(b []byte, was, now vterm.Modes, all bool) []byte {
	set := func(on bool, code string) {
		b = append(b, "\x1b[?"...)
		b = append(b, code...)
		if on {
			b = append(b, 'h')
		} else {
			b = append(b, 'l')
		}
	}
	if all || was.AppCursor != now.AppCursor {
		set(now.AppCursor, "1")
	}
	if all || was.BracketedPaste != now.BracketedPaste {
		set(now.BracketedPaste, "2004")
	}
	if all || was.AppKeypad != now.AppKeypad {
		if now.AppKeypad {
			b = append(b, "\x1b="...)
		} else {
			b = append(b, "\x1b>"...)
		}
	}
	return b
}

// appendCursor places the cursor, sets its shape and shows it when the program does.
func appendCursor(b []byte, c vterm.Cursor) []byte {
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(c.Y+1), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(c.X+1), 10)
	b = append(b, 'H')
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(c.Shape), 10)
	b = append(b, " q"...)
	if c.Visible {
		b = append(b, "\x1b[?25h"...)
	}
	return b
}
