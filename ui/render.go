package ui

import (
	"strconv"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"github.com/agentmux/agentmux/vterm"
)

// This file turns emulator cells into the bytes the outer terminal draws: one SGR sequence
// per run of equal styles (never lipgloss per cell), exact for every attribute and colour
// form vterm stores, wide characters in two columns. Rows are cached per *vterm.Line: a
// Line in a snapshot is immutable, so an unchanged row keeps its pointer and its bytes.

// renderLine appends exactly width columns of l to b and returns it; see renderSpan.
func renderLine(b []byte, l *vterm.Line, width, x0, cursorX int, link func(uint32) string) []byte {
	return renderSpan(b, l, 0, width, x0, cursorX, link)
}

// renderSpan appends columns [from, to) of l to b and returns it. Columns past the end
// of l are blank.
//
// x0 is the outer-terminal column (0-based) of l's column 0: after characters whose
// width terminals disagree on (see unsure) a CHA sequence puts the outer cursor back on
// the column vterm counted, so such a character cannot shift the rest of the row or the
// borders. cursorX >= 0 draws the block cursor (reverse video) on that column.
// link resolves OSC 8 hyperlink ids; nil drops hyperlinks.
//
// The bytes start from, and end in, the default style with no hyperlink open.
func renderSpan(b []byte, l *vterm.Line, from, to, x0, cursorX int, link func(uint32) string) []byte {
	var cells []vterm.Cell
	if l != nil {
		cells = l.Cells
	}
	if cursorX > 0 && cursorX < len(cells) && cells[cursorX].Width == 0 {
		cursorX-- // the cursor on a wide character's right half covers the whole character
	}
	cur := vterm.Style{}
	var openLink uint32
	drift := false // an uncertain-width character was drawn since the last CHA
	col := max(from, 0)
	for col < to {
		var c vterm.Cell
		if col < len(cells) {
			c = cells[col]
		} else {
			c = vterm.Cell{Width: 1}
		}
		st := c.Style
		if col == cursorX {
			st.Attr ^= vterm.AttrReverse
		}
		if st.Link != openLink {
			if openLink != 0 {
				b = append(b, "\x1b]8;;\x1b\\"...)
				openLink = 0
			}
			if st.Link != 0 && link != nil {
				if uri := link(st.Link); uri != "" {
					b = appendLinkOpen(b, uri)
					openLink = st.Link
				}
			}
		}
		st.Link = 0
		if st.Underline == vterm.UnderlineNone {
			st.UL = vterm.DefaultColor // no underline: its colour shows nowhere
		}
		if st != cur {
			b = appendSGR(b, st, cur != vterm.Style{})
			cur = st
		}
		blank := c.Width == 0 || c.Width == 2 && col+1 >= to // drawn as a space
		sure := blank || c.Comb == "" && !unsure(c.Rune)
		if drift && sure {
			b = appendCHA(b, x0+col)
			drift = false
		}
		switch {
		case blank:
			// A wide character cut by the pane's edge, or a right half whose lead is not
			// drawn: a space keeps the columns right.
			b = append(b, ' ')
			col++
			continue
		case c.Width == 2:
			if !sure {
				// A terminal that draws it one column wide (tmux 3.3a with ❤️) leaves
				// the second as it was, as the CHA after it steps over it: erase both
				// first, in the style the character is drawn in (ECH).
				b = append(b, "\x1b[2X"...)
			}
			b = appendRune(b, c.Rune)
			b = appendComb(b, c.Comb)
			col += 2
		default:
			b = appendRune(b, c.Rune)
			b = appendComb(b, c.Comb)
			col++
		}
		switch {
		case c.Comb != "" || c.Width == 2 && !sure:
			// Emoji and combined sequences are where terminals disagree most: put the
			// cursor back where vterm counted after each one.
			b = appendCHA(b, x0+col)
			drift = false
		case !sure:
			drift = true // resynchronise once the run of uncertain characters ends
		}
	}
	if drift {
		b = appendCHA(b, x0+col)
	}
	if openLink != 0 {
		b = append(b, "\x1b]8;;\x1b\\"...)
	}
	if cur != (vterm.Style{}) {
		b = append(b, "\x1b[m"...)
	}
	return b
}

// unsure reports whether terminals may draw r at a width other than the one vterm gave
// it: the symbol blocks agents decorate with (U+2000-U+2BFF: punctuation, arrows,
// technical symbols, box drawing, shapes, dingbats), emoji, and East Asian ambiguous
// characters beyond the alphabetic scripts (private-use icons, CJK symbols). After such
// characters the row's column is restated with CHA, so a disagreement cannot shift the
// rest of the row or the borders. Alphabetic scripts below U+1100 are narrow in every
// terminal agentmux targets.
func unsure(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r >= 0x2000 && r < 0x2c00, r >= 0x1f000 && r < 0x20000:
		return true
	}
	return runewidth.IsAmbiguousWidth(r)
}

// appendRune appends r, drawing an empty cell and anything that is not printable text
// (C0/C1 controls, invalid runes) as a space, so a cell can never move the outer cursor.
func appendRune(b []byte, r rune) []byte {
	if r < 0x20 || r >= 0x7f && r < 0xa0 || !utf8.ValidRune(r) {
		return append(b, ' ')
	}
	if r < utf8.RuneSelf {
		return append(b, byte(r))
	}
	return utf8.AppendRune(b, r)
}

// appendComb appends combining marks, dropping any control character.
func appendComb(b []byte, s string) []byte {
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r < 0xa0 || r == utf8.RuneError {
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// appendCHA appends CSI n G: move to the 0-based outer column col.
func appendCHA(b []byte, col int) []byte {
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(col+1), 10)
	return append(b, 'G')
}

// appendLinkOpen appends an OSC 8 hyperlink opener for uri (a pane's program chose it).
// A URI is printable ASCII: control bytes are dropped, so it cannot end the sequence
// early, and a space or any byte from 0x80 up is percent-encoded, as a URI writes it, so
// no C1 control (U+0080-U+009F in UTF-8, which some terminals obey) reaches the
// person's terminal either.
func appendLinkOpen(b []byte, uri string) []byte {
	const hex = "0123456789ABCDEF"
	b = append(b, "\x1b]8;;"...)
	for i := 0; i < len(uri); i++ {
		switch c := uri[i]; {
		case c < 0x20 || c == 0x7f:
		case c == ' ' || c >= 0x80:
			b = append(b, '%', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, "\x1b\\"...)
}

// appendSGR appends the SGR sequence that selects s (vterm.Style.AppendSGR, the one
// encoder). When fromStyled is true the previous run had a non-default style, so the
// sequence opens with a reset (0); a default s is just a reset.
func appendSGR(b []byte, s vterm.Style, fromStyled bool) []byte {
	if s == (vterm.Style{}) {
		return append(b, "\x1b[m"...)
	}
	b = append(b, "\x1b["...)
	if fromStyled {
		b = append(b, "0;"...)
	}
	n := len(b)
	if b = s.AppendSGR(b); len(b) == n && fromStyled {
		b = b[:n-1] // a style of a hyperlink only: the reset alone
	}
	return append(b, 'm')
}

// lineCache keeps the rendered bytes of one pane's rows keyed by *vterm.Line, so a row
// that did not change since the last rebuild (even if it moved, as when the screen
// scrolls) is not rendered again. Two maps alternate: rows used in a rebuild survive into
// the next one, the rest are dropped. Owned by the ui goroutine.
type lineCache struct {
	width, x0 int
	link      func(uint32) string
	cur, next map[*vterm.Line]string
	buf       []byte
}

// reset empties the cache when the geometry (width or start column) changes.
func (c *lineCache) reset(width, x0 int, link func(uint32) string) {
	if c.cur == nil {
		c.cur = make(map[*vterm.Line]string)
		c.next = make(map[*vterm.Line]string)
	}
	if c.width != width || c.x0 != x0 {
		clear(c.cur)
		clear(c.next)
	}
	c.width, c.x0, c.link = width, x0, link
}

// row returns the rendered bytes of l; cursorX >= 0 draws the cursor, and such rows are
// not cached (they change with every cursor move).
func (c *lineCache) row(l *vterm.Line, cursorX int) string {
	if cursorX < 0 && l != nil {
		if s, ok := c.cur[l]; ok {
			c.next[l] = s
			return s
		}
		if s, ok := c.next[l]; ok {
			return s
		}
	}
	c.buf = renderLine(c.buf[:0], l, c.width, c.x0, cursorX, c.link)
	s := string(c.buf)
	if cursorX < 0 && l != nil {
		c.next[l] = s
	}
	return s
}

// endRebuild closes one rebuild: only the rows it used stay cached.
func (c *lineCache) endRebuild() {
	c.cur, c.next = c.next, c.cur
	clear(c.next)
}
