package vterm

// This file sets, resets and reports modes (SM/RM, DECSET/DECRST, DECRQM) and switches
// between the main and alternate screens.

// kittyMask keeps the kitty keyboard flags the protocol defines (5 bits).
const kittyMask = 0x1f

// setANSIMode is SM/RM.
func (t *Terminal) setANSIMode(m int, on bool) {
	switch m {
	case 4:
		t.modes.Insert = on
	case 20:
		t.lnm = on
	}
}

// setPrivateMode is DECSET/DECRST.
func (t *Terminal) setPrivateMode(m int, on bool) {
	md := &t.modes
	switch m {
	case 1:
		md.AppCursor = on
	case 6:
		md.Origin = on
		t.moveToOrigin(0, 0)
	case 7:
		if md.Autowrap != on {
			// a pending wrap does not survive the change (nor a last-column write
			// made without autowrap start wrapping)
			t.cur.pending = false
		}
		md.Autowrap = on
	case 25:
		t.cursorVisible(on)
	case 66:
		md.AppKeypad = on
	case 9, 1000, 1002, 1003:
		if on {
			md.Mouse = mouseModeOf(m)
		} else {
			md.Mouse = MouseNone
		}
	case 1004:
		md.FocusEvents = on
	case 1006:
		if on {
			md.MouseEnc = MouseEncSGR
		} else if md.MouseEnc == MouseEncSGR {
			md.MouseEnc = MouseEncDefault
		}
	case 1015:
		if on {
			md.MouseEnc = MouseEncURXVT
		} else if md.MouseEnc == MouseEncURXVT {
			md.MouseEnc = MouseEncDefault
		}
	case 1007:
		md.AltScroll = on
	case 2004:
		md.BracketedPaste = on
	case 2026:
		md.SyncOutput = on
		t.frames.synced = t.frames.synced || on
	case 47:
		t.switchScreen(on, false, false)
	case 1047:
		t.switchScreen(on, false, !on)
	case 1048:
		if on {
			t.saveCursor()
		} else {
			t.restoreCursor()
		}
	case 1049:
		t.switchScreen(on, true, on)
	}
}

func mouseModeOf(m int) MouseMode {
	switch m {
	case 9:
		return MouseX10
	case 1000:
		return MouseNormal
	case 1002:
		return MouseButton
	default:
		return MouseAny
	}
}

// switchScreen enters (on) or leaves the alternate screen. cursor saves the cursor on
// entry and restores it on exit (1049); clearAlt clears the alternate screen (on entry
// for 1049, on exit for 1047). Switching to the screen already active does nothing.
func (t *Terminal) switchScreen(on, cursor, clearAlt bool) {
	if on == (t.scr == t.alt) {
		return
	}
	if on {
		if cursor {
			t.saveCursor() // saved on the main screen
		}
		t.scr = t.alt
		if clearAlt {
			for _, r := range t.alt.rows {
				r.clear(DefaultColor)
			}
		}
	} else {
		if clearAlt {
			for _, r := range t.alt.rows {
				r.clear(DefaultColor)
			}
		}
		t.scr = t.main
		if cursor {
			t.restoreCursor()
		}
	}
	t.cur.pending = false
	t.syncKitty()
}

// privateModeState is the DECRQM answer for a private mode: 1 set, 2 reset, 0 unknown.
func (t *Terminal) privateModeState(m int) int {
	md := &t.modes
	var on bool
	switch m {
	case 1:
		on = md.AppCursor
	case 6:
		on = md.Origin
	case 7:
		on = md.Autowrap
	case 25:
		on = !t.cur.hidden
	case 66:
		on = md.AppKeypad
	case 9, 1000, 1002, 1003:
		on = md.Mouse != MouseNone && md.Mouse == mouseModeOf(m)
	case 1004:
		on = md.FocusEvents
	case 1006:
		on = md.MouseEnc == MouseEncSGR
	case 1015:
		on = md.MouseEnc == MouseEncURXVT
	case 1007:
		on = md.AltScroll
	case 2004:
		on = md.BracketedPaste
	case 2026:
		on = md.SyncOutput
	case 47, 1047, 1049:
		on = t.scr == t.alt
	default:
		return 0
	}
	if on {
		return 1
	}
	return 2
}

// reportMode answers DECRQM: CSI [?] mode ; state $ y.
func (t *Terminal) reportMode(private bool, m int) {
	state := 0
	if private {
		state = t.privateModeState(m)
	} else {
		switch m {
		case 4:
			state = boolState(t.modes.Insert)
		case 20:
			state = boolState(t.lnm)
		}
	}
	b := append(t.rbuf[:0], "\x1b["...)
	if private {
		b = append(b, '?')
	}
	b = appendInt(b, m)
	b = append(b, ';')
	b = appendInt(b, state)
	b = append(b, "$y"...)
	t.rbuf = b
	t.sendReply(b)
}

func boolState(on bool) int {
	if on {
		return 1
	}
	return 2
}
