package keys

import "strconv"

// Mouse reports, both directions. The button byte is xterm's: the low two bits pick
// left, middle, right (3 = none or "released"), 64 adds the wheel group, 128 the extra
// buttons 8-11, 32 marks motion, and 4, 8, 16 are Shift, Alt (Meta) and Ctrl.

const (
	mouseShift  = 4
	mouseAlt    = 8
	mouseCtrl   = 16
	mouseMotion = 32
	mouseWheel  = 64
	mouseExtra  = 128
	x10Limit    = 223 // the largest 1-based coordinate a single byte can carry (255 - 32)
)

// decodeButton splits a button byte into button, motion flag and modifiers.
func decodeButton(cb int) (MouseButton, bool, Mod) {
	var m Mod
	if cb&mouseShift != 0 {
		m |= ModShift
	}
	if cb&mouseAlt != 0 {
		m |= ModAlt
	}
	if cb&mouseCtrl != 0 {
		m |= ModCtrl
	}
	low := MouseButton(cb & 3)
	var b MouseButton
	switch {
	case cb&mouseExtra != 0:
		b = ButtonBack + low
	case cb&mouseWheel != 0:
		b = WheelUp + low
	case low == 3:
		b = ButtonNone
	default:
		b = ButtonLeft + low
	}
	return b, cb&mouseMotion != 0, m
}

// legacyMouse builds a Mouse from a default- or urxvt-encoded report, where a release
// does not say which button was released.
func legacyMouse(cb, x, y int, raw []byte) Mouse {
	b, motion, m := decodeButton(cb)
	ev := Mouse{X: max(x-1, 0), Y: max(y-1, 0), Button: b, Mod: m, Raw: raw}
	switch {
	case motion:
		ev.Action = MouseMotion
	case b == ButtonNone:
		ev.Action = MouseRelease
	}
	return ev
}

// decodeX10 decodes "CSI M Cb Cx Cy" (each byte offset by 32, coordinates 1-based).
func decodeX10(b []byte) Mouse {
	return legacyMouse(int(b[3])-32, int(b[4])-32, int(b[5])-32, clone(b))
}

// decodeURXVTMouse decodes urxvt's "CSI Cb ; x ; y M" (Cb offset by 32).
func decodeURXVTMouse(p params, raw []byte) (Mouse, bool) {
	cb, x, y := p.get(0, 0), p.get(1, 0), p.get(2, 0)
	if len(p) != 3 || cb < 32 || x < 1 || y < 1 {
		return Mouse{}, false
	}
	return legacyMouse(cb-32, x, y, raw), true
}

// decodeSGRMouse decodes SGR's "CSI < Cb ; x ; y M" (press, motion) and "... m"
// (release of button Cb).
func decodeSGRMouse(p params, final byte, raw []byte) (Mouse, bool) {
	cb, x, y := p.get(0, 0), p.get(1, 0), p.get(2, 0)
	if len(p) != 3 || cb < 0 || x < 1 || y < 1 {
		return Mouse{}, false
	}
	b, motion, m := decodeButton(cb)
	ev := Mouse{X: x - 1, Y: y - 1, Button: b, Mod: m, Raw: raw}
	switch {
	case final == 'm':
		ev.Action = MouseRelease
	case motion:
		ev.Action = MouseMotion
	}
	return ev, true
}

// EncodeMouse returns what xterm sends a program for ev at the pane-local 0-based cell
// (x, y) in the given tracking mode and encoding, or nil when the mode does not report
// it: X10 mode reports presses only (without modifiers), normal mode presses and
// releases, button mode adds motion while a button is held, any mode adds all motion.
// Wheel "releases" are never reported. The default encoding cannot carry coordinates
// past 223, so such events are dropped.
func EncodeMouse(ev Mouse, x, y int, mode MouseMode, enc MouseEncoding) []byte {
	if x < 0 || y < 0 {
		return nil
	}
	switch mode {
	case MouseTrackX10:
		if ev.Action != MousePress {
			return nil
		}
	case MouseTrackNormal:
		if ev.Action == MouseMotion {
			return nil
		}
	case MouseTrackButton:
		if ev.Action == MouseMotion && ev.Button == ButtonNone {
			return nil
		}
	case MouseTrackAny:
	default:
		return nil
	}
	wheel := ev.Button >= WheelUp && ev.Button <= WheelRight
	if (wheel && ev.Action == MouseRelease) || (ev.Button == ButtonNone && ev.Action == MousePress) {
		return nil
	}
	var cb int
	switch {
	case ev.Button == ButtonNone:
		cb = 3
	case ev.Button <= ButtonRight:
		cb = int(ev.Button - ButtonLeft)
	case wheel:
		cb = mouseWheel + int(ev.Button-WheelUp)
	case ev.Button <= Button11:
		cb = mouseExtra + int(ev.Button-ButtonBack)
	default:
		return nil
	}
	if ev.Action == MouseRelease && enc != MouseEncSGR {
		cb = 3 // only SGR says which button was released
	}
	if ev.Action == MouseMotion {
		cb |= mouseMotion
	}
	if mode != MouseTrackX10 {
		if ev.Mod&ModShift != 0 {
			cb |= mouseShift
		}
		if ev.Mod&ModAlt != 0 {
			cb |= mouseAlt
		}
		if ev.Mod&ModCtrl != 0 {
			cb |= mouseCtrl
		}
	}
	switch enc {
	case MouseEncSGR:
		final := byte('M')
		if ev.Action == MouseRelease {
			final = 'm'
		}
		b := append([]byte("\x1b[<"), strconv.Itoa(cb)...)
		b = append(append(b, ';'), strconv.Itoa(x+1)...)
		b = append(append(b, ';'), strconv.Itoa(y+1)...)
		return append(b, final)
	case MouseEncURXVT:
		b := append([]byte("\x1b["), strconv.Itoa(cb+32)...)
		b = append(append(b, ';'), strconv.Itoa(x+1)...)
		b = append(append(b, ';'), strconv.Itoa(y+1)...)
		return append(b, 'M')
	}
	if x+1 > x10Limit || y+1 > x10Limit {
		return nil
	}
	return []byte{0x1b, '[', 'M', byte(cb + 32), byte(x + 1 + 32), byte(y + 1 + 32)}
}

// EncodeFocus returns the focus report xterm sends when focus events (DECSET 1004) are
// on: CSI I on gaining focus, CSI O on losing it.
func EncodeFocus(in bool) []byte {
	if in {
		return []byte("\x1b[I")
	}
	return []byte("\x1b[O")
}
