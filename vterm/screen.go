package vterm

// This file holds the grid: rows of cells owned by the writer, each with a cached
// immutable copy for snapshots, and the row-level edits (erase, insert, delete, scroll).

import "sync"

// row is one mutable screen row, copied on write: snap is the Line last handed out in a
// Snapshot, which shares the cells array while shared is set; the first change after
// that copies the cells (touch). dirty says the cells changed since snap was made.
type row struct {
	cells []Cell
	// hi bounds the used part of the row: every cell at or after hi is a default blank
	// (no rune, width 1, default style). Erasing and history encoding stop there.
	hi      int
	wrapped bool
	dirty   bool
	shared  bool
	snap    *Line

	// pre is the row's encoded prefix: see prefix.go.
	pre prefix
	// lazy counts the cells at the end of the used extent, [hi-lazy, hi), that printing
	// wrote only into the prefix: they still hold default blanks, and their text (ASCII,
	// a byte each, the prefix's last lazy bytes) and style are the prefix's. Most lines
	// a flood prints scroll into history, from the prefix, before anything reads their
	// cells; materialize writes them when something does. lazy > 0 only while the prefix
	// covers the whole used extent.
	lazy int
	// tail is what a narrower resize cut off the row's end (from tailAt, which is the
	// width it was cut to, or one less when that split a wide character: its lead then
	// shows as a blank), kept while nothing changes the row: a wider resize shows it
	// again, so a pane zoomed out and back in (prefix z) has its lines whole, and the
	// text readers read the row as written. Any change to the row drops it (touchFrom,
	// fill, printing): the program wrote to a line it saw end at the narrower width.
	// Nil when the cut part was blank and the row is not soft-wrapped; empty (not nil)
	// for a soft-wrapped row a wider resize padded: tailAt is where it wrapped, and its
	// text joins the next row's there, not after the padding.
	tail   []Cell
	tailAt int
}

// written returns r's cells as the program wrote them, for the text readers (the
// screen shows r.cells): those a resize left, then what it cut off (tail), or only
// up to where a soft-wrapped row wrapped when it padded the row.
func (r *row) written() []Cell {
	r.materialize()
	if r.tail == nil {
		return r.cells
	}
	return append(r.cells[:r.tailAt:r.tailAt], r.tail...)
}

// resized reports whether r's text differs from what it shows (written): a resize cut
// or padded it, and nothing changed it since.
func (r *row) resized() bool { return r.tail != nil }

// materialize writes the lazy cells (see row.lazy), if any, into the row's cells.
// Everything that reads or changes cells other than the printing of ASCII at the used
// extent's end calls it first (touchFrom does). Small enough to inline: a row with no
// lazy cells pays a comparison.
func (r *row) materialize() {
	if r.lazy > 0 {
		r.writeLazy()
	}
}

// writeLazy is materialize's work.
func (r *row) writeLazy() {
	r.own()
	r.lazyInto(r.cells)
	r.lazy = 0
}

// own gives the row a cells array of its own when a snapshot (or blankRow) shares it.
func (r *row) own() {
	if r.shared {
		cells := make([]Cell, len(r.cells))
		copy(cells, r.cells)
		r.cells = cells
		r.shared = false
	}
}

// lazyInto writes the text and style of the row's lazy cells into cells, which hold
// default blanks there.
func (r *row) lazyInto(cells []Cell) {
	x0 := r.hi - r.lazy
	text := r.pre.text[len(r.pre.text)-r.lazy:]
	spans := r.pre.spans
	k := len(spans) - 1
	for k > 0 && int(spans[k].start) > x0 {
		k--
	}
	for x := x0; x < r.hi; k++ {
		end := r.hi
		if k+1 < len(spans) {
			end = min(end, int(spans[k+1].start))
		}
		st := spans[k].st
		seg := cells[x:end]
		for i, ch := range text[x-x0 : end-x0] {
			seg[i].Rune, seg[i].Style = rune(ch), st
		}
		x = end
	}
}

// touch prepares the row for a change of any of its cells: it takes a private copy when
// a snapshot shares them, marks the row dirty and drops the encoded prefix. Call it (or
// touchFrom) before writing any cell.
func (r *row) touch() { r.touchFrom(0) }

// touchFrom is touch for a change of cells at x and after only: the encoded prefix is
// cut to x.
func (r *row) touchFrom(x int) {
	r.materialize()
	r.own()
	r.dirty = true
	if r.tail != nil { // (a test, not a store: the hot path pays no write barrier)
		r.tail = nil
	}
	if x < r.pre.cells {
		r.pre.cut(x)
	}
}

// screen is the main or the alternate screen.
type screen struct {
	rows  []*row
	saved savedCursor
	kitty kittyStack
}

// kittyStack is the kitty keyboard flags stack of one screen.
type kittyStack struct {
	flags [kittyDepth]uint8
	n     int // entries in use; the current flags are flags[n-1] (0 when n == 0)
}

const kittyDepth = 16

func (k *kittyStack) top() uint8 {
	if k.n == 0 {
		return 0
	}
	return k.flags[k.n-1]
}

func (k *kittyStack) push(f uint8) {
	if k.n == kittyDepth {
		copy(k.flags[:], k.flags[1:])
		k.n--
	}
	k.flags[k.n] = f
	k.n++
}

func (k *kittyStack) pop(n int) {
	k.n = max(0, k.n-n)
}

func (k *kittyStack) set(f uint8) {
	if k.n == 0 {
		k.push(f)
		return
	}
	k.flags[k.n-1] = f
}

// blankCell is an erased cell: no character, width 1, the given background (xterm's
// background colour erase).
func blankCell(bg Color) Cell {
	return Cell{Width: 1, Style: Style{BG: bg}}
}

// blankRow is a template row of default blank cells, copied to clear rows quickly, and
// the cells of every blank row never written (newRow): it is never written itself. The
// first New makes it (blankOnce): a process that makes no terminal (an attach client, a
// client command) never pays for it.
var (
	blankRow  []Cell
	blankOnce sync.Once
)

// makeBlankRow makes blankRow.
func makeBlankRow() {
	r := make([]Cell, maxSize)
	for i := range r {
		r[i] = Cell{Width: 1}
	}
	blankRow = r
}

// newRow returns a blank row of cols cells. Its cells are blankRow's own, shared as a
// snapshot's are: the row's first change copies them (touch), so a row that is never
// written costs no array, and a new terminal's two screens cost none.
func newRow(cols int) *row {
	return &row{cells: blankRow[:cols:cols], shared: true, dirty: true}
}

func newScreen(cols, rows int) *screen {
	s := &screen{rows: make([]*row, rows)}
	for i := range s.rows {
		s.rows[i] = newRow(cols)
	}
	return s
}

// fill sets cells [x0, x1) of r to blanks with background bg.
func (r *row) fill(x0, x1 int, bg Color) {
	if x0 < x1 && r.tail != nil {
		r.tail = nil // an erase to the end erases what the row hides there too
	}
	if x0 >= x1 || bg == DefaultColor && x0 >= r.hi {
		return // nothing to do: cells past hi are default blanks already
	}
	if r.lazy > 0 && bg == DefaultColor && x0 <= r.hi-r.lazy && x1 >= r.hi {
		// the lazy cells hold default blanks already: erasing them is forgetting them
		r.hi -= r.lazy
		r.lazy = 0
		r.pre.cut(r.hi)
		r.dirty = true
		if x0 >= r.hi {
			return
		}
	}
	if r.shared && x0 == 0 && x1 == len(r.cells) && bg == DefaultColor {
		// the whole row is blanked: blankRow's cells, shared, beat copying the shared
		// ones (the next change copies blanks instead)
		r.cells = blankRow[:len(r.cells):len(r.cells)]
		r.hi, r.dirty = 0, true
		r.pre.cut(0)
		return
	}
	r.touchFrom(x0)
	if bg == DefaultColor {
		if x1 >= r.hi {
			x1, r.hi = r.hi, min(r.hi, x0)
		}
		if x0 < x1 {
			copy(r.cells[x0:x1], blankRow)
		}
		return
	}
	r.hi = max(r.hi, x1)
	c := blankCell(bg)
	for i := x0; i < x1; i++ {
		r.cells[i] = c
	}
}

// clear blanks the whole row and drops its soft-wrap flag.
func (r *row) clear(bg Color) {
	r.fill(0, len(r.cells), bg)
	r.wrapped = false
}

// fixWide repairs wide characters cut by an edit of cells [x0, x1): a continuation cell
// at x0 loses its lead and a lead at x1-1 loses its continuation, so both halves become
// blanks. Call it before overwriting the range.
func (r *row) fixWide(x0, x1 int) {
	n := len(r.cells)
	if x0 > 0 && x0 < n && r.cells[x0].Width == 0 {
		r.touchFrom(x0 - 1)
		r.cells[x0-1] = blankCell(r.cells[x0-1].Style.BG)
		r.cells[x0] = blankCell(r.cells[x0].Style.BG)
	}
	if x1 > 0 && x1 < n && r.cells[x1].Width == 0 {
		r.touchFrom(x1 - 1)
		r.cells[x1-1] = blankCell(r.cells[x1-1].Style.BG)
		r.cells[x1] = blankCell(r.cells[x1].Style.BG)
	}
}

// insertBlanks shifts cells at x right by n (within the row) and blanks the gap.
func (r *row) insertBlanks(x, n int, bg Color) {
	cols := len(r.cells)
	if x >= cols || n <= 0 {
		return
	}
	n = min(n, cols-x)
	r.touchFrom(x - 1)
	r.fixWide(x, x)
	// a wide character pushed across the right edge loses its lead/continuation pair
	if cols-n > 0 && r.cells[cols-n].Width == 0 {
		r.cells[cols-n-1] = blankCell(r.cells[cols-n-1].Style.BG)
	}
	copy(r.cells[x+n:], r.cells[x:cols-n])
	r.hi = min(cols, r.hi+n)
	copy(r.cells[x:x+n], blankRow) // the gap may lie past hi: make it blank first
	r.fill(x, x+n, bg)
}

// deleteCells removes n cells at x, shifting the rest left and blanking the end.
func (r *row) deleteCells(x, n int, bg Color) {
	cols := len(r.cells)
	if x >= cols || n <= 0 {
		return
	}
	n = min(n, cols-x)
	r.touchFrom(x)
	r.fixWide(x, x+n)
	copy(r.cells[x:], r.cells[x+n:])
	r.fill(cols-n, cols, bg)
}

// scrollUp moves rows [top, bot] of the active screen up by n, blanking n rows at the
// bottom. Rows leaving the top of the main screen when top is row 0 go to history.
func (t *Terminal) scrollUp(top, bot, n int) {
	s := t.scr
	if n <= 0 || top > bot {
		return
	}
	n = min(n, bot-top+1)
	if top == 0 && s == t.main {
		for i := 0; i < n; i++ {
			t.pushHistory(s.rows[i])
		}
	}
	rotateUp(s.rows[top:bot+1], n)
	bg := t.cur.pen.BG
	for i := bot - n + 1; i <= bot; i++ {
		s.rows[i].clear(bg)
	}
}

// scrollDown moves rows [top, bot] down by n, blanking n rows at the top.
func (t *Terminal) scrollDown(top, bot, n int) {
	s := t.scr
	if n <= 0 || top > bot {
		return
	}
	n = min(n, bot-top+1)
	rotateDown(s.rows[top:bot+1], n)
	bg := t.cur.pen.BG
	for i := top; i < top+n; i++ {
		s.rows[i].clear(bg)
	}
}

// rotateUp rotates rs left by n: rs[n] becomes rs[0]; the first n rows move to the end.
func rotateUp(rs []*row, n int) {
	if n <= 0 || n >= len(rs) {
		return
	}
	if n == 1 {
		first := rs[0]
		copy(rs, rs[1:])
		rs[len(rs)-1] = first
		return
	}
	reverseRows(rs[:n])
	reverseRows(rs[n:])
	reverseRows(rs)
}

// rotateDown rotates rs right by n.
func rotateDown(rs []*row, n int) {
	if n <= 0 || n >= len(rs) {
		return
	}
	rotateUp(rs, len(rs)-n)
}

func reverseRows(rs []*row) {
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
}

// eraseDisplay implements ED: 0 below, 1 above, 2 all, 3 history.
func (t *Terminal) eraseDisplay(mode int) {
	s := t.scr
	bg := t.cur.pen.BG
	x, y := t.cur.x, t.cur.y
	switch mode {
	case 0:
		if !t.pastEdge() {
			r := s.rows[y]
			r.fixWide(x, x)
			r.fill(x, t.cols, bg)
			r.wrapped = false
		}
		for i := y + 1; i < t.rows; i++ {
			s.rows[i].clear(bg)
		}
	case 1:
		for i := 0; i < y; i++ {
			s.rows[i].clear(bg)
		}
		r := s.rows[y]
		end := min(x+1, t.cols)
		r.fixWide(0, end)
		r.fill(0, end, bg)
	case 2:
		for i := 0; i < t.rows; i++ {
			s.rows[i].clear(bg)
		}
	case 3:
		t.hist.clear()
	}
}

// eraseLine implements EL: 0 right of the cursor, 1 left, 2 the whole line.
func (t *Terminal) eraseLine(mode int) {
	r := t.scr.rows[t.cur.y]
	bg := t.cur.pen.BG
	x := t.cur.x
	switch mode {
	case 0:
		if t.pastEdge() {
			return
		}
		r.fixWide(x, x)
		r.fill(x, t.cols, bg)
		r.wrapped = false
	case 1:
		end := min(x+1, t.cols)
		r.fixWide(0, end)
		r.fill(0, end, bg)
	case 2:
		r.clear(bg)
	}
}

// pastEdge reports whether the cursor is in the pending-wrap state with autowrap on,
// where tmux places it one column past the last: the erases and shifts that start at
// the cursor (EL 0, the cursor row of ED 0, ECH, DCH, ICH) leave the row alone and the
// wrap stays pending. xterm erases the last column instead; tmux's way keeps the last
// character of full-width lines that programs end with EL (top's summary rows).
func (t *Terminal) pastEdge() bool { return t.cur.pending && t.modes.Autowrap }

// eraseChars implements ECH: blank n cells from the cursor without moving anything.
func (t *Terminal) eraseChars(n int) {
	r := t.scr.rows[t.cur.y]
	x := t.cur.x
	end := min(t.cols, x+n)
	r.fixWide(x, end)
	r.fill(x, end, t.cur.pen.BG)
}

// insertLines implements IL: n blank lines at the cursor row, inside the scroll region.
func (t *Terminal) insertLines(n int) {
	y := t.cur.y
	if y < t.margin.top || y > t.margin.bot {
		return
	}
	t.scrollDown(y, t.margin.bot, n)
	t.cur.pending = false
}

// deleteLines implements DL: delete n lines at the cursor row, inside the scroll region.
// Deleted lines never go to history.
func (t *Terminal) deleteLines(n int) {
	y := t.cur.y
	if y < t.margin.top || y > t.margin.bot {
		return
	}
	s := t.scr
	n = min(n, t.margin.bot-y+1)
	rotateUp(s.rows[y:t.margin.bot+1], n)
	for i := t.margin.bot - n + 1; i <= t.margin.bot; i++ {
		s.rows[i].clear(t.cur.pen.BG)
	}
	t.cur.pending = false
}

// alignmentTest implements DECALN: fill the screen with 'E'.
func (t *Terminal) alignmentTest() {
	for _, r := range t.scr.rows {
		r.touch() // every cell is written: lazy ones too
		for i := range r.cells {
			r.cells[i] = Cell{Rune: 'E', Width: 1}
		}
		r.hi = len(r.cells)
		r.wrapped = false
	}
	t.margin.top, t.margin.bot = 0, t.rows-1
	t.cur.x, t.cur.y, t.cur.pending = 0, 0, false
}
