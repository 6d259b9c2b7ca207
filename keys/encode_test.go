package keys

// Legacy encoding tables: key × modifiers × mode → the bytes xterm sends. The expected
// values follow xterm's documented behaviour (ctlseqs, "PC-Style Function Keys" and the
// VT220 keypad tables) with its usual settings: metaSendsEscape (Alt prefixes ESC),
// Backspace sends DEL, modifyOtherKeys off. Each group says which fact it checks.

import (
	"bytes"
	"testing"
)

type encCase struct {
	k    Key
	m    Mode
	want string
}

func runEncode(t *testing.T, cases []encCase) {
	t.Helper()
	for _, c := range cases {
		got := Encode(c.k, c.m)
		if !bytes.Equal(got, []byte(c.want)) || (c.want == "" && got != nil) {
			t.Errorf("Encode(%s, %+v) = %q, want %q", c.k, c.m, got, c.want)
		}
	}
}

var (
	normal    = Mode{}
	appCursor = Mode{AppCursor: true}
	appKeypad = Mode{AppKeypad: true}
)

func TestEncodeLegacyText(t *testing.T) {
	runEncode(t, []encCase{
		// Printable characters are sent as UTF-8; Shift is already in the rune.
		{ch('a', 0), normal, "a"},
		{ch('A', 0), normal, "A"},
		{ch('a', ModShift), normal, "A"},
		{ch('é', 0), normal, "é"},
		{ch('世', 0), normal, "世"},
		{ch('🙂', 0), normal, "🙂"},
		{ch(' ', 0), normal, " "},
		{Key{Code: KeyRune, Rune: 'e', Text: "é"}, normal, "é"},
		// Ctrl with a letter is the C0 control: the letter's code & 0x1f, whatever its case.
		{ch('a', ModCtrl), normal, "\x01"},
		{ch('c', ModCtrl), normal, "\x03"},
		{ch('z', ModCtrl), normal, "\x1a"},
		{ch('A', ModCtrl|ModShift), normal, "\x01"},
		{ch('h', ModCtrl), normal, "\b"},
		{ch('i', ModCtrl), normal, "\t"},
		{ch('m', ModCtrl), normal, "\r"},
		{ch('j', ModCtrl), normal, "\n"},
		// The VT220 aliases: ctrl+space/@/2 NUL, ctrl+[/3 ESC, ctrl+\/4 FS, ctrl+]/5 GS,
		// ctrl+^/6/~ RS, ctrl+_/7// US, ctrl+?/8 DEL.
		{ch(' ', ModCtrl), normal, "\x00"},
		{ch('@', ModCtrl), normal, "\x00"},
		{ch('2', ModCtrl), normal, "\x00"},
		{ch('[', ModCtrl), normal, "\x1b"},
		{ch('3', ModCtrl), normal, "\x1b"},
		{ch('\\', ModCtrl), normal, "\x1c"},
		{ch(']', ModCtrl), normal, "\x1d"},
		{ch('^', ModCtrl), normal, "\x1e"},
		{ch('~', ModCtrl), normal, "\x1e"},
		{ch('_', ModCtrl), normal, "\x1f"},
		{ch('/', ModCtrl), normal, "\x1f"},
		{ch('?', ModCtrl), normal, "\x7f"},
		{ch('8', ModCtrl), normal, "\x7f"},
		// Without modifyOtherKeys, Ctrl on a key with no control code is lost.
		{ch('1', ModCtrl), normal, "1"},
		{ch(';', ModCtrl), normal, ";"},
		{ch('é', ModCtrl), normal, "é"},
		// Alt (metaSendsEscape) prefixes ESC, also to control codes.
		{ch('x', ModAlt), normal, "\x1bx"},
		{ch('X', ModAlt|ModShift), normal, "\x1bX"},
		{ch('é', ModAlt), normal, "\x1bé"},
		{ch('a', ModAlt|ModCtrl), normal, "\x1b\x01"},
		{ch(' ', ModAlt|ModCtrl), normal, "\x1b\x00"},
		// Super has no legacy encoding: the character alone.
		{ch('s', ModSuper), normal, "s"},
		// Lock states never change the bytes.
		{ch('a', ModCtrl|ModCapsLock|ModNumLock), normal, "\x01"},
		// Releases are never sent in legacy mode; repeats are presses.
		{Key{Code: KeyRune, Rune: 'a', Event: KeyRelease}, normal, ""},
		{Key{Code: KeyRune, Rune: 'a', Event: KeyRepeat}, normal, "a"},
	})
}

func TestEncodeLegacyEditingKeys(t *testing.T) {
	runEncode(t, []encCase{
		// Enter is CR; Shift and Ctrl have no legacy encoding (shift+enter is CR too).
		{key(KeyEnter, 0), normal, "\r"},
		{key(KeyEnter, ModShift), normal, "\r"},
		{key(KeyEnter, ModCtrl), normal, "\r"},
		{key(KeyEnter, ModAlt), normal, "\x1b\r"},
		// Tab is HT, shift+tab is CBT (CSI Z).
		{key(KeyTab, 0), normal, "\t"},
		{key(KeyTab, ModShift), normal, "\x1b[Z"},
		{key(KeyTab, ModAlt), normal, "\x1b\t"},
		// Backspace sends DEL; ctrl+backspace BS.
		{key(KeyBackspace, 0), normal, "\x7f"},
		{key(KeyBackspace, ModCtrl), normal, "\b"},
		{key(KeyBackspace, ModAlt), normal, "\x1b\x7f"},
		{key(KeyBackspace, ModAlt|ModCtrl), normal, "\x1b\b"},
		// Escape is ESC; alt+escape ESC ESC.
		{key(KeyEscape, 0), normal, "\x1b"},
		{key(KeyEscape, ModAlt), normal, "\x1b\x1b"},
	})
}

func TestEncodeLegacyCursorKeys(t *testing.T) {
	finals := map[Code]string{KeyUp: "A", KeyDown: "B", KeyRight: "C", KeyLeft: "D", KeyHome: "H", KeyEnd: "F", KeyBegin: "E"}
	var cases []encCase
	for c, f := range finals {
		// Normal mode: CSI final; DECCKM (application cursor) mode: SS3 final.
		cases = append(cases,
			encCase{key(c, 0), normal, "\x1b[" + f},
			encCase{key(c, 0), appCursor, "\x1bO" + f},
		)
		// With modifiers both modes send CSI 1 ; 1+mods final.
		for _, mm := range []struct {
			m Mod
			p string
		}{{ModShift, "2"}, {ModAlt, "3"}, {ModAlt | ModShift, "4"}, {ModCtrl, "5"}, {ModCtrl | ModShift, "6"},
			{ModCtrl | ModAlt, "7"}, {ModCtrl | ModAlt | ModShift, "8"}, {ModSuper, "9"}} {
			cases = append(cases,
				encCase{key(c, mm.m), normal, "\x1b[1;" + mm.p + f},
				encCase{key(c, mm.m), appCursor, "\x1b[1;" + mm.p + f},
			)
		}
	}
	// The keypad's navigation keys send what the main keys send.
	cases = append(cases,
		encCase{key(KeyKPUp, 0), normal, "\x1b[A"},
		encCase{key(KeyKPHome, 0), appCursor, "\x1bOH"},
		encCase{key(KeyKPLeft, ModCtrl), normal, "\x1b[1;5D"},
		encCase{key(KeyKPBegin, 0), normal, "\x1b[E"},
	)
	runEncode(t, cases)
}

func TestEncodeLegacyTildeAndFunctionKeys(t *testing.T) {
	tilde := map[Code]string{KeyInsert: "2", KeyDelete: "3", KeyPgUp: "5", KeyPgDn: "6",
		KeyF5: "15", KeyF6: "17", KeyF7: "18", KeyF8: "19", KeyF9: "20", KeyF10: "21", KeyF11: "23", KeyF12: "24"}
	var cases []encCase
	for c, n := range tilde {
		cases = append(cases,
			encCase{key(c, 0), normal, "\x1b[" + n + "~"},
			encCase{key(c, 0), appCursor, "\x1b[" + n + "~"}, // DECCKM does not touch them
			encCase{key(c, ModShift), normal, "\x1b[" + n + ";2~"},
			encCase{key(c, ModCtrl), normal, "\x1b[" + n + ";5~"},
			encCase{key(c, ModCtrl|ModAlt|ModShift), normal, "\x1b[" + n + ";8~"},
		)
	}
	// F1-F4 are SS3 P..S in both cursor modes, CSI 1 ; m P..S with modifiers.
	for i, f := range "PQRS" {
		c := KeyF1 + Code(i)
		cases = append(cases,
			encCase{key(c, 0), normal, "\x1bO" + string(f)},
			encCase{key(c, 0), appCursor, "\x1bO" + string(f)},
			encCase{key(c, ModShift), normal, "\x1b[1;2" + string(f)},
			encCase{key(c, ModCtrl|ModAlt), normal, "\x1b[1;7" + string(f)},
		)
	}
	// xterm's terminfo: F13-F24 are shift+F1-F12, F25-F35 ctrl+F1-F11.
	cases = append(cases,
		encCase{key(KeyF13, 0), normal, "\x1b[1;2P"},
		encCase{key(KeyF17, 0), normal, "\x1b[15;2~"},
		encCase{key(KeyF24, 0), normal, "\x1b[24;2~"},
		encCase{key(KeyF25, 0), normal, "\x1b[1;5P"},
		encCase{key(KeyF35, 0), normal, "\x1b[23;5~"},
		// Keys legacy terminals cannot send: nothing.
		encCase{key(KeyLeftShift, 0), normal, ""},
		encCase{key(KeyCapsLock, 0), normal, ""},
		encCase{key(KeyMediaPlay, 0), normal, ""},
		// Unknown input passes through.
		encCase{Key{Code: KeyUnknown, Raw: []byte("\x1b[99~")}, normal, "\x1b[99~"},
	)
	runEncode(t, cases)
}

func TestEncodeLegacyKeypad(t *testing.T) {
	// DECKPAM: SS3 p..y for the digits, SS3 n . o / j * m - k + l , X = M Enter;
	// DECKPNM: the characters themselves, Enter as CR.
	app := map[Code]string{KeyKP0: "p", KeyKP5: "u", KeyKP9: "y", KeyKPDecimal: "n", KeyKPDivide: "o",
		KeyKPMultiply: "j", KeyKPSubtract: "m", KeyKPAdd: "k", KeyKPSeparator: "l", KeyKPEqual: "X", KeyKPEnter: "M"}
	text := map[Code]string{KeyKP0: "0", KeyKP5: "5", KeyKP9: "9", KeyKPDecimal: ".", KeyKPDivide: "/",
		KeyKPMultiply: "*", KeyKPSubtract: "-", KeyKPAdd: "+", KeyKPSeparator: ",", KeyKPEqual: "=", KeyKPEnter: "\r"}
	var cases []encCase
	for c, f := range app {
		cases = append(cases,
			encCase{key(c, 0), appKeypad, "\x1bO" + f},
			encCase{key(c, 0), normal, text[c]},
		)
	}
	cases = append(cases, encCase{key(KeyKP1, ModAlt), normal, "\x1b1"})
	runEncode(t, cases)
}

// TestEncodeAllCodesTotal makes sure every code × modifier combination encodes without
// panicking in every mode, and that releases are dropped unless kitty flag 2 asks.
func TestEncodeAllCodesTotal(t *testing.T) {
	modes := []Mode{normal, appCursor, appKeypad}
	for f := 1; f < 32; f++ {
		modes = append(modes, Mode{KittyFlags: uint8(f)}, Mode{KittyFlags: uint8(f), AppCursor: true})
	}
	for c := KeyRune; c < codeEnd; c++ {
		for m := Mod(0); m < 16; m++ {
			for _, md := range modes {
				k := Key{Code: c, Mod: m, Rune: 'q', Event: KeyRelease}
				if c != KeyRune {
					k.Rune = 0
				}
				if got := Encode(k, md); got != nil && md.KittyFlags&KittyReportEvents == 0 {
					t.Fatalf("release of %s in %+v encoded as %q", k, md, got)
				}
				k.Event = KeyPress
				_ = Encode(k, md)
			}
		}
	}
}
