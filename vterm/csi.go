package vterm

// This file dispatches control sequences (CSI): cursor movement, erasing, editing,
// scrolling, tab stops, modes and queries. Every count is clamped to the screen.

// csiDispatch runs CSI [prefix] params [intermediates] final.
func (t *Terminal) csiDispatch(final byte) {
	ps := &t.p
	var inter byte
	if ps.ni > 0 {
		inter = ps.inter[0]
		if ps.ni > 1 {
			return
		}
	}
	switch ps.prefix {
	case 0:
		if inter != 0 {
			t.csiInter(inter, final)
			return
		}
		t.csiPlain(final)
	case '?':
		t.csiPrivate(inter, final)
	case '>':
		t.csiGreater(inter, final)
	case '<':
		if final == 'u' && inter == 0 {
			t.scr.kitty.pop(t.count(0))
			t.syncKitty()
		}
	case '=':
		if final == 'u' && inter == 0 {
			t.kittySet(t.arg(0, 0), t.arg(1, 1))
		}
	}
}

// csiPlain runs a CSI without private marker or intermediates.
func (t *Terminal) csiPlain(final byte) {
	switch final {
	case '@': // ICH
		if t.pastEdge() {
			return
		}
		t.cur.pending = false
		t.scr.rows[t.cur.y].insertBlanks(t.cur.x, min(t.count(0), t.cols), t.cur.pen.BG)
	case 'A': // CUU
		t.cursorUp(t.count(0))
	case 'B', 'e': // CUD, VPR
		t.cursorDown(t.count(0))
	case 'C', 'a': // CUF, HPR
		t.cursorRight(t.count(0))
	case 'D': // CUB
		t.cursorLeft(t.count(0))
	case 'E': // CNL
		t.cursorDown(t.count(0))
		t.cur.x = 0
	case 'F': // CPL
		t.cursorUp(t.count(0))
		t.cur.x = 0
	case 'G', '`': // CHA, HPA
		t.cur.x = min(t.count(0), t.cols) - 1
		t.cur.pending = false
	case 'H', 'f': // CUP, HVP
		t.moveToOrigin(t.count(1)-1, t.count(0)-1)
	case 'I': // CHT
		t.tabForward(min(t.count(0), t.cols))
	case 'J': // ED
		t.eraseDisplay(t.arg(0, 0))
	case 'K': // EL
		t.eraseLine(t.arg(0, 0))
	case 'L': // IL
		t.insertLines(min(t.count(0), t.rows))
	case 'M': // DL
		t.deleteLines(min(t.count(0), t.rows))
	case 'P': // DCH
		if t.pastEdge() {
			return
		}
		t.scr.rows[t.cur.y].deleteCells(t.cur.x, min(t.count(0), t.cols), t.cur.pen.BG)
		t.cur.pending = false
	case 'S': // SU
		t.scrollUp(t.margin.top, t.margin.bot, min(t.count(0), t.rows))
	case 'T': // SD (with more parameters: xterm mouse highlight tracking, ignored)
		if t.p.np <= 1 {
			t.scrollDown(t.margin.top, t.margin.bot, min(t.count(0), t.rows))
		}
	case 'X': // ECH
		if t.pastEdge() {
			return
		}
		t.eraseChars(min(t.count(0), t.cols))
		t.cur.pending = false
	case 'Z': // CBT
		t.tabBackward(min(t.count(0), t.cols))
	case 'b': // REP
		t.repeat(t.count(0))
	case 'c': // DA1
		if t.arg(0, 0) == 0 {
			t.rbuf = append(t.rbuf[:0], "\x1b[?62;22c"...) // VT220 with ANSI colour
			t.sendReply(t.rbuf)
		}
	case 'd': // VPA
		t.moveToOrigin(t.cur.x, t.count(0)-1)
	case 'g': // TBC
		t.clearTabs(t.arg(0, 0))
	case 'h', 'l': // SM, RM
		for i := 0; i < max(1, t.p.np); i++ {
			t.setANSIMode(t.arg(i, 0), final == 'h')
		}
	case 'm':
		t.sgr()
	case 'n': // DSR
		t.deviceStatus(false)
	case 'r': // DECSTBM
		t.setMargins(t.count(0)-1, t.arg(1, t.rows)-1)
	case 's': // SCOSC
		t.saveCursor()
	case 't':
		t.windowOps()
	case 'u': // SCORC
		t.restoreCursor()
	}
}

// csiInter runs a CSI with one intermediate byte and no private marker.
func (t *Terminal) csiInter(inter, final byte) {
	switch {
	case inter == ' ' && final == 'q': // DECSCUSR
		if v := t.arg(0, 0); v <= int(CursorBar) {
			t.cur.shape = CursorShape(v)
		}
	case inter == '!' && final == 'p': // DECSTR
		t.softReset()
	case inter == '$' && final == 'p': // DECRQM (ANSI modes)
		t.reportMode(false, t.arg(0, 0))
	}
}

// csiPrivate runs CSI ? ... sequences.
func (t *Terminal) csiPrivate(inter, final byte) {
	if inter == '$' && final == 'p' {
		t.reportMode(true, t.arg(0, 0))
		return
	}
	if inter != 0 {
		return
	}
	switch final {
	case 'h', 'l':
		for i := 0; i < max(1, t.p.np); i++ {
			t.setPrivateMode(t.arg(i, 0), final == 'h')
		}
	case 'J': // DECSED: no protected cells here
		t.eraseDisplay(t.arg(0, 0))
	case 'K': // DECSEL
		t.eraseLine(t.arg(0, 0))
	case 'n':
		t.deviceStatus(true)
	case 'u':
		t.kittyQuery()
	}
}

// csiGreater runs CSI > ... sequences.
func (t *Terminal) csiGreater(inter, final byte) {
	if inter != 0 {
		return
	}
	switch final {
	case 'c': // DA2
		if t.arg(0, 0) == 0 {
			t.sendReply([]byte("\x1b[>1;10;0c"))
		}
	case 'q': // XTVERSION
		if t.arg(0, 0) == 0 {
			t.xtversion()
		}
	case 'u': // kitty keyboard push
		t.scr.kitty.push(uint8(t.arg(0, 0) & kittyMask))
		t.syncKitty()
	case 'm': // XTMODKEYS: only modifyOtherKeys (resource 4) is tracked
		if t.p.np == 0 {
			t.modes.ModifyOtherKeys = 0
		} else if t.arg(0, 0) == 4 {
			t.modes.ModifyOtherKeys = uint8(min(t.arg(1, 0), 2))
		}
	case 'n': // XTMODKEYS reset
		if t.arg(0, 0) == 4 {
			t.modes.ModifyOtherKeys = 0
		}
	}
}

// setMargins is DECSTBM: an invalid region is ignored; the cursor goes home.
func (t *Terminal) setMargins(top, bot int) {
	if bot <= 0 || bot >= t.rows {
		bot = t.rows - 1
	}
	top = max(0, top)
	if top >= bot {
		return
	}
	t.margin.top, t.margin.bot = top, bot
	t.moveToOrigin(0, 0)
}

// softReset is DECSTR.
func (t *Terminal) softReset() {
	t.modes.Insert = false
	t.modes.Origin = false
	t.modes.Autowrap = true
	t.modes.AppCursor = false
	t.modes.AppKeypad = false
	t.cur.hidden = false
	t.cur.pen = Style{}
	t.cur.g, t.cur.gl = [2]charset{}, 0
	t.cur.pending = false
	t.margin.top, t.margin.bot = 0, t.rows-1
	t.scr.saved = savedCursor{}
}

// fullReset is RIS: both screens cleared, modes and tab stops reset. History is kept.
func (t *Terminal) fullReset() {
	t.scr = t.main
	for _, s := range []*screen{t.main, t.alt} {
		for _, r := range s.rows {
			r.clear(DefaultColor)
		}
	}
	t.resetState()
	resetTabs(t.tabs, 0)
	t.title = ""
	clear(t.titles)
	t.titles = t.titles[:0]
	t.setColors(t.colors)
}

// kittySet is CSI = flags ; mode u: 1 sets, 2 adds, 3 removes flags.
func (t *Terminal) kittySet(flags, mode int) {
	k := &t.scr.kitty
	f := uint8(flags & kittyMask)
	switch mode {
	case 1:
		k.set(f)
	case 2:
		k.set(k.top() | f)
	case 3:
		k.set(k.top() &^ f)
	}
	t.syncKitty()
}

// syncKitty copies the active screen's kitty flags into the modes.
func (t *Terminal) syncKitty() {
	t.modes.KittyFlags = t.scr.kitty.top()
}
