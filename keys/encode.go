package keys

import (
	"strconv"
	"unicode/utf8"
)

// Mode is what a pane's program asked for that changes how keys are encoded.
type Mode struct {
	// AppCursor is DECCKM (DECSET 1): unmodified cursor keys and Home/End send SS3.
	AppCursor bool
	// AppKeypad is DECKPAM: keypad keys send SS3 sequences instead of their characters.
	AppKeypad bool
	// KittyFlags are the kitty keyboard protocol flags the program pushed (0: legacy).
	KittyFlags uint8
}

// The kitty keyboard protocol's progressive enhancement flags.
const (
	KittyDisambiguate  = 1  // escape codes for Esc and modified keys
	KittyReportEvents  = 2  // report repeats and releases
	KittyReportAltKeys = 4  // report shifted and base-layout keys
	KittyReportAllKeys = 8  // every key as an escape code, text included
	KittyReportText    = 16 // embed the key's text in the escape code
)

// Encode returns the bytes a terminal sends a program in mode m when k is typed: what
// xterm sends (legacy encoding) when m.KittyFlags is 0, what kitty sends under those
// flags otherwise. It returns nil for events the program would not receive: releases
// (unless the kitty flags ask for them), lone modifier keys (unless kitty flag 8), and
// keys legacy terminals have no encoding for. A KeyUnknown is passed through as its
// Raw bytes.
//
// In legacy mode modifiers that have no legacy encoding are lost the way they are in
// xterm: shift+enter sends CR like Enter, ctrl+1 sends "1". (xterm's modifyOtherKeys
// would tell them apart, but a pane cannot ask for it here, so legacy is right.)
func Encode(k Key, m Mode) []byte {
	if m.KittyFlags != 0 {
		return encodeKitty(k, m)
	}
	if k.Event == KeyRelease {
		return nil
	}
	return encodeLegacy(k, m)
}

// xtermMods is xterm's modifier parameter, 1 + (Shift 1, Alt 2, Ctrl 4, Meta 8).
func xtermMods(m Mod) int {
	return 1 + int(m&(ModShift|ModAlt|ModCtrl|ModSuper))
}

// encodeLegacy is xterm's encoding with its default resources and metaSendsEscape
// (Alt prefixes ESC), Backspace sending DEL and modifyOtherKeys off.
func encodeLegacy(k Key, m Mode) []byte {
	mods := k.Mod &^ modLocks
	alt := mods&ModAlt != 0
	switch k.Code {
	case KeyRune:
		return legacyRune(k, mods)
	case KeyUnknown:
		return clone(k.Raw)
	case KeyEnter:
		return escPrefix(alt, "\r")
	case KeyTab:
		if mods&ModShift != 0 {
			return escPrefix(alt, "\x1b[Z") // back-tab (CBT)
		}
		return escPrefix(alt, "\t")
	case KeyBackspace:
		if mods&ModCtrl != 0 {
			return escPrefix(alt, "\b")
		}
		return escPrefix(alt, "\x7f")
	case KeyEscape:
		return escPrefix(alt, "\x1b")
	}
	code := k.Code
	if c, ok := keypadNav[code]; ok {
		code = c // the keypad's navigation keys send what the main ones do
	}
	if f, ok := keypadApp[code]; ok {
		switch {
		case m.AppKeypad:
			return escPrefix(alt, "\x1bO"+string(f))
		case code == KeyKPEnter:
			return escPrefix(alt, "\r")
		}
		return legacyRune(Key{Code: KeyRune, Rune: keypadText[code], Mod: mods}, mods)
	}
	// xterm's terminfo: F13-F24 are shift+F1-F12, F25-F35 ctrl+F1-F11.
	switch {
	case code >= KeyF13 && code <= KeyF24:
		code, mods = code-12, mods|ModShift
	case code >= KeyF25 && code <= KeyF35:
		code, mods = code-24, mods|ModCtrl
	}
	p := xtermMods(mods)
	if f, ok := letterKeys[code]; ok {
		switch {
		case p > 1:
			return csiSeq(1, p, f) // modifiers always use the CSI form: CSI 1 ; p A
		case m.AppCursor || (code >= KeyF1 && code <= KeyF4):
			return []byte{0x1b, 'O', f} // SS3: DECCKM cursor keys, and F1-F4 always
		}
		return []byte{0x1b, '[', f}
	}
	if n, ok := tildeKeys[code]; ok {
		if p > 1 {
			return csiSeq(n, p, '~')
		}
		return csiSeq(n, 0, '~')
	}
	return nil // lock, media and modifier keys: legacy terminals send nothing
}

// legacyRune encodes a character key: Ctrl maps to the C0 control xterm sends (or
// leaves the character alone when there is none), Alt prefixes ESC.
func legacyRune(k Key, mods Mod) []byte {
	r := k.char()
	var b []byte
	if mods&ModCtrl != 0 {
		if c, ok := ctrlByte(r); ok {
			b = []byte{c}
		}
	} else if k.Text != "" && mods&^(ModShift|modLocks) == 0 {
		b = []byte(k.Text)
	}
	if b == nil {
		if !utf8.ValidRune(r) || r < 0x20 || r == 0x7f {
			return nil
		}
		b = utf8.AppendRune(nil, r)
	}
	if mods&ModAlt != 0 {
		return append([]byte{0x1b}, b...)
	}
	return b
}

// ctrlByte is the control character xterm sends for ctrl+r: letters map to 0x01-0x1a
// whatever their case, and the VT220 digit and symbol aliases to NUL, ESC, FS, GS, RS,
// US and DEL.
func ctrlByte(r rune) (byte, bool) {
	switch {
	case r >= 'a' && r <= 'z':
		return byte(r - 'a' + 1), true
	case r >= 'A' && r <= 'Z':
		return byte(r - 'A' + 1), true
	}
	switch r {
	case ' ', '@', '2':
		return 0x00, true
	case '[', '3':
		return 0x1b, true
	case '\\', '4':
		return 0x1c, true
	case ']', '5':
		return 0x1d, true
	case '^', '6', '~':
		return 0x1e, true
	case '_', '7', '/':
		return 0x1f, true
	case '?', '8':
		return 0x7f, true
	}
	return 0, false
}

// escPrefix returns s, with ESC in front when alt is set.
func escPrefix(alt bool, s string) []byte {
	if alt {
		return append([]byte{0x1b}, s...)
	}
	return []byte(s)
}

// csiSeq formats "CSI n ; p final", leaving out p when it is 0 and n when both n is
// 1 and p is 0.
func csiSeq(n, p int, final byte) []byte {
	b := []byte{0x1b, '['}
	if n != 1 || p != 0 {
		b = strconv.AppendInt(b, int64(n), 10)
	}
	if p != 0 {
		b = strconv.AppendInt(append(b, ';'), int64(p), 10)
	}
	return append(b, final)
}
