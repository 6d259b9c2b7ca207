package vterm

import (
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// This file writes printable characters into the grid: the ASCII fast path, wide
// characters, grapheme clusters (combining marks, ZWJ sequences, emoji modifiers, flags,
// VS16), autowrap with xterm's pending-wrap rule, insert mode and the DEC special
// graphics set.

// widthCond measures runes: not East Asian ambiguous-wide, emoji by their own width.
var widthCond = &runewidth.Condition{EastAsianWidth: false, StrictEmojiNeutral: true}

const (
	zwj      = 0x200D
	vs16     = 0xFE0F // VARIATION SELECTOR-16: emoji presentation
	maxComb  = 32     // bytes of combining marks kept per cell
	runeRepl = utf8.RuneError
)

// runeWidth is the cell width of r: 0 for combining marks and other zero-width runes.
func runeWidth(r rune) int {
	if r < 0x300 {
		// soft hyphen (U+00AD) is shown by terminals as a narrow character
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return 0
		}
		return 1
	}
	return widthCond.RuneWidth(r)
}

// printASCII writes a run of printable ASCII bytes (0x20-0x7e) in the plain character
// set without insert mode: the hot path.
func (t *Terminal) printASCII(b []byte) {
	c := &t.cur
	pen := c.pen
	for len(b) > 0 {
		if c.pending {
			if t.modes.Autowrap {
				t.wrapLine()
			} else {
				c.pending = false
			}
		}
		r := t.scr.rows[c.y]
		x := c.x
		n := min(len(b), t.cols-x)
		if x == r.hi && r.pre.growASCII(x, b[:n], &pen) {
			// At the used extent's end, the prefix taking them: the cells (default
			// blanks) are left to materialize, and most are never read.
			r.lazy += n
			r.hi += n
			r.dirty = true
			if r.tail != nil {
				r.tail = nil
			}
		} else {
			r.writeASCII(x, b[:n], &pen)
		}
		t.lastRune, t.lastWidth = rune(b[n-1]), 1
		b = b[n:]
		x += n
		t.lastComb = ""
		if x >= t.cols {
			c.x = t.cols - 1
			c.pending = true
			if !t.modes.Autowrap && len(b) > 0 {
				// without autowrap the rest overwrites the last column: only the
				// final byte stays visible
				last := b[len(b)-1]
				r.touchFrom(t.cols - 1)
				r.cells[t.cols-1] = Cell{Rune: rune(last), Width: 1, Style: pen}
				r.hi = t.cols
				t.lastRune, t.lastWidth = rune(last), 1
				return
			}
		} else {
			c.x = x
		}
	}
}

// writeASCII writes the printable ASCII bytes b into cells [x, x+len(b)) of r in style
// pen: printASCII's way for cells other than at the used extent's end.
func (r *row) writeASCII(x int, b []byte, pen *Style) {
	n := len(b)
	r.touchFrom(x)
	r.fixWide(x, x+n)
	r.pre.growASCII(x, b, pen)
	cells := r.cells[x : x+n]
	// cells before the row's used extent may hold anything; those at or after it
	// are default blanks (width 1, no marks), which only take a rune and a style
	used := min(max(r.hi-x, 0), n)
	for i, ch := range b[:used] {
		c := &cells[i]
		c.Rune = rune(ch)
		c.Width = 1
		c.Style = *pen
		if c.Comb != "" {
			c.Comb = ""
		}
	}
	for i, ch := range b[used:] {
		c := &cells[used+i]
		c.Rune = rune(ch)
		c.Style = *pen
	}
	r.hi = max(r.hi, x+n)
}

// wrapLine performs a pending autowrap: mark the row soft-wrapped and move to the start
// of the next line, scrolling if needed.
func (t *Terminal) wrapLine() {
	t.scr.rows[t.cur.y].wrapped = true
	t.cur.pending = false
	t.cur.x = 0
	t.index()
}

// decSpecial maps 0x5f-0x7e to the DEC special graphics (line drawing) characters.
var decSpecial = [32]rune{
	' ', '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼',
	'⎺', '⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
}

// printRune writes one printable rune (any width) at the cursor.
func (t *Terminal) printRune(r rune) {
	if r < 0x80 && t.activeCharset() == charsetSpecial && r >= 0x5f && r <= 0x7e {
		r = decSpecial[r-0x5f]
	}
	if r >= 0x80 && r < 0xa0 {
		return // C1 controls encoded as UTF-8 are not printed
	}
	w := t.gclass.width(r)
	if w == 0 {
		t.combine(r)
		return
	}
	if t.joinCluster(r) {
		return
	}
	t.put(r, w)
}

// previousCell is the cell a combining mark at the cursor joins: the one just written
// (in the pending-wrap state, the one under the cursor). It returns the cell's column,
// or nil when there is none. Call row.touch before changing the cell.
func (t *Terminal) previousCell() (*Cell, int) {
	x := t.cur.x
	if !t.cur.pending {
		x--
	}
	if x < 0 {
		return nil, 0
	}
	r := t.scr.rows[t.cur.y]
	r.materialize() // the cell's rune decides the join
	if r.cells[x].Width == 0 && x > 0 {
		x--
	}
	c := &r.cells[x]
	if c.Rune == 0 || c.Width == 0 {
		return nil, 0
	}
	return c, x
}

// widen turns the narrow cell at column x of the cursor row into a wide one, after a
// join made its cluster two cells wide. The cell to its right becomes the continuation
// and the cursor moves past it. A cell in the last column moves to the next line when
// autowrap is on (as a wide character would have wrapped) and stays narrow otherwise.
func (t *Terminal) widen(x int) {
	c := &t.cur
	row := t.scr.rows[c.y]
	cell := row.cells[x]
	if x+1 >= t.cols {
		if !t.modes.Autowrap || t.cols < 2 || !c.pending || c.x != x {
			return
		}
		c.pending = false // put blanks the last column and wraps
		cell.Width = 2
		t.putCell(cell)
		return
	}
	row.touchFrom(x)
	if t.modes.Insert {
		row.insertBlanks(x+1, 1, DefaultColor)
	}
	row.fixWide(x+1, x+2)
	row.cells[x].Width = 2
	row.cells[x+1] = Cell{Width: 0, Style: cell.Style}
	row.hi = max(row.hi, x+2)
	t.lastWidth = 2
	if !c.pending && c.x == x+1 {
		if x+2 >= t.cols {
			c.x, c.pending = t.cols-1, true
		} else {
			c.x = x + 2
		}
	}
}

// put writes rune r of width w (1 or 2) at the cursor, wrapping first if needed.
func (t *Terminal) put(r rune, w int) {
	c := &t.cur
	if c.pending || c.x+w > t.cols || t.modes.Insert {
		t.putCell(Cell{Rune: r, Width: uint8(w), Style: t.cur.pen})
		return
	}
	// the common case, as putCell does it without building a cell: no wrap, no shift
	row := t.scr.rows[c.y]
	row.touchFrom(c.x)
	row.fixWide(c.x, c.x+w)
	cell := &row.cells[c.x]
	cell.Rune, cell.Width, cell.Style = r, uint8(w), c.pen
	if cell.Comb != "" {
		cell.Comb = ""
	}
	if w == 2 {
		cont := &row.cells[c.x+1]
		cont.Rune, cont.Width, cont.Style = 0, 0, c.pen
		if cont.Comb != "" {
			cont.Comb = ""
		}
	}
	row.hi = max(row.hi, c.x+w)
	row.pre.growRune(c.x, r, w, &c.pen)
	t.lastRune, t.lastWidth = r, w
	if t.lastComb != "" {
		t.lastComb = ""
	}
	if c.x+w >= t.cols {
		c.x = t.cols - 1
		c.pending = true
	} else {
		c.x += w
	}
}

// putCell writes cell (width 1 or 2, with its joined runes) at the cursor, wrapping
// first if needed. A wide cell that cannot fit a one-column screen shows U+FFFD.
func (t *Terminal) putCell(cell Cell) {
	c := &t.cur
	w := int(cell.Width)
	if w > t.cols {
		// a wide character cannot fit a one-column screen: show a replacement
		cell.Rune, cell.Comb, cell.Width, w = runeRepl, "", 1, 1
	}
	if c.pending {
		if t.modes.Autowrap {
			t.wrapLine()
		} else {
			c.pending = false
		}
	}
	if c.x+w > t.cols {
		if t.modes.Autowrap {
			// a wide character in the last column: blank it and wrap, as xterm does
			t.scr.rows[c.y].fixWide(c.x, c.x+1)
			t.scr.rows[c.y].fill(c.x, t.cols, DefaultColor)
			t.wrapLine()
		} else {
			c.x = t.cols - w
		}
	}
	row := t.scr.rows[c.y]
	row.touchFrom(c.x)
	if t.modes.Insert {
		row.insertBlanks(c.x, w, DefaultColor)
	}
	row.fixWide(c.x, c.x+w)
	row.cells[c.x] = cell
	if w == 2 {
		row.cells[c.x+1] = Cell{Width: 0, Style: cell.Style}
	}
	row.hi = max(row.hi, c.x+w)
	if cell.Comb == "" {
		row.pre.growRune(c.x, cell.Rune, w, &cell.Style)
	}
	t.lastRune, t.lastWidth, t.lastComb = cell.Rune, w, cell.Comb
	if c.x+w >= t.cols {
		// the next character wraps first, or overwrites the last column when
		// autowrap is off; either way a combining mark joins this cell
		c.x = t.cols - 1
		c.pending = true
	} else {
		c.x += w
	}
}

// repeat is REP: print the last printed character (with its joined runes) n more times.
func (t *Terminal) repeat(n int) {
	if t.lastRune == 0 {
		return
	}
	n = min(n, t.cols*t.rows) // more repeats only scroll more blank copies
	cell := Cell{Rune: t.lastRune, Width: uint8(t.lastWidth), Comb: t.lastComb, Style: t.cur.pen}
	for ; n > 0; n-- {
		t.putCell(cell)
	}
}
