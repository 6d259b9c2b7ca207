package keys

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mod is a set of modifier keys. The bits are those of the kitty keyboard protocol; the
// first four are also xterm's, so the modifier parameter both send is 1 + Mod.
type Mod uint8

// The modifier bits.
const (
	ModShift Mod = 1 << iota
	ModAlt
	ModCtrl
	ModSuper // xterm calls this bit Meta
	ModHyper
	ModMeta
	ModCapsLock
	ModNumLock
)

// modLocks are the lock states kitty may report with a key; they never change a binding.
const modLocks = ModCapsLock | ModNumLock

// KeyEventType tells a press from a repeat or a release (kitty's "report event types").
type KeyEventType uint8

// The key event types. Legacy terminals only ever report presses.
const (
	KeyPress KeyEventType = iota
	KeyRepeat
	KeyRelease
)

// Code identifies a key. KeyRune covers every key that types a character; the others
// are functional keys. The kitty functional keys keep the protocol's order, so whole
// blocks map to consecutive kitty numbers.
type Code uint16

// The key codes.
const (
	KeyRune    Code = iota // a character key: Key.Rune holds it
	KeyUnknown             // bytes the decoder could not map; Encode passes Key.Raw through
	KeyEnter
	KeyTab
	KeyBackspace
	KeyEscape
	KeyUp
	KeyDown
	KeyRight
	KeyLeft
	KeyHome
	KeyEnd
	KeyBegin // the keypad's middle key without Num Lock (xterm CSI E)
	KeyPgUp
	KeyPgDn
	KeyInsert
	KeyDelete
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
	KeyF13
	KeyF14
	KeyF15
	KeyF16
	KeyF17
	KeyF18
	KeyF19
	KeyF20
	KeyF21
	KeyF22
	KeyF23
	KeyF24
	KeyF25
	KeyF26
	KeyF27
	KeyF28
	KeyF29
	KeyF30
	KeyF31
	KeyF32
	KeyF33
	KeyF34
	KeyF35
	KeyKP0
	KeyKP1
	KeyKP2
	KeyKP3
	KeyKP4
	KeyKP5
	KeyKP6
	KeyKP7
	KeyKP8
	KeyKP9
	KeyKPDecimal
	KeyKPDivide
	KeyKPMultiply
	KeyKPSubtract
	KeyKPAdd
	KeyKPEnter
	KeyKPEqual
	KeyKPSeparator
	KeyKPLeft
	KeyKPRight
	KeyKPUp
	KeyKPDown
	KeyKPPgUp
	KeyKPPgDn
	KeyKPHome
	KeyKPEnd
	KeyKPInsert
	KeyKPDelete
	KeyKPBegin
	KeyCapsLock
	KeyScrollLock
	KeyNumLock
	KeyPrintScreen
	KeyPause
	KeyMenu
	KeyMediaPlay
	KeyMediaPause
	KeyMediaPlayPause
	KeyMediaReverse
	KeyMediaStop
	KeyMediaFastForward
	KeyMediaRewind
	KeyMediaTrackNext
	KeyMediaTrackPrevious
	KeyMediaRecord
	KeyLowerVolume
	KeyRaiseVolume
	KeyMuteVolume
	KeyLeftShift
	KeyLeftControl
	KeyLeftAlt
	KeyLeftSuper
	KeyLeftHyper
	KeyLeftMeta
	KeyRightShift
	KeyRightControl
	KeyRightAlt
	KeyRightSuper
	KeyRightHyper
	KeyRightMeta
	KeyISOLevel3Shift
	KeyISOLevel5Shift
	codeEnd // one past the last code
)

// Key is one key event.
type Key struct {
	// Code is the key; KeyRune for character keys.
	Code Code
	// Rune is, for KeyRune, the character the key types with Shift applied: 'A' for
	// shift+a, 'a' for ctrl+a. It is 0 for functional keys.
	Rune rune
	// Mod is the set of modifiers held.
	Mod Mod
	// Event is press (the zero value), repeat or release.
	Event KeyEventType
	// Base is the key's unshifted code point when the terminal reported one (kitty's
	// key code: 'a' for shift+a); 0 when unknown, e.g. from legacy input.
	Base rune
	// Layout is kitty's "base layout key": the key at the same place on a US PC-101
	// keyboard, when the terminal reported it; 0 otherwise.
	Layout rune
	// Text is the text the terminal reported for the key (kitty's associated text);
	// "" when it did not send any.
	Text string
	// Raw holds the exact bytes this event was decoded from (nil for built keys).
	Raw []byte
}

// fnNames are the canonical names of the functional keys (String, ParseKey).
var fnNames = map[Code]string{
	KeyUnknown: "unknown", KeyEnter: "enter", KeyTab: "tab", KeyBackspace: "backspace",
	KeyEscape: "escape", KeyUp: "up", KeyDown: "down", KeyRight: "right", KeyLeft: "left",
	KeyHome: "home", KeyEnd: "end", KeyBegin: "begin", KeyPgUp: "pgup", KeyPgDn: "pgdn",
	KeyInsert: "insert", KeyDelete: "delete",
	KeyKPDecimal: "kp_decimal", KeyKPDivide: "kp_divide", KeyKPMultiply: "kp_multiply",
	KeyKPSubtract: "kp_subtract", KeyKPAdd: "kp_add", KeyKPEnter: "kp_enter",
	KeyKPEqual: "kp_equal", KeyKPSeparator: "kp_separator", KeyKPLeft: "kp_left",
	KeyKPRight: "kp_right", KeyKPUp: "kp_up", KeyKPDown: "kp_down", KeyKPPgUp: "kp_pgup",
	KeyKPPgDn: "kp_pgdn", KeyKPHome: "kp_home", KeyKPEnd: "kp_end", KeyKPInsert: "kp_insert",
	KeyKPDelete: "kp_delete", KeyKPBegin: "kp_begin",
	KeyCapsLock: "caps_lock", KeyScrollLock: "scroll_lock", KeyNumLock: "num_lock",
	KeyPrintScreen: "print_screen", KeyPause: "pause", KeyMenu: "menu",
	KeyMediaPlay: "media_play", KeyMediaPause: "media_pause", KeyMediaPlayPause: "media_play_pause",
	KeyMediaReverse: "media_reverse", KeyMediaStop: "media_stop",
	KeyMediaFastForward: "media_fast_forward", KeyMediaRewind: "media_rewind",
	KeyMediaTrackNext: "media_track_next", KeyMediaTrackPrevious: "media_track_previous",
	KeyMediaRecord: "media_record", KeyLowerVolume: "lower_volume",
	KeyRaiseVolume: "raise_volume", KeyMuteVolume: "mute_volume",
	KeyLeftShift: "left_shift", KeyLeftControl: "left_control", KeyLeftAlt: "left_alt",
	KeyLeftSuper: "left_super", KeyLeftHyper: "left_hyper", KeyLeftMeta: "left_meta",
	KeyRightShift: "right_shift", KeyRightControl: "right_control", KeyRightAlt: "right_alt",
	KeyRightSuper: "right_super", KeyRightHyper: "right_hyper", KeyRightMeta: "right_meta",
	KeyISOLevel3Shift: "iso_level3_shift", KeyISOLevel5Shift: "iso_level5_shift",
}

func init() {
	for c := KeyF1; c <= KeyF35; c++ {
		fnNames[c] = "f" + strconv.Itoa(int(c-KeyF1)+1)
	}
	for c := KeyKP0; c <= KeyKP9; c++ {
		fnNames[c] = "kp_" + strconv.Itoa(int(c-KeyKP0))
	}
}

// String returns the code's name ("enter", "f5", "kp_0"; "rune" for KeyRune).
func (c Code) String() string {
	if c == KeyRune {
		return "rune"
	}
	if n, ok := fnNames[c]; ok {
		return n
	}
	return "code(" + strconv.Itoa(int(c)) + ")"
}

// modNames lists the modifiers in the order String writes them.
var modNames = []struct {
	m    Mod
	name string
}{
	{ModCtrl, "ctrl"}, {ModAlt, "alt"}, {ModShift, "shift"}, {ModSuper, "super"},
	{ModHyper, "hyper"}, {ModMeta, "meta"}, {ModCapsLock, "caps_lock"}, {ModNumLock, "num_lock"},
}

// String returns the modifiers joined by "+" ("ctrl+shift"), "" for none.
func (m Mod) String() string {
	var parts []string
	for _, mn := range modNames {
		if m&mn.m != 0 {
			parts = append(parts, mn.name)
		}
	}
	return strings.Join(parts, "+")
}

// String returns the key in ParseKey's syntax: "ctrl+a", "shift+enter", "alt+f5",
// "space", "A". Repeats and releases get a " (repeat)" or " (release)" suffix.
func (k Key) String() string {
	var name string
	switch {
	case k.Code != KeyRune:
		name = k.Code.String()
	case k.Rune == ' ':
		name = "space"
	case k.Rune == '+' && k.Mod != 0:
		name = "+"
	case unicode.IsPrint(k.Rune):
		name = string(k.Rune)
	default:
		name = fmt.Sprintf("U+%04X", k.Rune)
	}
	if m := k.Mod.String(); m != "" {
		name = m + "+" + name
	}
	switch k.Event {
	case KeyRepeat:
		name += " (repeat)"
	case KeyRelease:
		name += " (release)"
	}
	return name
}

// Matches reports whether k and o are the same binding: the same code and modifiers
// (lock states ignored), the same rune, compared case-insensitively when Ctrl is held
// (legacy terminals cannot tell ctrl+a from ctrl+A) and with Shift ignored for plain
// text keys (the rune already says whether Shift was held). A release never matches a
// press or repeat. ctrl+@ and ctrl+space match each other (both are NUL).
func (k Key) Matches(o Key) bool {
	if (k.Event == KeyRelease) != (o.Event == KeyRelease) {
		return false
	}
	if k.Code != o.Code {
		return false
	}
	km, om := k.Mod&^modLocks, o.Mod&^modLocks
	if k.Code != KeyRune {
		return km == om
	}
	if km&^ModShift == 0 && om&^ModShift == 0 {
		return k.Rune == o.Rune
	}
	if km != om {
		return false
	}
	if km&ModCtrl != 0 {
		return ctrlFold(k.Rune) == ctrlFold(o.Rune)
	}
	return k.Rune == o.Rune
}

// ctrlFold maps the runes that are the same key under Ctrl to one value.
func ctrlFold(r rune) rune {
	if r == '@' {
		return ' '
	}
	if r < utf8.RuneSelf {
		return unicode.ToLower(r)
	}
	return r
}

// char returns the character k types, Shift applied where it is known: Rune, or the
// upper case of an ASCII letter when Shift is held.
func (k Key) char() rune {
	r := k.Rune
	if k.Mod&ModShift != 0 && r >= 'a' && r <= 'z' {
		r -= 'a' - 'A'
	}
	return r
}
