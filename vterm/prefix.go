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
	i := x // the byte where cell x starts: x when every cell took one byte
	if len(p.text) != p.cells {
		n := 0
		for i = 0; i < len(p.text); i++ {
			if b := p.text[i]; b < 0x80 || b >= 0xc0 { // a cell starts here
				if n == x {
					break
				}
				n++
			}
		}
	}
	p.text = p.text[:i]
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
// style st; the prefix grows when it ends at x.
func (p *prefix) growASCII(x int, b []byte, st *Style) {
	if p.cells != x || !p.style(x, st) {
		return
	}
	p.text = append(p.text, b...)
	p.cells += len(b)
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

// regrow puts cell x back at the end of the prefix after a join gave it marks: the
// touchFrom before the change cut the prefix to x, and the cell ended the prefix before
// (old was the prefix's length then).
func (r *row) regrow(x, old int) {
	c := &r.cells[x]
	if r.pre.cells != x || c.Width == 0 || old != x+int(c.Width) {
		return
	}
	r.pre.growRune(x, c.Rune, int(c.Width), &c.Style)
	if r.pre.cells == old && c.Comb != "" {
		r.pre.comb = le.AppendUint16(r.pre.comb, uint16(x))
		r.pre.comb = append(r.pre.comb, byte(len(c.Comb)))
		r.pre.comb = append(r.pre.comb, c.Comb...)
	}
}
