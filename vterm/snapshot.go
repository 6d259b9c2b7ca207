package vterm

import "unicode/utf8"

// This file builds immutable snapshots. Each row keeps the Line it last published; only
// rows written since are copied, so unchanged rows keep their *Line across snapshots and
// a snapshot of an unchanged terminal is the cached one.

// Snapshot returns an immutable picture of the terminal. When nothing changed since the
// last call it returns the same *Snapshot; otherwise rows that did not change keep the
// same *Line as before.
func (t *Terminal) Snapshot() *Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.snap != nil && t.snap.Seq == t.seq {
		return t.snap
	}
	s := &Snapshot{
		Cols:       t.cols,
		Rows:       t.rows,
		Lines:      make([]*Line, t.rows),
		Cursor:     t.cursor(),
		Modes:      t.modes,
		Title:      t.title,
		AltScreen:  t.scr == t.alt,
		HistoryLen: t.hist.len(),
		Bells:      t.bells,
		Seq:        t.seq,
	}
	for y, r := range t.scr.rows {
		s.Lines[y] = r.publish()
	}
	t.snap = s
	return s
}

// publish returns the row's immutable Line. A changed row's Line shares its cells array;
// the row copies it before its next change (row.touch).
func (r *row) publish() *Line {
	if r.snap == nil || r.dirty || r.snap.Wrapped != r.wrapped {
		r.materialize()
		r.snap = &Line{Cells: r.cells[:len(r.cells):len(r.cells)], Wrapped: r.wrapped}
		r.shared = true
		r.dirty = false
	}
	return r.snap
}

// cursor returns the public cursor, always inside the screen.
func (t *Terminal) cursor() Cursor {
	return Cursor{
		X:       max(0, min(t.cur.x, t.cols-1)),
		Y:       max(0, min(t.cur.y, t.rows-1)),
		Visible: !t.cur.hidden,
		Shape:   t.cur.shape,
	}
}

// ScreenText returns the active screen (alternate or main) as plain text, one string
// per row: wide characters once, empty cells as spaces, trailing blanks trimmed.
func (t *Terminal) ScreenText() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.screenText()
}

// ScreenLines returns the active screen (alternate or main) as logical lines, top to
// bottom: ScreenText's rows, except that a row the text soft-wrapped from is joined
// with the next as TextFrom joins them (its trailing blanks kept, they are text, also
// on a last row whose continuation is not on the screen). A line that continues from
// above the screen starts at its top row.
func (t *Terminal) ScreenLines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	rows := t.scr.rows
	out := make([]string, 0, len(rows))
	var b []byte
	for y := 0; y < len(rows); {
		b = b[:0]
		for {
			r := rows[y]
			y++
			more := r.wrapped && y < len(rows)
			b = t.appendScreenRow(b, r, more && rows[y].cells[0].Width == 2, nil)
			if !more {
				break
			}
		}
		out = append(out, string(b))
	}
	return out
}

// screenText is ScreenText with the lock held.
func (t *Terminal) screenText() []string { return t.screenTextOf(nil) }

// screenTextOf is screenText; with see, cells the person cannot see (sight.go) are
// blank.
func (t *Terminal) screenTextOf(see *sight) []string {
	out := make([]string, t.rows)
	var b []byte
	for y, r := range t.scr.rows {
		b = appendCellsText(b[:0], t.textCells(r), false, false, see)
		out[y] = string(b)
	}
	return out
}

// textCells are the cells of r whose text is read when r is not soft-wrapped: those
// before hi, the rest being default blanks, which trimming drops (all of them on the
// reference path, SetSlowPath).
func (t *Terminal) textCells(r *row) []Cell {
	r.materialize()
	if t.slow {
		return r.cells
	}
	return r.cells[:r.hi]
}

// appendCellsText appends the text of cells; see hline.appendText for the trimming.
// With see, cells the person cannot see (concealed, or drawn in one colour on itself)
// are blank: a space for each column they take.
func appendCellsText(b []byte, cells []Cell, wrapped, padEnd bool, see *sight) []byte {
	start := len(b)
	for i := range cells {
		c := &cells[i]
		switch {
		case c.Width == 0:
			continue
		case see != nil && see.unseenAt(&c.Style):
			b = append(b, "  "[:c.Width]...)
			continue
		case c.Rune == 0:
			b = append(b, ' ')
		case c.Rune < 0x80:
			b = append(b, byte(c.Rune))
		default:
			b = utf8.AppendRune(b, c.Rune)
		}
		b = append(b, c.Comb...)
	}
	if !wrapped {
		return trimSpaces(b, start)
	}
	if last := len(cells) - 1; padEnd && last >= 0 && cells[last].Rune == 0 && cells[last].Width == 1 {
		b = b[:len(b)-1]
	}
	return b
}
