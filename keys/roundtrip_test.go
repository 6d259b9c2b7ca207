package keys

// Round trips between the encoders and the decoder: keys whose legacy encoding is
// unambiguous decode back to themselves; every legacy encoding decodes to keys that
// re-encode to the same bytes (so forwarding is byte-faithful); the kitty encoding with
// all flags decodes back to the same key; and end-to-end translations from what an
// outer terminal sends to what a pane's program receives.

import (
	"bytes"
	"testing"
)

// decodeOne decodes b completely and returns its events.
func decodeOne(b []byte) []Event {
	var d Decoder
	return append(d.Feed(b), d.Flush()...)
}

var roundTripMods = []Mod{0, ModShift, ModAlt, ModCtrl, ModShift | ModAlt, ModShift | ModCtrl,
	ModAlt | ModCtrl, ModShift | ModAlt | ModCtrl, ModSuper, ModSuper | ModCtrl}

func TestLegacyRoundTripUnambiguous(t *testing.T) {
	var keys []Key
	for r := rune('!'); r <= '~'; r++ {
		keys = append(keys, ch(r, 0), ch(r, ModAlt))
	}
	keys = append(keys, ch('é', 0), ch('世', ModAlt), ch(' ', 0), ch(' ', ModCtrl), ch(' ', ModAlt))
	for r := rune('a'); r <= 'z'; r++ {
		if r == 'i' || r == 'm' { // ctrl+i is Tab and ctrl+m is Enter in every terminal
			continue
		}
		keys = append(keys, ch(r, ModCtrl), ch(r, ModCtrl|ModAlt))
	}
	keys = append(keys, key(KeyEnter, 0), key(KeyEnter, ModAlt), key(KeyTab, 0), key(KeyTab, ModShift),
		key(KeyTab, ModAlt), key(KeyBackspace, 0), key(KeyBackspace, ModAlt), key(KeyEscape, 0))
	for _, c := range []Code{KeyUp, KeyDown, KeyRight, KeyLeft, KeyHome, KeyEnd, KeyBegin, KeyInsert,
		KeyDelete, KeyPgUp, KeyPgDn, KeyF1, KeyF2, KeyF3, KeyF4, KeyF5, KeyF6, KeyF7, KeyF8, KeyF9,
		KeyF10, KeyF11, KeyF12} {
		for _, m := range roundTripMods {
			keys = append(keys, key(c, m))
		}
	}
	for _, m := range []Mode{normal, appCursor} {
		for _, k := range keys {
			b := Encode(k, m)
			evs := decodeOne(b)
			if len(evs) != 1 {
				t.Errorf("%s in %+v → %q → %s", k, m, b, describeAll(evs))
				continue
			}
			got, ok := evs[0].(Key)
			if !ok || got.Code != k.Code || got.Mod != k.Mod || got.Rune != k.Rune || !bytes.Equal(got.Raw, b) {
				t.Errorf("%s in %+v → %q → %s", k, m, b, describe(evs[0]))
			}
		}
	}
	// Application keypad keys come back as keypad keys.
	for c := range keypadApp {
		if evs := decodeOne(Encode(key(c, 0), appKeypad)); len(evs) != 1 || evs[0].(Key).Code != c {
			t.Errorf("%s in app keypad mode → %s", c, describeAll(evs))
		}
	}
}

// TestLegacyReencodeIsByteFaithful checks, for every code and modifier combination in
// every legacy mode, that decoding the encoding and encoding the result again gives the
// same bytes, so a key travelling outer terminal → Decoder → Encode reaches the pane as
// the terminal sent it even where legacy bytes are ambiguous.
func TestLegacyReencodeIsByteFaithful(t *testing.T) {
	for _, m := range []Mode{normal, appCursor, appKeypad} {
		for c := KeyRune; c < codeEnd; c++ {
			for mod := Mod(0); mod < 16; mod++ {
				runes := []rune{0}
				if c == KeyRune {
					runes = []rune{'a', 'Z', '1', '[', '?', ' ', 'é', '@', '~'}
				}
				for _, r := range runes {
					k := Key{Code: c, Rune: r, Mod: mod, Raw: []byte("\x1b[99~")}
					b := Encode(k, m)
					if b == nil {
						continue
					}
					var again []byte
					for _, ev := range decodeOne(b) {
						dk, ok := ev.(Key)
						if !ok {
							t.Fatalf("%s in %+v → %q decodes to %s", k, m, b, describe(ev))
						}
						again = append(again, Encode(dk, m)...)
					}
					if !bytes.Equal(again, b) {
						t.Errorf("%s in %+v → %q → re-encoded %q", k, m, b, again)
					}
				}
			}
		}
	}
}

func TestKittyRoundTrip(t *testing.T) {
	all := kitty(31)
	for c := KeyRune; c < codeEnd; c++ {
		if c == KeyUnknown {
			continue
		}
		for _, mod := range append(roundTripMods, ModCapsLock, ModHyper|ModMeta) {
			for _, ev := range []KeyEventType{KeyPress, KeyRepeat, KeyRelease} {
				k := Key{Code: c, Mod: mod, Event: ev}
				if c == KeyRune {
					k.Rune = 'q'
				}
				b := Encode(k, all)
				evs := decodeOne(b)
				if len(evs) != 1 {
					t.Errorf("%s → %q → %s", k, b, describeAll(evs))
					continue
				}
				got, ok := evs[0].(Key)
				wantMod := mod
				if c == KeyRune && mod&ModShift != 0 {
					k.Rune = 'Q'
				}
				if !ok || got.Code != c || got.Mod != wantMod || got.Event != ev || got.Rune != k.Rune {
					t.Errorf("%s → %q → %s", k, b, describe(evs[0]))
				}
				// Re-encoding the decoded key gives the same bytes.
				if again := Encode(got, all); !bytes.Equal(again, b) {
					t.Errorf("%s → %q → re-encoded %q", k, b, again)
				}
			}
		}
	}
}

// TestTranslation follows keys from the bytes an outer terminal sends to the bytes a
// pane's program receives, in the situations the agents meet.
func TestTranslation(t *testing.T) {
	codex := kitty(KittyDisambiguate | KittyReportEvents | KittyReportAltKeys) // CSI > 7 u
	claude := kitty(KittyDisambiguate)
	cases := []struct {
		name, outer string
		pane        Mode
		want        string
	}{
		{"kitty shift+enter to a legacy program", "\x1b[13;2u", normal, "\r"},
		{"kitty shift+enter to kitty flag 1", "\x1b[13;2u", claude, "\x1b[13;2u"},
		{"kitty shift+enter to codex", "\x1b[13;2u", codex, "\x1b[13;2u"},
		{"modifyOtherKeys shift+enter to codex", "\x1b[27;2;13~", codex, "\x1b[13;2u"},
		{"legacy ctrl+c to codex", "\x03", codex, "\x1b[99;5u"},
		{"kitty ctrl+c to a legacy program", "\x1b[99;5u", normal, "\x03"},
		{"kitty release to a legacy program", "\x1b[97;1:3u", normal, ""},
		{"kitty release to flag 1", "\x1b[97;1:3u", claude, ""},
		{"kitty release to codex", "\x1b[97;1:3u", codex, "\x1b[97;1:3u"},
		{"kitty shifted key to codex", "\x1b[97:65;6u", codex, "\x1b[97:65;6u"},
		{"legacy text to codex", "hé", codex, "hé"},
		{"legacy escape to codex", "\x1b", codex, "\x1b[27u"},
		{"legacy alt+b to codex", "\x1bb", codex, "\x1b[98;3u"},
		{"SS3 home to an app-cursor program", "\x1bOH", appCursor, "\x1bOH"},
		{"SS3 home to a normal program", "\x1bOH", normal, "\x1b[H"},
		{"shift+delete stays shift+delete", "\x1b[3;2~", normal, "\x1b[3;2~"},
		{"ctrl+space", "\x00", normal, "\x00"},
		{"ctrl+space to kitty", "\x00", claude, "\x1b[32;5u"},
		{"up in app cursor mode", "\x1b[A", appCursor, "\x1bOA"},
		{"kitty F3 to a legacy program", "\x1b[13~", normal, "\x1bOR"},
		{"xterm ctrl+F3 to a legacy program", "\x1b[1;5R", normal, "\x1b[1;5R"},
		{"keypad enter in app keypad mode", "\x1bOM", appKeypad, "\x1bOM"},
		{"kitty keypad 1 to a legacy program", "\x1b[57400u", normal, "1"},
		{"unknown key passes through", "\x1b[99~", normal, "\x1b[99~"},
	}
	for _, c := range cases {
		var got []byte
		for _, ev := range decodeOne([]byte(c.outer)) {
			k, ok := ev.(Key)
			if !ok {
				t.Fatalf("%s: %q decoded to %s", c.name, c.outer, describe(ev))
			}
			got = append(got, Encode(k, c.pane)...)
		}
		if string(got) != c.want {
			t.Errorf("%s: %q → %q, want %q", c.name, c.outer, got, c.want)
		}
	}
}
