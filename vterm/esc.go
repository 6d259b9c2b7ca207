package vterm

// This file runs C0 controls and escape sequences (ESC [intermediates] final).

// execute runs a C0 control.
func (t *Terminal) execute(b byte) {
	switch b {
	case 0x07:
		t.bells++
		t.event(Event{Kind: EventBell})
	case 0x08:
		t.backspace()
	case 0x09:
		t.tabForward(1)
	case 0x0a, 0x0b, 0x0c:
		t.lineFeed()
	case 0x0d:
		t.carriageReturn()
	case 0x0e:
		t.cur.gl = 1
	case 0x0f:
		t.cur.gl = 0
	}
}

// escDispatch runs an escape sequence ESC [intermediates] final.
func (t *Terminal) escDispatch(final byte) {
	ps := &t.p
	if ps.ni > 0 {
		switch ps.inter[0] {
		case '(', ')':
			g := 0
			if ps.inter[0] == ')' {
				g = 1
			}
			if final == '0' {
				t.cur.g[g] = charsetSpecial
			} else {
				t.cur.g[g] = charsetASCII
			}
		case '#':
			if final == '8' {
				t.alignmentTest()
			}
		}
		return
	}
	switch final {
	case '7':
		t.saveCursor()
	case '8':
		t.restoreCursor()
	case 'D':
		t.index()
	case 'E':
		t.index()
		t.cur.x = 0
	case 'H':
		t.tabs[t.cur.x] = true
	case 'M':
		t.reverseIndex()
	case 'c':
		t.fullReset()
	case '=':
		t.modes.AppKeypad = true
	case '>':
		t.modes.AppKeypad = false
	}
}
