package keys

import "unicode/utf8"

// The escape-sequence half of the decoder: ESC-prefixed keys, CSI, SS3 and the
// ESC-introduced strings (OSC, DCS, APC, SOS, PM). These functions have no side
// effects on the Decoder: they report a paste start or an over-long sequence with the
// beginPaste and beginSkip values, which the decode loop acts on.

// beginPaste is returned for "CSI 200 ~": the decode loop enters paste mode.
type beginPaste struct{ raw []byte }

// beginSkip is returned for an over-long unterminated sequence: the decode loop emits
// raw as a Reply and discards the rest of the sequence.
type beginSkip struct {
	kind skipKind
	raw  []byte
}

// escape decodes a sequence that starts with ESC.
func (d *Decoder) escape(b []byte, final bool) (any, int) {
	if len(b) == 1 {
		if final {
			return Key{Code: KeyEscape, Raw: clone(b)}, 1
		}
		return nil, 0
	}
	switch b[1] {
	case '[':
		return d.csi(b, final)
	case 'O':
		return d.ss3(b, final)
	case ']', 'P', '_':
		return d.str(b, final)
	case 0x1b:
		return d.escEsc(b, final)
	}
	return d.alt(b, final)
}

// alt decodes ESC followed by one key as that key with Alt (xterm's metaSendsEscape,
// what every current terminal does for Alt).
func (d *Decoder) alt(b []byte, final bool) (any, int) {
	ev, n := d.next(b[1:], final)
	if n == 0 {
		return nil, 0
	}
	k, ok := ev.(Key)
	if !ok || k.Code == KeyUnknown || k.Mod&ModAlt != 0 {
		return Key{Code: KeyEscape, Raw: clone(b[:1])}, 1
	}
	k.Mod |= ModAlt
	k.Raw = clone(b[:1+n])
	return k, 1 + n
}

// escEsc decodes ESC ESC: Alt plus the key the second ESC starts (older terminals send
// alt+up as ESC ESC [ A), or else a plain Escape followed by whatever comes next (two
// Escape presses read together stay two Escape keys).
func (d *Decoder) escEsc(b []byte, final bool) (any, int) {
	if len(b) == 2 && !final {
		return nil, 0
	}
	if len(b) >= 3 && (b[2] == '[' || b[2] == 'O') {
		ev, n := d.escape(b[1:], final)
		if n == 0 {
			return nil, 0
		}
		if k, ok := ev.(Key); ok && k.Code != KeyUnknown && k.Mod&ModAlt == 0 && k.Event == KeyPress {
			k.Mod |= ModAlt
			k.Raw = clone(b[:1+n])
			return k, 1 + n
		}
	}
	return Key{Code: KeyEscape, Raw: clone(b[:1])}, 1
}

// csi decodes ESC [ ...: the X10 mouse report (three raw bytes after "CSI M"), the
// Linux console's F1-F5 ("ESC [ [ A".."E"), and ECMA-48 CSI sequences. A malformed one
// is Alt+[ and its remaining bytes are decoded on their own.
func (d *Decoder) csi(b []byte, final bool) (any, int) {
	altBracket := func() (any, int) {
		return Key{Code: KeyRune, Rune: '[', Mod: ModAlt, Raw: clone(b[:2])}, 2
	}
	if len(b) == 2 {
		if final {
			return altBracket()
		}
		return nil, 0
	}
	switch b[2] {
	case 'M':
		if len(b) < 6 {
			if final {
				return altBracket()
			}
			return nil, 0
		}
		return decodeX10(b[:6]), 6
	case '[':
		if len(b) < 4 {
			if final {
				return altBracket()
			}
			return nil, 0
		}
		if b[3] >= 'A' && b[3] <= 'E' {
			return Key{Code: KeyF1 + Code(b[3]-'A'), Raw: clone(b[:4])}, 4
		}
		return altBracket()
	}
	i := 2
	for i < len(b) && b[i] >= 0x30 && b[i] <= 0x3f {
		i++
	}
	pEnd := i
	for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2f {
		i++
	}
	if i == len(b) {
		switch {
		case i >= maxCSI:
			return beginSkip{skipCSI, clone(b)}, len(b)
		case final:
			return altBracket()
		}
		return nil, 0
	}
	if b[i] < 0x40 || b[i] > 0x7e {
		return altBracket()
	}
	return csiEvent(b[:i+1], b[2:pEnd], b[pEnd:i], b[i]), i + 1
}

// ss3 decodes ESC O [modifier digits] final: application-mode cursor keys, F1-F4 and
// application keypad keys. Anything else is Alt+O followed by its own bytes.
func (d *Decoder) ss3(b []byte, final bool) (any, int) {
	altO := func() (any, int) {
		return Key{Code: KeyRune, Rune: 'O', Mod: ModAlt, Raw: clone(b[:2])}, 2
	}
	i := 2
	for i < len(b) && i < 5 && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == len(b) {
		if final {
			return altO()
		}
		return nil, 0
	}
	code, ok := letterDecode[b[i]]
	if !ok {
		code, ok = keypadAppDecode[b[i]]
	}
	if !ok {
		return altO()
	}
	k := Key{Code: code, Raw: clone(b[:i+1])}
	if i > 2 {
		m := 0
		for _, c := range b[2:i] {
			m = m*10 + int(c-'0')
		}
		if m >= 1 && m <= 256 {
			k.Mod = Mod(m - 1)
		}
	}
	return k, i + 1
}

// str decodes an ESC-introduced string the outer terminal may send as a reply: OSC
// (ESC ], ended by BEL or ST, e.g. the OSC 10/11 colour answers), DCS (ESC P, ended by
// ST, e.g. XTVERSION and DECRQSS answers) and APC (ESC _, ended by ST, e.g. kitty
// graphics answers). Alt+] / Alt+P / Alt+_ send the same two bytes, so a string is
// only assumed when its next byte is one a reply starts with (OSC: a digit; DCS: a
// digit, '>' or '!'; APC: 'G'); otherwise, or when the string stays unfinished until
// Flush, the two bytes are the Alt key.
func (d *Decoder) str(b []byte, final bool) (any, int) {
	altKey := func() (any, int) {
		return Key{Code: KeyRune, Rune: rune(b[1]), Mod: ModAlt, Raw: clone(b[:2])}, 2
	}
	if len(b) == 2 {
		if final {
			return altKey()
		}
		return nil, 0
	}
	c := b[2]
	switch b[1] {
	case ']':
		if c < '0' || c > '9' {
			return altKey()
		}
	case 'P':
		if (c < '0' || c > '9') && c != '>' && c != '!' {
			return altKey()
		}
	case '_':
		if c != 'G' {
			return altKey()
		}
	}
	for i := 3; i < len(b); i++ {
		switch b[i] {
		case 0x07:
			if b[1] == ']' {
				return Reply{Raw: clone(b[:i+1])}, i + 1
			}
		case 0x1b:
			if i+1 == len(b) {
				continue // maybe the start of ST: wait for more
			}
			if b[i+1] == '\\' {
				return Reply{Raw: clone(b[:i+2])}, i + 2
			}
			return Reply{Raw: clone(b[:i])}, i // an ESC cut the string off
		}
	}
	switch {
	case final:
		return altKey()
	case len(b) >= maxString:
		kind := skipString
		if b[1] == ']' {
			kind = skipOSC
		}
		n := len(b)
		if b[n-1] == 0x1b {
			n-- // keep a possible start of ST for the skip to see
		}
		return beginSkip{kind, clone(b[:n])}, n
	}
	return nil, 0
}

// utf8Key decodes one UTF-8 character; an invalid byte is a KeyUnknown of that byte,
// and a character cut off by the end of input waits for its remaining bytes.
func utf8Key(b []byte, final bool) (any, int) {
	if !utf8.FullRune(b) {
		if final {
			return Key{Code: KeyUnknown, Raw: clone(b)}, len(b)
		}
		return nil, 0
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError && n <= 1 {
		return Key{Code: KeyUnknown, Raw: clone(b[:1])}, 1
	}
	return Key{Code: KeyRune, Rune: r, Raw: clone(b[:n])}, n
}
