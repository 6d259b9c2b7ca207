package keys

// Tables shared by the decoder and the encoders: where each functional key lives in
// the CSI, SS3 and kitty encodings.

// Kitty's private-use key numbers for the functional keys that have no legacy form
// (kitty keyboard protocol, "functional key definitions"). Each block is consecutive
// in both kitty's numbering and Code.
const (
	kittyCapsLock  = 57358 // CAPS_LOCK .. MENU
	kittyF13       = 57376 // F13 .. F35
	kittyKP0       = 57399 // KP_0 .. KP_BEGIN
	kittyMediaPlay = 57428 // MEDIA_PLAY .. MUTE_VOLUME
	kittyLeftShift = 57441 // LEFT_SHIFT .. ISO_LEVEL5_SHIFT
)

// kittyBlocks maps Code ranges to kitty numbers.
var kittyBlocks = []struct {
	first, last Code
	base        int
}{
	{KeyCapsLock, KeyMenu, kittyCapsLock},
	{KeyF13, KeyF35, kittyF13},
	{KeyKP0, KeyKPBegin, kittyKP0},
	{KeyMediaPlay, KeyMuteVolume, kittyMediaPlay},
	{KeyLeftShift, KeyISOLevel5Shift, kittyLeftShift},
}

// csiForm is a functional key's CSI form: "CSI num ; mods final", with num 1 omitted
// when nothing follows it for letter finals.
type csiForm struct {
	num   int
	final byte
}

// letterKeys are the keys whose CSI/SS3 form ends in a letter (xterm "PC-style").
var letterKeys = map[Code]byte{
	KeyUp: 'A', KeyDown: 'B', KeyRight: 'C', KeyLeft: 'D', KeyBegin: 'E', KeyEnd: 'F',
	KeyHome: 'H', KeyF1: 'P', KeyF2: 'Q', KeyF3: 'R', KeyF4: 'S',
}

// tildeKeys are the keys whose CSI form is "CSI num ~" in xterm.
var tildeKeys = map[Code]int{
	KeyInsert: 2, KeyDelete: 3, KeyPgUp: 5, KeyPgDn: 6,
	KeyF5: 15, KeyF6: 17, KeyF7: 18, KeyF8: 19, KeyF9: 20, KeyF10: 21, KeyF11: 23, KeyF12: 24,
}

// tildeDecode maps "CSI num ~" numbers to keys: xterm's, the VT220/Linux console's
// Home (1, 7) and End (4, 8), rxvt's F1-F4 (11-14) and the VT220 F13-F20.
var tildeDecode = map[int]Code{
	1: KeyHome, 2: KeyInsert, 3: KeyDelete, 4: KeyEnd, 5: KeyPgUp, 6: KeyPgDn, 7: KeyHome, 8: KeyEnd,
	11: KeyF1, 12: KeyF2, 13: KeyF3, 14: KeyF4, 15: KeyF5, 17: KeyF6, 18: KeyF7, 19: KeyF8,
	20: KeyF9, 21: KeyF10, 23: KeyF11, 24: KeyF12, 25: KeyF13, 26: KeyF14, 28: KeyF15,
	29: KeyF16, 31: KeyF17, 32: KeyF18, 33: KeyF19, 34: KeyF20,
}

// letterDecode maps CSI/SS3 final letters to keys.
var letterDecode = map[byte]Code{
	'A': KeyUp, 'B': KeyDown, 'C': KeyRight, 'D': KeyLeft, 'E': KeyBegin, 'F': KeyEnd,
	'H': KeyHome, 'P': KeyF1, 'Q': KeyF2, 'R': KeyF3, 'S': KeyF4,
}

// keypadApp maps keypad keys to the final byte of their SS3 form in application
// keypad mode (DECKPAM), and keypadText to what they type in numeric mode.
var (
	keypadApp = map[Code]byte{
		KeyKP0: 'p', KeyKP1: 'q', KeyKP2: 'r', KeyKP3: 's', KeyKP4: 't', KeyKP5: 'u',
		KeyKP6: 'v', KeyKP7: 'w', KeyKP8: 'x', KeyKP9: 'y', KeyKPDecimal: 'n',
		KeyKPDivide: 'o', KeyKPMultiply: 'j', KeyKPSubtract: 'm', KeyKPAdd: 'k',
		KeyKPEnter: 'M', KeyKPEqual: 'X', KeyKPSeparator: 'l',
	}
	keypadText = map[Code]rune{
		KeyKP0: '0', KeyKP1: '1', KeyKP2: '2', KeyKP3: '3', KeyKP4: '4', KeyKP5: '5',
		KeyKP6: '6', KeyKP7: '7', KeyKP8: '8', KeyKP9: '9', KeyKPDecimal: '.',
		KeyKPDivide: '/', KeyKPMultiply: '*', KeyKPSubtract: '-', KeyKPAdd: '+',
		KeyKPEqual: '=', KeyKPSeparator: ',',
	}
	keypadAppDecode = invertBytes(keypadApp)
)

// keypadNav maps the keypad's navigation keys (Num Lock off) to the main keys they
// send the same bytes as.
var keypadNav = map[Code]Code{
	KeyKPLeft: KeyLeft, KeyKPRight: KeyRight, KeyKPUp: KeyUp, KeyKPDown: KeyDown,
	KeyKPPgUp: KeyPgUp, KeyKPPgDn: KeyPgDn, KeyKPHome: KeyHome, KeyKPEnd: KeyEnd,
	KeyKPInsert: KeyInsert, KeyKPDelete: KeyDelete, KeyKPBegin: KeyBegin,
}

func invertBytes(m map[Code]byte) map[byte]Code {
	r := make(map[byte]Code, len(m))
	for c, b := range m {
		r[b] = c
	}
	return r
}

// kittyForm returns the CSI form kitty uses for a functional key.
func kittyForm(c Code) (csiForm, bool) {
	switch c {
	case KeyEscape:
		return csiForm{27, 'u'}, true
	case KeyEnter:
		return csiForm{13, 'u'}, true
	case KeyTab:
		return csiForm{9, 'u'}, true
	case KeyBackspace:
		return csiForm{127, 'u'}, true
	case KeyF3:
		// kitty moved F3 from "CSI R" to "CSI 13 ~": "CSI 1;m R" reads like a cursor
		// position report.
		return csiForm{13, '~'}, true
	}
	if f, ok := letterKeys[c]; ok {
		return csiForm{1, f}, true
	}
	if n, ok := tildeKeys[c]; ok {
		return csiForm{n, '~'}, true
	}
	for _, b := range kittyBlocks {
		if c >= b.first && c <= b.last {
			return csiForm{b.base + int(c-b.first), 'u'}, true
		}
	}
	return csiForm{}, false
}

// kittyCode maps a kitty "CSI num u" key number to a functional key.
func kittyCode(n int) (Code, bool) {
	switch n {
	case 27:
		return KeyEscape, true
	case 13:
		return KeyEnter, true
	case 9:
		return KeyTab, true
	case 127, 8:
		return KeyBackspace, true
	}
	for _, b := range kittyBlocks {
		if n >= b.base && n <= b.base+int(b.last-b.first) {
			return b.first + Code(n-b.base), true
		}
	}
	return 0, false
}
