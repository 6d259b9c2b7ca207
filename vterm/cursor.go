package vterm

// This file holds the cursor: position and the pending-wrap flag, moves, line feeds and
// reverse index, save and restore (DECSC/DECRC), and tab stops.

// charset is a G0/G1 character set designation.
type charset uint8

const (
	charsetASCII   charset = iota
	charsetSpecial         // DEC special graphics (line drawing)
)

// cursorState is the cursor and everything DECSC saves with it.
type cursorState struct {
	x, y int
	// pending is xterm's wrap flag: a character was written in the last column and the
	// next printable character wraps first (with autowrap off, it overwrites that
	// column instead). A combining mark in this state joins the cell under the cursor.
	pending bool
	pen     Style
	hidden  bool
	shape   CursorShape
	g       [2]charset
	gl      uint8 // 0: G0 active (SI), 1: G1 active (SO)
}

// savedCursor is what DECSC (and 1048/1049) saved for one screen.
type savedCursor struct {
	valid   bool
	x, y    int
	pending bool
	pen     Style
	g       [2]charset
	gl      uint8
	origin  bool
}

// activeCharset is the character set now mapping printable ASCII.
func (t *Terminal) activeCharset() charset { return t.cur.g[t.cur.gl&1] }

// saveCursor implements DECSC for the active screen. Like xterm and tmux it does not
// save the autowrap mode (DECAWM): the "wrap flag" DEC's manuals list is the pending
// wrap, and a program that turns autowrap off after saving keeps it off on restore.
func (t *Terminal) saveCursor() {
	c := &t.cur
	t.scr.saved = savedCursor{valid: true, x: c.x, y: c.y, pending: c.pending, pen: c.pen,
		g: c.g, gl: c.gl, origin: t.modes.Origin}
}

// restoreCursor implements DECRC: without a saved cursor it homes and resets the pen.
func (t *Terminal) restoreCursor() {
	s := t.scr.saved
	c := &t.cur
	if !s.valid {
		c.x, c.y, c.pending = 0, 0, false
		c.pen = Style{}
		c.g, c.gl = [2]charset{}, 0
		t.modes.Origin = false
		return
	}
	c.x, c.y = min(s.x, t.cols-1), min(s.y, t.rows-1)
	c.pending = s.pending && c.x == t.cols-1
	c.pen, c.g, c.gl = s.pen, s.g, s.gl
	t.modes.Origin = s.origin
}

// moveTo puts the cursor at (x, y) in screen coordinates, clamped to the screen.
func (t *Terminal) moveTo(x, y int) {
	t.cur.x = max(0, min(x, t.cols-1))
	t.cur.y = max(0, min(y, t.rows-1))
	t.cur.pending = false
}

// moveToOrigin is CUP/HVP/VPA: y counts from the top margin in origin mode and stays
// inside the scroll region there.
func (t *Terminal) moveToOrigin(x, y int) {
	if t.modes.Origin {
		y += t.margin.top
		y = max(t.margin.top, min(y, t.margin.bot))
		t.cur.x = max(0, min(x, t.cols-1))
		t.cur.y = y
		t.cur.pending = false
		return
	}
	t.moveTo(x, y)
}

// cursorUp moves up n rows, stopping at the top margin when starting inside the region.
func (t *Terminal) cursorUp(n int) {
	top := 0
	if t.cur.y >= t.margin.top {
		top = t.margin.top
	}
	t.cur.y = max(top, t.cur.y-n)
	t.cur.pending = false
}

// cursorDown moves down n rows, stopping at the bottom margin when starting inside it.
func (t *Terminal) cursorDown(n int) {
	bot := t.rows - 1
	if t.cur.y <= t.margin.bot {
		bot = t.margin.bot
	}
	t.cur.y = min(bot, t.cur.y+n)
	t.cur.pending = false
}

func (t *Terminal) cursorLeft(n int) {
	t.cur.x = max(0, min(t.cur.x, t.cols-1)-n)
	t.cur.pending = false
}

func (t *Terminal) cursorRight(n int) {
	t.cur.x = min(t.cols-1, t.cur.x+n)
	t.cur.pending = false
}

// index is IND / LF: down one row, scrolling the region when at its bottom.
func (t *Terminal) index() {
	if t.cur.y == t.margin.bot {
		t.scrollUp(t.margin.top, t.margin.bot, 1)
	} else if t.cur.y < t.rows-1 {
		t.cur.y++
	}
	t.cur.pending = false
}

// reverseIndex is RI: up one row, scrolling the region down when at its top.
func (t *Terminal) reverseIndex() {
	if t.cur.y == t.margin.top {
		t.scrollDown(t.margin.top, t.margin.bot, 1)
	} else if t.cur.y > 0 {
		t.cur.y--
	}
	t.cur.pending = false
}

// lineFeed is LF/VT/FF; with LNM it also returns the carriage.
func (t *Terminal) lineFeed() {
	t.index()
	if t.lnm {
		t.cur.x = 0
	}
}

func (t *Terminal) carriageReturn() {
	t.cur.x = 0
	t.cur.pending = false
}

// backspace moves left one column; from the pending-wrap state it goes to the column
// before the last, as xterm does. It never wraps back to the previous line.
func (t *Terminal) backspace() {
	if t.cur.pending {
		t.cur.pending = false
	}
	if t.cur.x > 0 {
		t.cur.x--
	}
}

// resetTabs sets the default tab stops (every 8 columns) from column from on.
func resetTabs(tabs []bool, from int) {
	for i := from; i < len(tabs); i++ {
		tabs[i] = i > 0 && i%8 == 0
	}
}

// tabForward is HT / CHT: to the n-th next tab stop or the last column.
func (t *Terminal) tabForward(n int) {
	x := t.cur.x
	for ; n > 0 && x < t.cols-1; n-- {
		x++
		for x < t.cols-1 && !t.tabs[x] {
			x++
		}
	}
	t.cur.x = x
	t.cur.pending = false
}

// tabBackward is CBT: to the n-th previous tab stop or the first column.
func (t *Terminal) tabBackward(n int) {
	x := t.cur.x
	for ; n > 0 && x > 0; n-- {
		x--
		for x > 0 && !t.tabs[x] {
			x--
		}
	}
	t.cur.x = x
	t.cur.pending = false
}

// clearTabs is TBC: 0 clears the stop at the cursor, 3 clears all.
func (t *Terminal) clearTabs(mode int) {
	switch mode {
	case 0:
		t.tabs[t.cur.x] = false
	case 3:
		clear(t.tabs)
	}
}
