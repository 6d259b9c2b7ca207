package keys

import "unicode/utf8"

// Decoding of complete CSI sequences into events.

// params are a CSI sequence's parameters: fields separated by ';', each a list of
// sub-parameters separated by ':'. An empty value is -1.
type params [][]int

// Limits on what parseParams accepts; real key, mouse and report sequences stay far
// below them.
const (
	maxFields   = 16
	maxParamVal = 1 << 22
)

// parseParams splits the parameter bytes (digits, ';' and ':'); ok is false for any
// other byte, too many fields or an absurd number.
func parseParams(b []byte) (params, bool) {
	if len(b) == 0 {
		return nil, true
	}
	f := params{{-1}}
	for _, c := range b {
		cur := f[len(f)-1]
		switch {
		case c >= '0' && c <= '9':
			v := cur[len(cur)-1]
			if v < 0 {
				v = 0
			}
			v = v*10 + int(c-'0')
			if v > maxParamVal {
				return nil, false
			}
			cur[len(cur)-1] = v
		case c == ':':
			if len(cur) >= maxFields {
				return nil, false
			}
			f[len(f)-1] = append(cur, -1)
		case c == ';':
			if len(f) >= maxFields {
				return nil, false
			}
			f = append(f, []int{-1})
		default:
			return nil, false
		}
	}
	return f, true
}

// get returns sub-parameter j of field i, or -1.
func (p params) get(i, j int) int {
	if i >= len(p) || j >= len(p[i]) {
		return -1
	}
	return p[i][j]
}

// modEvent reads the "modifiers:event" field i (xterm's and kitty's 1 + bits).
func (p params) modEvent(i int) (Mod, KeyEventType, bool) {
	var m Mod
	if v := p.get(i, 0); v > 1 {
		if v-1 > 0xff {
			return 0, 0, false
		}
		m = Mod(v - 1)
	}
	ev := KeyPress
	switch p.get(i, 1) {
	case -1, 1:
	case 2:
		ev = KeyRepeat
	case 3:
		ev = KeyRelease
	default:
		return 0, 0, false
	}
	return m, ev, true
}

// csiEvent turns one complete CSI sequence into an event. seq is the whole sequence,
// par its parameter bytes (private marker included), inter its intermediates.
func csiEvent(seq, par, inter []byte, final byte) any {
	raw := clone(seq)
	reply := Reply{Raw: raw}
	var marker byte
	if len(par) > 0 && par[0] >= 0x3c {
		marker, par = par[0], par[1:]
	}
	if len(inter) > 0 {
		return reply // DECRPM "CSI ? Ps ; Pm $ y" and the like
	}
	p, ok := parseParams(par)
	if !ok {
		return reply
	}
	switch marker {
	case 0:
	case '<':
		if final == 'M' || final == 'm' {
			if m, ok := decodeSGRMouse(p, final, raw); ok {
				return m
			}
		}
		return reply
	default:
		return reply // DA1 "CSI ? ... c", kitty flags "CSI ? n u", DA2 "CSI > ... c"
	}
	switch final {
	case 'I', 'O':
		if len(par) == 0 {
			return Focus{In: final == 'I', Raw: raw}
		}
	case 'u':
		if k, ok := kittyKey(p, raw); ok {
			return k
		}
	case '~':
		return tildeKey(p, raw)
	case 'Z':
		if m, ev, ok := p.modEvent(1); ok {
			return Key{Code: KeyTab, Mod: m | ModShift, Event: ev, Raw: raw}
		}
	case 'M':
		if m, ok := decodeURXVTMouse(p, raw); ok {
			return m
		}
	case 'R':
		// "CSI 1 ; m R" is F3 with modifiers in xterm; any other "CSI row ; col R" is
		// a cursor position report.
		if len(p) == 0 || (p.get(0, 0) == 1 && len(p) >= 2 && p.get(1, 0) > 1) {
			if m, ev, ok := p.modEvent(1); ok {
				return Key{Code: KeyF3, Mod: m, Event: ev, Raw: raw}
			}
		}
	default:
		if code, ok := letterDecode[final]; ok && p.get(0, 0) <= 1 {
			if m, ev, ok := p.modEvent(1); ok {
				return Key{Code: code, Mod: m, Event: ev, Raw: raw}
			}
		}
	}
	return reply
}

// tildeKey decodes "CSI n ; m ~": editing and function keys, the paste start marker,
// and xterm's modifyOtherKeys form "CSI 27 ; m ; code ~".
func tildeKey(p params, raw []byte) any {
	n := p.get(0, 0)
	switch {
	case n == 200 && len(p) == 1:
		return beginPaste{raw: raw}
	case n == 27 && len(p) >= 3:
		m, ev, ok := p.modEvent(1)
		if !ok {
			return Reply{Raw: raw}
		}
		k := codepointKey(p.get(2, 0), m)
		k.Event, k.Raw = ev, raw
		return k
	}
	code, ok := tildeDecode[n]
	if !ok {
		if n == 201 {
			return Reply{Raw: raw} // a stray paste end marker
		}
		return Key{Code: KeyUnknown, Raw: raw}
	}
	m, ev, ok := p.modEvent(1)
	if !ok {
		return Reply{Raw: raw}
	}
	return Key{Code: code, Mod: m, Event: ev, Raw: raw}
}

// codepointKey maps a key code point (modifyOtherKeys) to a key: Enter, Tab, Escape
// and Backspace by their control codes, anything printable as a character key.
func codepointKey(cp int, m Mod) Key {
	if c, ok := kittyCode(cp); ok && cp < 128 {
		return Key{Code: c, Mod: m}
	}
	if cp < 0x20 || cp == 0x7f || cp > utf8.MaxRune || !utf8.ValidRune(rune(cp)) {
		return Key{Code: KeyUnknown, Mod: m}
	}
	k := Key{Code: KeyRune, Rune: rune(cp), Mod: m}
	k.Rune = k.char()
	return k
}

// kittyKey decodes the kitty keyboard protocol's
// "CSI code[:shifted[:base-layout]] ; mods[:event] ; text-codepoints u".
func kittyKey(p params, raw []byte) (Key, bool) {
	code := p.get(0, 0)
	if code < 0 {
		return Key{}, false
	}
	m, ev, ok := p.modEvent(1)
	if !ok {
		return Key{}, false
	}
	k := Key{Mod: m, Event: ev, Raw: raw}
	if len(p) > 2 {
		var text []rune
		for _, cp := range p[2] {
			if cp >= 0x20 && cp <= utf8.MaxRune && utf8.ValidRune(rune(cp)) {
				text = append(text, rune(cp))
			}
		}
		k.Text = string(text)
	}
	if c, ok := kittyCode(code); ok {
		k.Code = c
		return k, true
	}
	if code < 0x20 || code == 0x7f || code > utf8.MaxRune || !utf8.ValidRune(rune(code)) {
		k.Code = KeyUnknown
		return k, true
	}
	k.Code, k.Base, k.Rune = KeyRune, rune(code), rune(code)
	if l := p.get(0, 2); l > 0 && l <= utf8.MaxRune && utf8.ValidRune(rune(l)) {
		k.Layout = rune(l)
	}
	shifted := p.get(0, 1)
	switch tr := []rune(k.Text); {
	case m&ModShift != 0 && shifted > 0 && shifted <= utf8.MaxRune && utf8.ValidRune(rune(shifted)):
		k.Rune = rune(shifted)
	case len(tr) == 1:
		k.Rune = tr[0]
	default:
		k.Rune = k.char()
	}
	return k, true
}
