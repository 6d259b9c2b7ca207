package vterm

import "unicode/utf8"

// This file keeps each row's encoded prefix: the cells the row got from printing, from
// column 0 on without a gap, already in the form history stores them (history.go). When
// the row scrolls into history its prefix is copied instead of reading its cells again,
// which by then have left the cache. Printing grows the prefix (printASCII, put,
// putCell, and the joins that add marks to its last cell); any other change of a cell
// at x cuts it to x (row.touchFrom), so it always encodes exactly what the cells hold.

// prefix is the encoding of cells [0, cells) of a row: their text and combining marks in
// history's encodings, and their style spans.
type prefix struct {
	cells int
	text  []byte
	comb  []byte
	spans []span
}

// span is the style of the prefix's cells from start on (to the next span's start).
type span struct {
	start uint16
	st    Style
}

// maxSpans bounds the style changes a prefix records; past them it stops growing and
// history reads the rest of the row from its cells.
const maxSpans = 32

// cut shortens the prefix to x cells.
func (p *prefix) cut(x int) {
	x = max(x, 0)
	if x >= p.cells {
		return
	}
	if len(p.text) == p.cells {
		p.text = p.text[:x] // one byte per cell
	} else if x < p.cells/2 {
		// count cell starts from the front: a redraw mid-row
		i, n := 0, 0
		for ; ; i++ {
			if b := p.text[i]; b < 0x80 || b >= 0xc0 { // a cell starts here
				if n == x {
					break
				}
				n++
			}
		}
		p.text = p.text[:i]
	} else {
		// count cell starts back from the end: a mark joining the last cell
		i := len(p.text)
		for drop := p.cells - x; drop > 0; {
			i--
			if b := p.text[i]; b < 0x80 || b >= 0xc0 {
				drop--
			}
		}
		p.text = p.text[:i]
	}
	p.cells = x
	keep := 0
	for keep < len(p.comb) {
		cx, _, rest := nextComb(p.comb[keep:])
		if cx >= x {
			break
		}
		keep = len(p.comb) - len(rest)
	}
	p.comb = p.comb[:keep]
	n := len(p.spans)
	for n > 0 && int(p.spans[n-1].start) >= x {
		n--
	}
	p.spans = p.spans[:n]
}

// style records the style of cell x, the next one after the prefix; it reports false
// when the prefix cannot take another span.
func (p *prefix) style(x int, st *Style) bool {
	if k := len(p.spans); k == 0 || p.spans[k-1].st != *st {
		if k == maxSpans {
			return false
		}
		p.spans = append(p.spans, span{uint16(x), *st})
	}
	return true
}

// growASCII records that cells [x, x+len(b)) now hold the printable ASCII bytes b in
// style st; the prefix grows when it ends at x, and it reports whether it grew.
func (p *prefix) growASCII(x int, b []byte, st *Style) bool {
	if p.cells != x || !p.style(x, st) {
		return false
	}
	p.text = append(p.text, b...)
	p.cells += len(b)
	return true
}

// growRune records that cell x now holds rune r of width w (1, or 2 with its
// continuation) in style st, without marks; the prefix grows when it ends at x.
func (p *prefix) growRune(x int, r rune, w int, st *Style) {
	if p.cells != x || !p.style(x, st) {
		return
	}
	p.text = utf8.AppendRune(p.text, r)
	if w == 2 {
		p.text = append(p.text, encCont)
	}
	p.cells += w
}

// touchMark prepares the row for a join that adds marks to cell x (already printed):
// when x is the prefix's last cell, the prefix keeps it and it reports true, and the
// caller records the cell's new marks with setComb; otherwise the prefix is cut to x.
func (r *row) touchMark(x int) bool {
	if w := int(r.cells[x].Width); w > 0 && r.pre.cells == x+w {
		r.touchFrom(r.pre.cells)
		return true
	}
	r.touchFrom(x)
	return false
}

// setComb records s as the marks of cell x, the prefix's last cell.
func (p *prefix) setComb(x int, s string) {
	// drop the cell's old record: the last one, if it is the cell's
	for i := 0; i < len(p.comb); {
		cx, _, rest := nextComb(p.comb[i:])
		if cx == x {
			p.comb = p.comb[:i]
			break
		}
		i = len(p.comb) - len(rest)
	}
	if s != "" {
		p.comb = le.AppendUint16(p.comb, uint16(x))
		p.comb = append(p.comb, byte(len(s)))
		p.comb = append(p.comb, s...)
	}
}
