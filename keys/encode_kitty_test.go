package keys

// Kitty keyboard protocol encoding tables: key × flags → the bytes kitty sends a
// program that pushed those flags. The expectations follow the protocol's
// specification (sw.kovidgoyal.net/kitty/keyboard-protocol) and kitty's behaviour: text
// stays text until flag 8, Enter/Tab/Backspace keep their legacy bytes until flag 8,
// modified keys become "CSI code;mods u", functional keys keep their CSI letter/tilde
// forms with kitty's modifier and event fields, F3 is "CSI 13~".

import "testing"

func kitty(f uint8) Mode { return Mode{KittyFlags: f} }

func TestEncodeKittyDisambiguate(t *testing.T) {
	k1 := kitty(KittyDisambiguate)
	runEncode(t, []encCase{
		// Text is still text, shifted or not.
		{ch('a', 0), k1, "a"},
		{ch('A', ModShift), k1, "A"},
		{ch('a', ModShift), k1, "A"},
		{ch('é', 0), k1, "é"},
		{ch(' ', 0), k1, " "},
		// Modified keys become CSI code ; mods u with the unshifted code.
		{ch('a', ModCtrl), k1, "\x1b[97;5u"},
		{ch('c', ModCtrl), k1, "\x1b[99;5u"},
		{ch('a', ModAlt), k1, "\x1b[97;3u"},
		{ch('A', ModCtrl|ModShift), k1, "\x1b[97;6u"},
		{ch('A', ModCtrl), k1, "\x1b[97;5u"}, // no legacy terminal tells ctrl+A from ctrl+a
		{ch('X', ModAlt), k1, "\x1b[120;4u"}, // legacy ESC X: alt+shift+x
		{Key{Code: KeyRune}, k1, ""},         // no character: nothing to send
		{Key{Code: KeyRune, Rune: 0x7f}, k1, ""},
		{ch('a', ModCtrl|ModAlt), k1, "\x1b[97;7u"},
		{ch(' ', ModCtrl), k1, "\x1b[32;5u"},
		{ch(' ', ModAlt), k1, "\x1b[32;3u"},
		{ch('s', ModSuper), k1, "\x1b[115;9u"},
		// Escape is always an escape code; Enter, Tab, Backspace unmodified stay legacy.
		{key(KeyEscape, 0), k1, "\x1b[27u"},
		{key(KeyEscape, ModAlt), k1, "\x1b[27;3u"},
		{key(KeyEnter, 0), k1, "\r"},
		{key(KeyTab, 0), k1, "\t"},
		{key(KeyBackspace, 0), k1, "\x7f"},
		{key(KeyEnter, ModShift), k1, "\x1b[13;2u"},
		{key(KeyEnter, ModCtrl), k1, "\x1b[13;5u"},
		{key(KeyEnter, ModAlt), k1, "\x1b[13;3u"},
		{key(KeyTab, ModShift), k1, "\x1b[9;2u"},
		{key(KeyBackspace, ModCtrl), k1, "\x1b[127;5u"},
		{key(KeyBackspace, ModShift), k1, "\x1b[127;2u"},
		// Cursor and editing keys keep their CSI forms, never SS3 under flag 1.
		{key(KeyUp, 0), k1, "\x1b[A"},
		{key(KeyUp, 0), Mode{KittyFlags: KittyDisambiguate, AppCursor: true}, "\x1b[A"},
		{key(KeyUp, ModCtrl), k1, "\x1b[1;5A"},
		{key(KeyHome, 0), k1, "\x1b[H"},
		{key(KeyEnd, ModShift), k1, "\x1b[1;2F"},
		{key(KeyDelete, 0), k1, "\x1b[3~"},
		{key(KeyPgUp, ModAlt), k1, "\x1b[5;3~"},
		{key(KeyF1, 0), k1, "\x1b[P"},
		{key(KeyF2, ModShift), k1, "\x1b[1;2Q"},
		{key(KeyF3, 0), k1, "\x1b[13~"},
		{key(KeyF3, ModCtrl), k1, "\x1b[13;5~"},
		{key(KeyF4, 0), k1, "\x1b[S"},
		{key(KeyF5, 0), k1, "\x1b[15~"},
		{key(KeyF12, ModCtrl), k1, "\x1b[24;5~"},
		{key(KeyF13, 0), k1, "\x1b[57376u"},
		{key(KeyF35, 0), k1, "\x1b[57398u"},
		// Keypad: keys that type a character send it; the others get kitty's numbers.
		{key(KeyKP1, 0), k1, "1"},
		{key(KeyKP1, ModCtrl), k1, "\x1b[57400;5u"},
		{key(KeyKPEnter, 0), k1, "\x1b[57414u"},
		{key(KeyKPUp, 0), k1, "\x1b[57419u"},
		{key(KeyKPBegin, 0), k1, "\x1b[57427u"},
		{key(KeyMediaPlay, 0), k1, "\x1b[57428u"},
		{key(KeyMenu, 0), k1, "\x1b[57363u"},
		// Lone modifiers and lock keys need flag 8; releases need flag 2.
		{key(KeyLeftShift, ModShift), k1, ""},
		{key(KeyCapsLock, 0), k1, ""},
		{Key{Code: KeyRune, Rune: 'a', Event: KeyRelease}, k1, ""},
		{Key{Code: KeyUp, Event: KeyRelease}, k1, ""},
		// Repeats are reported like presses.
		{Key{Code: KeyRune, Rune: 'a', Mod: ModCtrl, Event: KeyRepeat}, k1, "\x1b[97;5u"},
	})
}

func TestEncodeKittyEvents(t *testing.T) {
	k3 := kitty(KittyDisambiguate | KittyReportEvents)
	k11 := kitty(KittyDisambiguate | KittyReportEvents | KittyReportAllKeys)
	rel := func(k Key) Key { k.Event = KeyRelease; return k }
	rep := func(k Key) Key { k.Event = KeyRepeat; return k }
	runEncode(t, []encCase{
		{ch('a', 0), k3, "a"},
		{rep(ch('a', 0)), k3, "a"},
		{rel(ch('a', 0)), k3, "\x1b[97;1:3u"},
		{rel(ch('A', ModShift)), k3, "\x1b[97;2:3u"},
		{rep(ch('a', ModCtrl)), k3, "\x1b[97;5:2u"},
		{rel(ch('a', ModCtrl)), k3, "\x1b[97;5:3u"},
		{key(KeyUp, 0), k3, "\x1b[A"},
		{rep(key(KeyUp, 0)), k3, "\x1b[1;1:2A"},
		{rel(key(KeyUp, 0)), k3, "\x1b[1;1:3A"},
		{rel(key(KeyUp, ModShift)), k3, "\x1b[1;2:3A"},
		{rel(key(KeyDelete, 0)), k3, "\x1b[3;1:3~"},
		{rel(key(KeyEscape, 0)), k3, "\x1b[27;1:3u"},
		// Enter, Tab and Backspace report no releases without flag 8, so a shell that
		// inherits the mode still works.
		{rel(key(KeyEnter, 0)), k3, ""},
		{rel(key(KeyTab, 0)), k3, ""},
		{rel(key(KeyBackspace, 0)), k3, ""},
		{rel(key(KeyEnter, ModShift)), k3, ""},
		{rel(key(KeyEnter, 0)), k11, "\x1b[13;1:3u"},
		{rel(key(KeyBackspace, 0)), k11, "\x1b[127;1:3u"},
	})
}

func TestEncodeKittyAlternatesAndAllKeys(t *testing.T) {
	k5 := kitty(KittyDisambiguate | KittyReportAltKeys)
	k9 := kitty(KittyDisambiguate | KittyReportAllKeys)
	k13 := kitty(KittyDisambiguate | KittyReportAltKeys | KittyReportAllKeys)
	k25 := kitty(KittyDisambiguate | KittyReportAllKeys | KittyReportText)
	k29 := kitty(KittyDisambiguate | KittyReportAltKeys | KittyReportAllKeys | KittyReportText)
	k31 := kitty(31)
	cyrillic := Key{Code: KeyRune, Rune: 'с', Base: 'с', Layout: 'c', Mod: ModCtrl}
	runEncode(t, []encCase{
		// Flag 4: the shifted key after a colon when Shift is held, the base layout key
		// after a second colon when it differs.
		{ch('A', ModCtrl|ModShift), k5, "\x1b[97:65;6u"},
		{Key{Code: KeyRune, Rune: 'A', Base: 'a', Mod: ModCtrl | ModShift}, k5, "\x1b[97:65;6u"},
		{ch('a', ModCtrl), k5, "\x1b[97;5u"},
		{cyrillic, k5, "\x1b[1089::99;5u"},
		{ch('A', ModShift), k5, "A"}, // still text
		// Flag 8: everything is an escape code, text and Enter/Tab/Backspace included.
		{ch('a', 0), k9, "\x1b[97u"},
		{ch('A', 0), k9, "\x1b[97;2u"},
		{ch('A', ModShift), k13, "\x1b[97:65;2u"},
		{key(KeyEnter, 0), k9, "\x1b[13u"},
		{key(KeyTab, 0), k9, "\x1b[9u"},
		{key(KeyBackspace, 0), k9, "\x1b[127u"},
		{key(KeyEscape, 0), k9, "\x1b[27u"},
		{key(KeyUp, 0), k9, "\x1b[A"},
		{key(KeyKP1, 0), k9, "\x1b[57400u"},
		{key(KeyLeftShift, ModShift), k9, "\x1b[57441;2u"},
		{key(KeyCapsLock, 0), k9, "\x1b[57358u"},
		{ch('a', ModCapsLock), k9, "\x1b[97;65u"},
		// Flag 16 (with 8): the text as code points in a third field, never for
		// releases or keys that type nothing.
		{ch('a', 0), k25, "\x1b[97;;97u"},
		{ch('A', ModShift), k25, "\x1b[97;2;65u"},
		{ch('A', ModShift), k29, "\x1b[97:65;2;65u"},
		{Key{Code: KeyRune, Rune: 'e', Text: "é"}, k25, "\x1b[101;;233u"},
		{ch('a', ModCtrl), k25, "\x1b[97;5u"},
		{Key{Code: KeyRune, Rune: 'a', Event: KeyRelease}, k31, "\x1b[97;1:3u"},
		{key(KeyEnter, 0), k31, "\x1b[13u"},
	})
}

func TestEncodeKittyWithoutDisambiguate(t *testing.T) {
	if len(usShifted) != len(usUnshifted) {
		t.Fatalf("US layout tables differ in length: %d vs %d", len(usShifted), len(usUnshifted))
	}
	// Flags without 1 and 8 keep legacy bytes for keys that have them, on presses.
	k2 := kitty(KittyReportEvents)
	k4 := kitty(KittyReportAltKeys)
	runEncode(t, []encCase{
		{ch('a', ModCtrl), k2, "\x01"},
		{ch('x', ModAlt), k2, "\x1bx"},
		{ch('a', ModCtrl|ModAlt), k2, "\x1b\x01"},
		{ch(' ', ModCtrl), k2, "\x00"},
		{Key{Code: KeyRune, Rune: 'a', Mod: ModCtrl, Event: KeyRelease}, k2, "\x1b[97;5:3u"},
		{key(KeyEscape, 0), k2, "\x1b"},
		{key(KeyEnter, ModAlt), k2, "\x1b\r"},
		{key(KeyTab, ModShift), k2, "\x1b[Z"},
		{key(KeyBackspace, ModCtrl), k2, "\b"},
		{key(KeyUp, 0), Mode{KittyFlags: KittyReportAltKeys, AppCursor: true}, "\x1bOA"},
		{key(KeyUp, 0), Mode{KittyFlags: KittyReportEvents, AppCursor: true}, "\x1b[A"},
		{key(KeyKPEnter, 0), k4, "\r"},
		{key(KeyKPUp, ModCtrl), k4, "\x1b[1;5A"},
		{ch('A', ModAlt|ModShift), k4, "\x1b[97:65;4u"},
		{ch('1', ModCtrl), k4, "1"},             // like xterm: ctrl+1 has no control code
		{ch('1', ModAlt|ModShift), k4, "\x1b!"}, // kitty shifts with the US layout
		{ch('é', ModCtrl), k4, "\x1b[233;5u"},   // outside the US main block: CSI u
	})
}
