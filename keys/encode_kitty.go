package keys

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Encoding for programs that enabled the kitty keyboard protocol. It follows what kitty
// itself sends under each combination of flags:
//
//   - keys that type text (no Ctrl/Alt/Super/Hyper/Meta) are sent as text on press and
//     repeat unless flag 8 asks for escape codes;
//   - Enter, Tab and Backspace without modifiers keep their legacy bytes unless flag 8
//     is set, and then never report releases;
//   - without flag 1 (and 8), modified keys that have a legacy encoding keep it;
//   - everything else is "CSI code[:shifted[:base]] ; mods[:event] ; text u", or the
//     key's legacy CSI form ("CSI 1 ; mods A", "CSI 3 ; mods ~") with kitty's
//     modifier and event fields.

// kittyEnc holds what one kitty escape code carries.
type kittyEnc struct {
	key             int
	final           byte
	shifted, layout rune // alternate keys, 0 when absent
	alternates      bool
	mods            Mod
	event           KeyEventType
	events          bool // write the event type
	text            string
}

// bytes serialises the escape code, leaving out trailing empty fields the way kitty
// does ("CSI A" for an unmodified up arrow, "CSI 97;;97u" for text without modifiers).
func (e kittyEnc) bytes() []byte {
	second := e.mods != 0 || e.events
	third := e.text != ""
	b := []byte{0x1b, '['}
	if e.key != 1 || e.alternates || second || third {
		b = strconv.AppendInt(b, int64(e.key), 10)
	}
	if e.alternates {
		b = append(b, ':')
		if e.shifted != 0 {
			b = strconv.AppendInt(b, int64(e.shifted), 10)
		}
		if e.layout != 0 {
			b = strconv.AppendInt(append(b, ':'), int64(e.layout), 10)
		}
	}
	if second || third {
		b = append(b, ';')
		if second {
			b = strconv.AppendInt(b, int64(e.mods)+1, 10)
		}
		if e.events {
			b = strconv.AppendInt(append(b, ':'), int64(e.event)+1, 10)
		}
	}
	if third {
		sep := byte(';')
		for _, r := range e.text {
			b = strconv.AppendInt(append(b, sep), int64(r), 10)
			sep = ':'
		}
	}
	return append(b, e.final)
}

// textMods are the modifiers that stop a key from typing text.
const textMods = ModAlt | ModCtrl | ModSuper | ModHyper | ModMeta

func encodeKitty(k Key, m Mode) []byte {
	f := m.KittyFlags
	disamb := f&KittyDisambiguate != 0
	events := f&KittyReportEvents != 0
	all := f&KittyReportAllKeys != 0
	if k.Event == KeyRelease && !events {
		return nil
	}
	switch {
	case k.Code == KeyUnknown:
		if k.Event == KeyRelease {
			return nil
		}
		return clone(k.Raw)
	case isModifierKey(k.Code) && !all:
		return nil
	}
	// Without flag 1 the keypad reports the main keys it stands for.
	if !disamb {
		if c, ok := keypadNav[k.Code]; ok {
			k.Code = c
		} else if k.Code == KeyKPEnter {
			k.Code = KeyEnter
		} else if r, ok := keypadText[k.Code]; ok {
			k.Code, k.Rune = KeyRune, r
		}
	}
	if k.Code == KeyRune {
		if k.Rune < 0x20 || k.Rune == 0x7f || !utf8.ValidRune(k.Rune) {
			return nil
		}
		return kittyText(k, f)
	}
	// A keypad key that types a character sends it, like any text key.
	if r, ok := keypadText[k.Code]; ok && !all && k.Event != KeyRelease && k.Mod&textMods == 0 {
		return utf8.AppendRune(nil, r)
	}
	return kittyFunctional(k, m)
}

// kittyFunctional encodes a functional key.
func kittyFunctional(k Key, m Mode) []byte {
	f := m.KittyFlags
	disamb := f&KittyDisambiguate != 0
	all := f&KittyReportAllKeys != 0
	mods := k.Mod &^ modLocks
	form, ok := kittyForm(k.Code)
	if !ok {
		return nil
	}
	switch k.Code {
	case KeyEnter, KeyTab, KeyBackspace:
		if k.Event == KeyRelease && !all {
			return nil // so a shell stays usable: these never report releases without flag 8
		}
	}
	if k.Event != KeyRelease {
		if legacy := kittyLegacyForm(k.Code, mods, m.AppCursor, disamb, f&KittyReportEvents != 0, all); legacy != "" {
			return []byte(legacy)
		}
	}
	e := kittyEnc{key: form.num, final: form.final, mods: k.Mod, event: k.Event}
	e.events = f&KittyReportEvents != 0 && k.Event != KeyPress
	return e.bytes()
}

// kittyLegacyForm returns the legacy bytes kitty keeps for some functional keys under
// the given flags, or "".
func kittyLegacyForm(c Code, mods Mod, appCursor, disamb, events, all bool) string {
	if mods == 0 {
		if appCursor && !disamb && !events {
			if f, ok := letterKeys[c]; ok {
				return "\x1bO" + string(f)
			}
		}
		if !all {
			switch c {
			case KeyEnter:
				return "\r"
			case KeyTab:
				return "\t"
			case KeyBackspace:
				return "\x7f"
			case KeyEscape:
				if !disamb {
					return "\x1b"
				}
			}
		}
	}
	if disamb || all {
		return ""
	}
	switch {
	case mods == ModAlt && c == KeyTab:
		return "\x1b\t"
	case mods == ModAlt && c == KeyEnter:
		return "\x1b\r"
	case mods == ModAlt && c == KeyBackspace:
		return "\x1b\x7f"
	case mods == ModAlt && c == KeyEscape:
		return "\x1b\x1b"
	case mods == ModShift && c == KeyTab:
		return "\x1b[Z"
	case mods == ModCtrl && c == KeyBackspace:
		return "\b"
	}
	return ""
}

// kittyText encodes a character key.
func kittyText(k Key, f uint8) []byte {
	disamb := f&KittyDisambiguate != 0
	events := f&KittyReportEvents != 0
	all := f&KittyReportAllKeys != 0
	mods := k.Mod
	char := k.char()
	text := ""
	if k.Mod&textMods == 0 && unicode.IsPrint(char) {
		text = k.Text
		if text == "" {
			text = string(char)
		}
	}
	if !all && text != "" && k.Event != KeyRelease {
		return []byte(text)
	}
	// kitty's key code is the unshifted key; the shifted one is an alternate.
	base, shifted := k.Base, rune(0)
	if base == 0 {
		base = char
		if lower := unicode.ToLower(char); lower != char && unicode.ToUpper(lower) == char {
			base = lower
			// Legacy input "A" or ESC "A" is shift+a (alt+shift+a). Under Ctrl the case
			// says nothing: no legacy terminal tells ctrl+A from ctrl+a.
			if mods&ModCtrl == 0 || mods&ModShift != 0 {
				shifted = char
				if mods&(ModShift|ModCapsLock) == 0 {
					mods |= ModShift
				}
			}
		}
	} else if char != base {
		shifted = char
	}
	if !all {
		mods &^= modLocks // lock states are only reported for text keys with flag 8
	}
	e := kittyEnc{key: int(base), final: 'u', mods: mods, event: k.Event}
	e.events = events && k.Event != KeyPress
	if f&KittyReportAltKeys != 0 {
		if mods&ModShift == 0 || shifted == base {
			shifted = 0
		}
		layout := k.Layout
		if layout == base {
			layout = 0
		}
		e.shifted, e.layout = shifted, layout
		e.alternates = shifted != 0 || layout != 0
	}
	if f&KittyReportText != 0 && all && k.Event != KeyRelease {
		e.text = text
	}
	if !e.events && !e.alternates && e.text == "" && !disamb && !all {
		// Without flag 1 a modified ASCII key keeps its legacy bytes where it has some.
		if b := kittyLegacyText(base, mods); b != nil {
			return b
		}
	}
	return e.bytes()
}

// kittyLegacyText is the legacy encoding kitty keeps without flag 1 for the keys of
// a US keyboard's main block (letters, digits, punctuation) with Shift, Alt, Ctrl or
// Ctrl+Alt, and for ctrl+space; nil otherwise.
func kittyLegacyText(base rune, mods Mod) []byte {
	mods &^= modLocks
	if base == ' ' && mods == ModCtrl {
		return []byte{0}
	}
	if base >= utf8.RuneSelf || !strings.ContainsRune(usUnshifted, base) {
		return nil
	}
	shifted := base
	if mods&ModShift != 0 {
		shifted = rune(usShifted[strings.IndexRune(usUnshifted, base)])
	}
	ctrled := func() byte {
		if c, ok := ctrlByte(base); ok {
			return c
		}
		return byte(base)
	}
	switch mods {
	case ModShift:
		return []byte{byte(shifted)}
	case ModAlt, ModAlt | ModShift:
		return []byte{0x1b, byte(shifted)}
	case ModCtrl:
		return []byte{ctrled()}
	case ModCtrl | ModAlt:
		return []byte{0x1b, ctrled()}
	}
	return nil
}

// The keys of a US keyboard's main block and what Shift makes of them.
const (
	usUnshifted = "abcdefghijklmnopqrstuvwxyz0123456789`-=[]\\;',./"
	usShifted   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ)!@#$%^&*(~_+{}|:\"<>?"
)

// isModifierKey reports whether c is a modifier or lock key, which kitty only reports
// with flag 8.
func isModifierKey(c Code) bool {
	return (c >= KeyLeftShift && c <= KeyISOLevel5Shift) || c == KeyCapsLock || c == KeyNumLock || c == KeyScrollLock
}
