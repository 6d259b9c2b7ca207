package vterm

import (
	"encoding/binary"
	"unicode/utf8"
)

// This file is the encoding of a history line (history.go keeps them). A row is encoded
// as its text (one UTF-8 rune per cell; 0x00 for an empty cell, 0xFF for the continuation
// half of a wide character), then its style runs (a cell count and the fields of the
// style that are set), then its rare combining marks (cell, length, bytes), with trailing
// default blanks dropped. An ordinary 80-column line is 80 bytes instead of 80 cells of
// 48 bytes; a styled line costs 3 to 24 bytes more per style run.

const (
	encEmpty = 0x00
	encCont  = 0xFF
)

var le = binary.LittleEndian

// hview is one held history line's encoding: its text, style runs (none: every cell has
// the default style) and marks, and the row's width and soft-wrap flag.
type hview struct {
	text, runs, comb []byte
	cols             int
	wrapped          bool
}

// encScratch is reused by every encode: the parts of a line before they are stored.
type encScratch struct {
	text, runs, comb []byte
}

// encode encodes cells, returning the parts in sc's buffers (valid until the next
// encode). The cells of the row's encoded prefix pre (nil: none) are copied from it, not
// read.
func (sc *encScratch) encode(cells []Cell, pre *prefix) (text, runs, comb []byte) {
	if pre != nil && pre.cells == len(cells) && len(cells) > 0 {
		// The prefix is the whole used row (a line printed from its start, as most
		// are): its text and marks are the line's; no blank trails its last cell,
		// which was printed, so no cell is read.
		sc.runs = spanRuns(sc.runs[:0], pre.spans, len(cells))
		return pre.text, sc.runs, pre.comb
	}
	end := len(cells)
	for end > 0 {
		c := &cells[end-1]
		if c.Rune != 0 || c.Width != 1 || c.Style != (Style{}) || c.Comb != "" {
			break
		}
		end--
	}
	cells = cells[:end]
	text = sc.text[:0]
	if cap(text) < end*utf8.UTFMax {
		text = make([]byte, 0, end*utf8.UTFMax)
	}
	runs, comb = sc.runs[:0], sc.comb[:0]
	var cur Style
	start := 0 // the first cell of the current style run
	x := 0
	if pre != nil && pre.cells <= end { // never past the end: its cells are not blanks
		x = pre.cells
		text = append(text, pre.text...)
		comb = append(comb, pre.comb...)
		for _, sp := range pre.spans {
			if sp.st != cur {
				if int(sp.start) > start {
					runs = appendRun(runs, int(sp.start)-start, &cur)
				}
				cur, start = sp.st, int(sp.start)
			}
		}
	}
	for ; x < len(cells); x++ {
		// the hot loop: a cell of one byte (ASCII or empty) in the style of the run, tested
		// with one branch
		fg, bg, ul, link := uint32(cur.FG), uint32(cur.BG), uint32(cur.UL), cur.Link
		attr := uint32(cur.Attr) | uint32(cur.Underline)<<16
		n := len(text)
		text = text[:cap(text)]
		for ; x < len(cells); x++ {
			c := &cells[x]
			// (^ and | bind alike in Go, left to right: each difference is parenthesised.)
			d := (uint32(c.Style.FG) ^ fg) | (uint32(c.Style.BG) ^ bg) | (uint32(c.Style.UL) ^ ul) | (c.Style.Link ^ link) |
				((uint32(c.Style.Attr) | uint32(c.Style.Underline)<<16) ^ attr) |
				uint32(c.Rune)>>7 | uint32(c.Width^1) | uint32(len(c.Comb))
			if d != 0 {
				break
			}
			text[n] = byte(c.Rune) // an empty cell (rune 0) is encEmpty
			n++
		}
		text = text[:n]
		if x == len(cells) {
			break
		}
		c := &cells[x]
		if c.Style != cur {
			if x > start {
				runs = appendRun(runs, x-start, &cur)
			}
			cur, start = c.Style, x
		}
		switch {
		case c.Width == 0:
			text = append(text, encCont)
		case c.Rune < utf8.RuneSelf:
			text = append(text, byte(c.Rune))
		default:
			text = utf8.AppendRune(text, c.Rune)
		}
		if c.Comb != "" {
			comb = le.AppendUint16(comb, uint16(x))
			comb = append(comb, byte(len(c.Comb)))
			comb = append(comb, c.Comb...)
		}
	}
	if end > start && (len(runs) > 0 || cur != (Style{})) {
		runs = appendRun(runs, end-start, &cur)
	}
	sc.text, sc.runs, sc.comb = text, runs, comb
	return text, runs, comb
}

// spanRuns appends to runs the style runs of a prefix of n cells with spans: none
// when all are in the default style.
func spanRuns(runs []byte, spans []span, n int) []byte {
	var cur Style
	start := 0
	for _, sp := range spans {
		if sp.st != cur {
			if int(sp.start) > start {
				runs = appendRun(runs, int(sp.start)-start, &cur)
			}
			cur, start = sp.st, int(sp.start)
		}
	}
	if n > start && (len(runs) > 0 || cur != (Style{})) {
		runs = appendRun(runs, n-start, &cur)
	}
	return runs
}

// A style run is encoded as its cell count (2 bytes), a byte saying which fields of its
// style are set, and those fields: FG, BG, UL and Link (4 bytes each), Attr (2) and
// Underline (1). A run in the default style takes 3 bytes, one with a colour 7.
const (
	runFG = 1 << iota
	runBG
	runUL
	runLink
	runAttr
	runUnderline
)

// appendRun appends the encoding of a run of n cells of style st to b.
func appendRun(b []byte, n int, st *Style) []byte {
	b = le.AppendUint16(b, uint16(n))
	at := len(b)
	b = append(b, 0)
	var set byte
	if st.FG != 0 {
		set |= runFG
		b = le.AppendUint32(b, uint32(st.FG))
	}
	if st.BG != 0 {
		set |= runBG
		b = le.AppendUint32(b, uint32(st.BG))
	}
	if st.UL != 0 {
		set |= runUL
		b = le.AppendUint32(b, uint32(st.UL))
	}
	if st.Link != 0 {
		set |= runLink
		b = le.AppendUint32(b, st.Link)
	}
	if st.Attr != 0 {
		set |= runAttr
		b = le.AppendUint16(b, uint16(st.Attr))
	}
	if st.Underline != 0 {
		set |= runUnderline
		b = append(b, byte(st.Underline))
	}
	b[at] = set
	return b
}

// nextRun decodes the first run of b, which must not be empty, and returns the rest.
func nextRun(b []byte) (n int, st Style, rest []byte) {
	n = int(le.Uint16(b))
	set := b[2]
	b = b[3:]
	if set&runFG != 0 {
		st.FG, b = Color(le.Uint32(b)), b[4:]
	}
	if set&runBG != 0 {
		st.BG, b = Color(le.Uint32(b)), b[4:]
	}
	if set&runUL != 0 {
		st.UL, b = Color(le.Uint32(b)), b[4:]
	}
	if set&runLink != 0 {
		st.Link, b = le.Uint32(b), b[4:]
	}
	if set&runAttr != 0 {
		st.Attr, b = Attr(le.Uint16(b)), b[2:]
	}
	if set&runUnderline != 0 {
		st.Underline, b = Underline(b[0]), b[1:]
	}
	return n, st, b
}

// nextComb decodes the first mark of b, which must not be empty, and returns the rest.
func nextComb(b []byte) (x int, s, rest []byte) {
	x = int(le.Uint16(b))
	n := int(b[2])
	return x, b[3 : 3+n], b[3+n:]
}

// decode returns the line as exactly cols cells.
func (h hview) decode(cols int) []Cell {
	cells := make([]Cell, cols)
	copy(cells, blankRow)
	text, runs := h.text, h.runs
	left := cols // an unstyled line is one run of default cells
	var st Style
	if len(runs) > 0 {
		left, st, runs = nextRun(runs)
	}
	x, i := 0, 0
	for i < len(text) && x < cols {
		if left == 0 {
			// the next run; the last one covers the rest of the text
			if len(runs) > 0 {
				left, st, runs = nextRun(runs)
			} else {
				left = cols
			}
			continue
		}
		// the cells of one style run; cells are default blanks to start with
		for ; left > 0 && i < len(text) && x < cols; x++ {
			c := &cells[x]
			c.Style = st
			left--
			b := text[i]
			switch {
			case b < utf8.RuneSelf:
				c.Rune = rune(b) // encEmpty is rune 0
				i++
			case b == encCont:
				c.Width = 0
				i++
			default:
				r, size := utf8.DecodeRune(text[i:])
				c.Rune = r
				i += size
			}
		}
	}
	// restore wide leads; a half cut off by a narrower screen becomes a blank
	for j := range cells[:x] {
		if cells[j].Width != 0 {
			continue
		}
		if j > 0 && cells[j-1].Rune != 0 && cells[j-1].Width == 1 {
			cells[j-1].Width = 2
		} else {
			cells[j] = blankCell(cells[j].Style.BG)
		}
	}
	if i < len(text) && text[i] == encCont && cells[cols-1].Width == 1 {
		cells[cols-1] = blankCell(cells[cols-1].Style.BG)
	}
	for cb := h.comb; len(cb) > 0; {
		var cx int
		var s []byte
		cx, s, cb = nextComb(cb)
		if cx < cols && cells[cx].Width != 0 {
			cells[cx].Comb = string(s)
		}
	}
	return cells
}

// appendText appends the plain text of the line: wide characters once, empty cells as spaces.
// A line that does not wrap loses its trailing blanks; a soft-wrapped one keeps them
// (they are part of the joined line), except the blank left in the last column when a
// wide character wrapped (padEnd: the next row starts with a wide character). With
// see, cells the person cannot see (concealed, or one colour on itself) are blank: a
// space for each column they take.
func (h hview) appendText(b []byte, padEnd bool, see *sight) []byte {
	start := len(b)
	text := h.text
	cb := h.comb
	nextX := -1 // the cell of the next combining mark
	var mark []byte
	if len(cb) > 0 {
		nextX, mark, cb = nextComb(cb)
	}
	runs := h.runs
	seen := see != nil && len(runs) > 0 // unstyled: default on default, as the screen shows it
	left := 0                           // cells of the current style run after cell x
	var st Style
	x := 0
	lastBlank := false
	for i := 0; i < len(text); x++ {
		c := text[i]
		lastBlank = false
		if seen {
			for left == 0 && len(runs) > 0 {
				left, st, runs = nextRun(runs)
			}
			left-- // the last run covers the rest of the text
			if c != encEmpty && see.unseen(st) {
				size := 1
				if c >= utf8.RuneSelf && c != encCont {
					_, size = utf8.DecodeRune(text[i:])
				}
				b = append(b, ' ')
				lastBlank = true
				i += size
				continue
			}
		}
		switch {
		case c == encCont:
			i++
			continue
		case c == encEmpty:
			b = append(b, ' ')
			lastBlank = true
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			_, size := utf8.DecodeRune(text[i:])
			b = append(b, text[i:i+size]...)
			i += size
		}
		for nextX >= 0 && nextX <= x {
			if nextX == x {
				b = append(b, mark...)
			}
			nextX = -1
			if len(cb) > 0 {
				nextX, mark, cb = nextComb(cb)
			}
		}
	}
	if !h.wrapped {
		return trimSpaces(b, start)
	}
	for ; x < h.cols; x++ {
		b = append(b, ' ')
		lastBlank = true
	}
	if padEnd && lastBlank {
		b = b[:len(b)-1]
	}
	return b
}

// startsWide reports whether the line's first cell is a wide character.
func (h hview) startsWide() bool {
	text := h.text
	if len(text) == 0 || text[0] == encCont || text[0] == encEmpty {
		return false
	}
	_, size := utf8.DecodeRune(text)
	return size < len(text) && text[size] == encCont
}

// trimSpaces drops trailing spaces of the text appended since start.
func trimSpaces(b []byte, start int) []byte {
	for len(b) > start && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}
