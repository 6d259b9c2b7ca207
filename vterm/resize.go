package vterm

// This file resizes the terminal. Lines do not reflow: a narrower screen cuts rows (a
// wide character cut in half becomes a blank), a wider one pads them with blanks, or
// shows again what a narrower one cut off a row that nothing changed since. When
// the screen gets shorter, rows above the cursor go to history (main screen) so the
// cursor's line stays visible; otherwise rows are dropped from the bottom. A taller
// main screen takes history's newest lines back at its top, as xterm and tmux do, so a
// pane shrunk and grown again shows what it showed (each line keeps its absolute
// number: ScreenTop goes down); what history cannot give is blank rows at the bottom.
// Tab stops set by the program survive; new columns get the default stops.

// cursorCut is the cursor a narrower resize pulled in to column x from column want
// (pending: the wrap it had pending there), the terminal's seq after that resize. A
// wider resize with nothing written since puts it back, as it shows the cut text again:
// a program that does not redraw on a resize (a read loop, cat) would otherwise have
// what is typed next shown over the middle of the line it reads.
type cursorCut struct {
	seq     uint64
	x, want int
	pending bool
}

// Resize changes the screen size. Sizes below 1 become 1 (and above 4096, 4096).
func (t *Terminal) Resize(cols, rows int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cols, rows = clampSize(cols, rows)
	if cols == t.cols && rows == t.rows {
		return
	}
	want, pending := t.cur.x, t.cur.pending
	if c := t.cut; c.seq == t.seq && c.x == t.cur.x && c.want > c.x {
		want, pending = c.want, c.pending // pulled in by the resize before, nothing since
	}
	// rows above the cursor leave the top when the screen gets shorter than the cursor
	// row; a taller main screen takes history's newest lines back at its top
	shift := max(0, t.cur.y-(rows-1))
	if t.scr == t.main && rows > t.rows {
		shift = -min(rows-t.rows, t.hist.len())
	}
	for _, s := range []*screen{t.main, t.alt} {
		n := 0
		if s == t.scr {
			n = shift
		}
		t.resizeScreen(s, cols, rows, n)
	}
	t.cur.y -= shift
	t.scr.saved.y -= shift
	t.cols, t.rows = cols, rows
	t.cur.x = min(want, cols-1)
	t.cur.y = max(0, min(t.cur.y, rows-1))
	if t.cur.x == want {
		t.cur.pending = pending // where it was, or back there
	}
	if t.cur.x < cols-1 {
		t.cur.pending = false
	}
	for _, s := range []*screen{t.main, t.alt} {
		s.saved.x = max(0, min(s.saved.x, cols-1))
		s.saved.y = max(0, min(s.saved.y, rows-1))
	}
	t.margin.top, t.margin.bot = 0, rows-1
	if len(t.tabs) != cols {
		old := len(t.tabs)
		tabs := make([]bool, cols)
		copy(tabs, t.tabs)
		if cols > old {
			resetTabs(tabs, old)
		}
		t.tabs = tabs
	}
	t.seq++
	t.cut = cursorCut{}
	if want > t.cur.x {
		t.cut = cursorCut{seq: t.seq, x: t.cur.x, want: want, pending: pending}
	}
}

// resizeScreen gives s the new size; the first shift rows leave the top (into history
// for the main screen), or with a negative shift, as many lines come back from history
// (main screen only).
func (t *Terminal) resizeScreen(s *screen, cols, rows, shift int) {
	if shift < 0 {
		back := make([]*row, -shift, -shift+len(s.rows))
		for i := len(back) - 1; i >= 0; i-- {
			back[i] = t.pullHistory(cols)
		}
		s.rows = append(back, s.rows...)
	}
	if shift > 0 {
		if s == t.main {
			for _, r := range s.rows[:shift] {
				t.pushHistory(r)
			}
		}
		s.rows = s.rows[shift:]
	}
	if len(s.rows) > rows {
		s.rows = s.rows[:rows]
	}
	s.rows = append([]*row(nil), s.rows...)
	for _, r := range s.rows {
		r.resize(cols)
	}
	for len(s.rows) < rows {
		s.rows = append(s.rows, newRow(cols))
	}
}

// resize cuts or pads a row to cols cells. What a cut takes off the end is kept in
// the row's tail until the row changes, and a wider resize shows it again.
func (r *row) resize(cols int) {
	old := len(r.cells)
	if cols == old {
		return
	}
	r.materialize()
	r.dirty = true
	r.shared = false // both branches build a new cells array
	r.pre.cut(0)
	restored := r.resized()
	full := r.written() // the cells are rebuilt from it below
	r.tail = nil
	if cols < len(full) {
		r.cells = append([]Cell(nil), full[:cols]...)
		at := cols
		if r.cells[cols-1].Width == 2 { // its continuation is cut: the tail keeps both
			at = cols - 1
			r.cells[cols-1] = blankCell(r.cells[cols-1].Style.BG)
		}
		if usedExtent(full[at:]) > 0 || r.wrapped {
			// (a soft-wrapped row's blanks up to where it wrapped are its text)
			r.tail, r.tailAt = append([]Cell(nil), full[at:]...), at
		}
		if restored {
			r.hi = usedExtent(r.cells)
		} else {
			r.hi = min(r.hi, cols)
		}
		return
	}
	cells := make([]Cell, cols)
	n := copy(cells, full)
	copy(cells[n:], blankRow)
	r.cells = cells
	if r.wrapped && n < cols {
		r.tail, r.tailAt = padded, n // its text ends where it wrapped
	}
	if restored {
		r.hi = usedExtent(cells)
	}
}

// padded is the empty tail of a soft-wrapped row a wider resize padded (row.tail).
var padded = []Cell{}

// usedExtent is the row.hi of cells: one past the last that is not a default blank.
func usedExtent(cells []Cell) int {
	n := len(cells)
	for n > 0 && cells[n-1] == (Cell{Width: 1}) {
		n--
	}
	return n
}
