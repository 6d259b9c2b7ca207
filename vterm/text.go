package vterm

// This file gives readers the main screen's history and plain text with absolute row
// numbers: row r of the main screen is number ScreenTop()+r, history line i (0 = oldest
// held) is ScreenTop()-HistoryLen+i. A line keeps its number: dropping or clearing old
// history reuses none, and a taller screen taking lines back from history (resize.go)
// gives them the same numbers on the screen, so ScreenTop mostly grows but can go down.

// TextLine is one logical line of text: physical rows joined where the program's text
// soft-wrapped.
type TextLine struct {
	// N is the absolute number of the line's first row.
	N int64
	// Text is the line's text: wide characters once, trailing blanks trimmed.
	Text string
	// Rows is the number of physical rows joined into Text.
	Rows int
}

// ScreenTop returns the absolute number of the main screen's first row: the number of
// rows ever pushed into history, less those a taller screen took back.
func (t *Terminal) ScreenTop() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pushed
}

// HistoryLen returns the number of lines now held in the main screen's history.
func (t *Terminal) HistoryLen() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.hist.len()
}

// HistoryLines returns up to n history lines from index start (0 = the oldest held),
// each exactly as wide as the screen now. The Lines are immutable; asking again for the
// same line at the same width usually returns the same *Line.
func (t *Terminal) HistoryLines(start, n int) []*Line {
	t.mu.Lock()
	defer t.mu.Unlock()
	held := t.hist.len()
	start = max(0, start)
	if start >= held || n <= 0 {
		return nil
	}
	n = min(n, held-start)
	out := make([]*Line, n)
	first := t.pushed - int64(held)
	for i := range out {
		abs := first + int64(start+i)
		slot := &t.hcache[abs%int64(len(t.hcache))]
		if slot.line == nil || slot.abs != abs || slot.cols != t.cols {
			h := t.hist.at(start + i)
			*slot = hcacheEntry{abs: abs, cols: t.cols,
				line: &Line{Cells: h.decode(t.cols), Wrapped: h.wrapped}}
		}
		out[i] = slot.line
	}
	return out
}

// hcacheEntry caches a decoded history line, so a renderer scrolling through history
// sees the same *Line for the same line.
type hcacheEntry struct {
	abs  int64
	cols int
	line *Line
}

const hcacheSize = 512

// TextFrom returns the logical lines of history and main screen whose first row is at or
// after absolute row n (clamped to what is held), in order. Soft-wrapped rows are joined;
// empty rows at the bottom of the main screen are left out. The main screen is read even
// while the alternate screen is active.
func (t *Terminal) TextFrom(n int64) []TextLine {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.textFrom(n, nil)
}

// TextReading is what a reader of a terminal's text (the relay) needs, taken at one
// moment: its parts always agree, however the program's output races with the reader.
type TextReading struct {
	Title     string
	Modes     Modes
	AltScreen bool   // the alternate screen is active
	Cursor    Cursor // on the active screen
	// Top is the absolute number of the main screen's first row (ScreenTop).
	Top int64
	// Rows is the active screen as ScreenText gives it, except that cells the person
	// cannot see are blank: concealed (SGR 8), or drawn in a colour on itself (black
	// on black, in any notation, reverse video too; sight.go). A reader acting on the
	// text (the relay, finding @relay lines) takes what the person cannot see as not
	// said.
	Rows []string
	// Lines are the logical lines as TextFrom gives them, unseen cells blank too.
	Lines []TextLine
}

// ReadText returns the title, modes, cursor and text of the terminal under one lock:
// Lines are the logical lines from absolute row from (from the main screen's first row
// when from is negative; none when from is past the screen's end).
func (t *Terminal) ReadText(from int64) TextReading {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.readText(from)
}

// readText is ReadText with the lock held.
func (t *Terminal) readText(from int64) TextReading {
	if from < 0 {
		from = t.pushed
	}
	see := t.sight()
	rows := t.screenTextOf(see)
	main := rows
	if t.scr != t.main || t.slow {
		main = nil
	}
	return TextReading{
		Title: t.title, Modes: t.modes, AltScreen: t.scr == t.alt, Cursor: t.cursor(),
		Top: t.pushed, Rows: rows, Lines: t.textFromRows(from, see, main),
	}
}

// textFrom is TextFrom with the lock held; with see, cells the person cannot see are
// blank.
func (t *Terminal) textFrom(n int64, see *sight) []TextLine {
	return t.textFromRows(n, see, nil)
}

// textFromRows is textFrom given the main screen's rows as screenTextOf(see) read
// them (nil: not read): the line of a row that is not soft-wrapped is that row's text,
// taken from there.
func (t *Terminal) textFromRows(n int64, see *sight, rows []string) []TextLine {
	held := int64(t.hist.len())
	first := t.pushed - held
	end := t.pushed + int64(t.rows)
	a := max(n, first)
	// skip rows continuing a logical line that started before a
	for a > first && a < end && t.rowWrapped(a-1) {
		a++
	}
	var out []TextLine
	var b []byte
	lastNonEmpty := -1
	for a < end {
		start := a
		if rows != nil && a >= t.pushed && !t.main.rows[a-t.pushed].wrapped && !t.main.rows[a-t.pushed].resized() {
			// a line of one row (a line starts here), read already
			text := rows[a-t.pushed]
			out = append(out, TextLine{N: start, Text: text, Rows: 1})
			if len(text) > 0 {
				lastNonEmpty = len(out) - 1
			}
			a++
			continue
		}
		b = b[:0]
		for {
			wrapped := t.rowWrapped(a)
			b = t.appendRowText(b, a, wrapped && a+1 < end && t.rowStartsWide(a+1), see)
			a++
			if !wrapped || a >= end {
				break
			}
		}
		out = append(out, TextLine{N: start, Text: string(b), Rows: int(a - start)})
		if len(b) > 0 || start < t.pushed {
			lastNonEmpty = len(out) - 1
		}
	}
	return out[:lastNonEmpty+1]
}

// rowWrapped reports whether absolute row a is soft-wrapped into the next.
func (t *Terminal) rowWrapped(a int64) bool {
	if a >= t.pushed {
		return t.main.rows[a-t.pushed].wrapped
	}
	return t.histAt(a).wrapped
}

// appendRowText appends the text of absolute row a; padEnd says the next row starts
// with a wide character (so a blank last cell is wrap padding, not text).
func (t *Terminal) appendRowText(b []byte, a int64, padEnd bool, see *sight) []byte {
	if a >= t.pushed {
		return t.appendScreenRow(b, t.main.rows[a-t.pushed], padEnd, see)
	}
	return t.histAt(a).appendText(b, padEnd, see)
}

// appendScreenRow appends the text of screen row r: trimmed, unless r is soft-wrapped
// (its trailing blanks are then text), padEnd as appendRowText's.
func (t *Terminal) appendScreenRow(b []byte, r *row, padEnd bool, see *sight) []byte {
	switch {
	case r.resized():
		return appendCellsText(b, r.written(), r.wrapped, padEnd, see)
	case !r.wrapped:
		return appendCellsText(b, t.textCells(r), false, padEnd, see)
	}
	r.materialize()
	return appendCellsText(b, r.cells, true, padEnd, see)
}

// rowStartsWide reports whether absolute row a starts with a wide character.
func (t *Terminal) rowStartsWide(a int64) bool {
	if a >= t.pushed {
		return t.main.rows[a-t.pushed].cells[0].Width == 2
	}
	return t.histAt(a).startsWide()
}

// histAt returns the history line with absolute number a (which must be held).
func (t *Terminal) histAt(a int64) hview {
	return t.hist.at(int(a - (t.pushed - int64(t.hist.len()))))
}
