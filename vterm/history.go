package vterm

import "unicode/utf8"

// This file stores the main screen's history compactly. A row leaving the top of the
// screen is encoded as one byte string (one UTF-8 rune per cell; 0x00 for an empty cell,
// 0xFF for the continuation half of a wide character), style runs, and the rare
// combining marks, with trailing default blanks dropped. An ordinary 200-column line
// costs a little over 200 bytes instead of 200 cells of 48 bytes. The ring reuses the
// buffers of the line it evicts, so a full history takes new lines without allocating.

const (
	encEmpty = 0x00
	encCont  = 0xFF
)

// hline is one history line.
type hline struct {
	text    []byte
	runs    []hrun  // style runs in cell order; empty means every cell has the default style
	comb    []hcomb // combining marks by cell
	cols    uint16  // the row's width when it was pushed
	wrapped bool
}

// hrun is a run of n cells sharing one style.
type hrun struct {
	n  uint16
	st Style
}

// hcomb is the combining-mark string of cell x.
type hcomb struct {
	x uint16
	s string
}

// history is a bounded ring of hlines, oldest first.
type history struct {
	lines []hline
	start int // ring index of the oldest line
	n     int
	limit int
}

func (h *history) len() int { return h.n }

// at returns the i-th oldest held line.
func (h *history) at(i int) *hline {
	j := h.start + i
	if j >= len(h.lines) {
		j -= len(h.lines)
	}
	return &h.lines[j]
}

// slot returns the hline to encode the next pushed row into, evicting the oldest line
// when the ring is full.
func (h *history) slot() *hline {
	if h.n < h.limit {
		// start stays 0 until the ring is full, so a growing ring appends in order
		if h.n == len(h.lines) {
			h.lines = append(h.lines, hline{})
		}
		h.n++
		return h.at(h.n - 1)
	}
	l := &h.lines[h.start]
	h.start++
	if h.start == len(h.lines) {
		h.start = 0
	}
	return l
}

// clear drops every line (ED 3). Buffers are released.
func (h *history) clear() {
	h.lines = nil
	h.start = 0
	h.n = 0
}

// pushHistory appends a main-screen row to history.
func (t *Terminal) pushHistory(r *row) {
	t.pushed++
	if t.hist.limit <= 0 {
		return
	}
	t.hist.slot().encode(r.cells[:r.hi], len(r.cells), r.wrapped)
}

// encode stores cells into h, reusing h's buffers. A new text buffer gets room for a
// whole row of width cols, and a new run buffer room for several runs, so that once the
// ring is full, recycled slots take new lines without allocating.
func (h *hline) encode(cells []Cell, cols int, wrapped bool) {
	end := len(cells)
	for end > 0 {
		c := &cells[end-1]
		if c.Rune != 0 || c.Width != 1 || c.Style != (Style{}) || c.Comb != "" {
			break
		}
		end--
	}
	text := h.text[:0]
	if cap(text) < end {
		text = make([]byte, 0, max(end, cols))
	}
	runs := h.runs[:0]
	comb := h.comb[:0]
	var cur Style
	n := 0
	for x := 0; x < end; x++ {
		c := &cells[x]
		if c.Style != cur {
			if n > 0 {
				if cap(runs) == 0 {
					runs = make([]hrun, 0, 8)
				}
				runs = append(runs, hrun{uint16(n), cur})
			}
			cur, n = c.Style, 0
		}
		n++
		switch {
		case c.Width == 0:
			text = append(text, encCont)
		case c.Rune == 0:
			text = append(text, encEmpty)
		case c.Rune < utf8.RuneSelf:
			text = append(text, byte(c.Rune))
		default:
			text = utf8.AppendRune(text, c.Rune)
		}
		if c.Comb != "" {
			comb = append(comb, hcomb{uint16(x), c.Comb})
		}
	}
	if n > 0 && (len(runs) > 0 || cur != (Style{})) {
		if cap(runs) == 0 {
			runs = make([]hrun, 0, 8)
		}
		runs = append(runs, hrun{uint16(n), cur})
	}
	h.text, h.runs, h.comb, h.wrapped = text, runs, comb, wrapped
	h.cols = uint16(cols)
}

// decode returns h as exactly cols cells.
func (h *hline) decode(cols int) []Cell {
	cells := make([]Cell, cols)
	copy(cells, blankRow)
	ri, left := 0, 0
	var st Style
	if len(h.runs) > 0 {
		st, left = h.runs[0].st, int(h.runs[0].n)
	}
	x, i := 0, 0
	for ; i < len(h.text) && x < cols; x++ {
		b := h.text[i]
		c := Cell{Width: 1}
		switch {
		case b == encCont:
			c.Width = 0
			i++
		case b == encEmpty:
			i++
		case b < utf8.RuneSelf:
			c.Rune = rune(b)
			i++
		default:
			r, size := utf8.DecodeRune(h.text[i:])
			c.Rune = r
			i += size
		}
		if len(h.runs) > 0 {
			for left == 0 && ri+1 < len(h.runs) {
				ri++
				st, left = h.runs[ri].st, int(h.runs[ri].n)
			}
			c.Style = st
			left--
		}
		cells[x] = c
	}
	// restore wide leads; a half cut off by a narrower screen becomes a blank
	for j := range cells {
		if cells[j].Width != 0 {
			continue
		}
		if j > 0 && cells[j-1].Rune != 0 && cells[j-1].Width == 1 {
			cells[j-1].Width = 2
		} else {
			cells[j] = blankCell(cells[j].Style.BG)
		}
	}
	if i < len(h.text) && h.text[i] == encCont && cells[cols-1].Width == 1 {
		cells[cols-1] = blankCell(cells[cols-1].Style.BG)
	}
	for _, cm := range h.comb {
		if int(cm.x) < cols && cells[cm.x].Width != 0 {
			cells[cm.x].Comb = cm.s
		}
	}
	return cells
}

// appendText appends the plain text of h: wide characters once, empty cells as spaces.
// A line that does not wrap loses its trailing blanks; a soft-wrapped one keeps them
// (they are part of the joined line), except the blank left in the last column when a
// wide character wrapped (padEnd: the next row starts with a wide character). seen
// leaves concealed cells (SGR 8) blank: a space for each column they take.
func (h *hline) appendText(b []byte, padEnd, seen bool) []byte {
	start := len(b)
	ci := 0
	x := 0
	lastBlank := false
	ri, runStart := 0, 0 // the style run holding cell x, and its first cell
	for i := 0; i < len(h.text); x++ {
		c := h.text[i]
		lastBlank = false
		if seen && len(h.runs) > 0 {
			for ri < len(h.runs) && x >= runStart+int(h.runs[ri].n) {
				runStart += int(h.runs[ri].n)
				ri++
			}
			if ri < len(h.runs) && h.runs[ri].st.Attr&AttrHidden != 0 && c != encEmpty {
				_, size := utf8.DecodeRune(h.text[i:])
				if c < utf8.RuneSelf {
					size = 1
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
			_, size := utf8.DecodeRune(h.text[i:])
			b = append(b, h.text[i:i+size]...)
			i += size
		}
		for ci < len(h.comb) && int(h.comb[ci].x) <= x {
			if int(h.comb[ci].x) == x {
				b = append(b, h.comb[ci].s...)
			}
			ci++
		}
	}
	if !h.wrapped {
		return trimSpaces(b, start)
	}
	for ; x < int(h.cols); x++ {
		b = append(b, ' ')
		lastBlank = true
	}
	if padEnd && lastBlank {
		b = b[:len(b)-1]
	}
	return b
}

// startsWide reports whether the line's first cell is a wide character.
func (h *hline) startsWide() bool {
	if len(h.text) == 0 || h.text[0] == encCont || h.text[0] == encEmpty {
		return false
	}
	_, size := utf8.DecodeRune(h.text)
	return size < len(h.text) && h.text[size] == encCont
}

// trimSpaces drops trailing spaces of the text appended since start.
func trimSpaces(b []byte, start int) []byte {
	for len(b) > start && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}
