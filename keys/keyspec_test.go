package keys

// ParseKey and Key.Matches: the spellings a --prefix flag accepts, the errors for the
// ones it does not, and that a parsed prefix matches the prefix key whichever way the
// outer terminal encodes it (legacy control byte, kitty CSI u, modifyOtherKeys).

import (
	"errors"
	"testing"
)

func TestParseKey(t *testing.T) {
	cases := []struct {
		spec string
		want Key
	}{
		{"ctrl+a", ch('a', ModCtrl)},
		{"ctrl+b", ch('b', ModCtrl)},
		{"Ctrl+B", Key{Code: KeyRune, Rune: 'B', Mod: ModCtrl}},
		{"C-a", ch('a', ModCtrl)},
		{"C-M-x", ch('x', ModCtrl|ModAlt)},
		{"M-x", ch('x', ModAlt)},
		{"alt+shift+x", ch('X', ModAlt|ModShift)},
		{"shift+a", ch('A', ModShift)},
		{"ctrl+shift+a", ch('A', ModCtrl|ModShift)},
		{"ctrl+space", ch(' ', ModCtrl)},
		{"ctrl+@", ch('@', ModCtrl)},
		{"ctrl+\\", ch('\\', ModCtrl)},
		{"ctrl++", ch('+', ModCtrl)},
		{"+", ch('+', 0)},
		{"ctrl+plus", ch('+', ModCtrl)},
		{"ctrl+-", ch('-', ModCtrl)},
		{"q", ch('q', 0)},
		{"Q", ch('Q', 0)},
		{"é", ch('é', 0)},
		{"f5", key(KeyF5, 0)},
		{"F12", key(KeyF12, 0)},
		{"shift+enter", key(KeyEnter, ModShift)},
		{"esc", key(KeyEscape, 0)},
		{"escape", key(KeyEscape, 0)},
		{"pgup", key(KeyPgUp, 0)},
		{"PageDown", key(KeyPgDn, 0)},
		{"super+left", key(KeyLeft, ModSuper)},
		{"cmd+k", ch('k', ModSuper)},
		{"kp_enter", key(KeyKPEnter, 0)},
		{" ctrl+a ", ch('a', ModCtrl)},
	}
	for _, c := range cases {
		got, err := ParseKey(c.spec)
		if err != nil {
			t.Errorf("ParseKey(%q): %v", c.spec, err)
			continue
		}
		if got.Code != c.want.Code || got.Rune != c.want.Rune || got.Mod != c.want.Mod {
			t.Errorf("ParseKey(%q) = %s, want %s", c.spec, got, c.want)
		}
	}
	for _, bad := range []string{"", "ctrl+", "ctrl+ctrl+a", "hyperdrive+a", "ctrl+nosuchkey", "ab", "ctrl+\x01", "unknown"} {
		if k, err := ParseKey(bad); err == nil || !errors.Is(err, ErrBadKey) {
			t.Errorf("ParseKey(%q) = %s, %v; want an ErrBadKey", bad, k, err)
		}
	}
}

func TestKeyStringParsesBack(t *testing.T) {
	for c := KeyRune; c < codeEnd; c++ {
		if c == KeyUnknown {
			continue
		}
		for _, m := range roundTripMods {
			k := Key{Code: c, Mod: m}
			if c == KeyRune {
				k.Rune = 'x'
				k.Rune = k.char()
			}
			got, err := ParseKey(k.String())
			if err != nil || !got.Matches(k) || got.Mod != k.Mod {
				t.Errorf("ParseKey(%q) = %s, %v", k.String(), got, err)
			}
		}
	}
}

func TestPrefixMatchesEveryEncoding(t *testing.T) {
	prefix, err := ParseKey("ctrl+a")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"\x01", "\x1b[97;5u", "\x1b[27;5;97~", "\x1b[97;69u", "\x1b[97;5:2u"} {
		evs := decodeOne([]byte(in))
		if len(evs) != 1 || !prefix.Matches(evs[0].(Key)) || !evs[0].(Key).Matches(prefix) {
			t.Errorf("ctrl+a does not match %q (%s)", in, describeAll(evs))
		}
	}
	for _, in := range []string{"a", "\x02", "\x1b\x01", "\x1b[97;6u", "\x1b[97;5:3u", "\x1b[97;7u", "A"} {
		if evs := decodeOne([]byte(in)); len(evs) == 1 && prefix.Matches(evs[0].(Key)) {
			t.Errorf("ctrl+a matches %q (%s)", in, describeAll(evs))
		}
	}
	// Case does not matter under Ctrl; Shift on a text key is already in its rune.
	if k, _ := ParseKey("ctrl+A"); !k.Matches(ch('a', ModCtrl)) {
		t.Error("ctrl+A does not match ctrl+a")
	}
	if k, _ := ParseKey("ctrl+@"); !k.Matches(decodeOne([]byte{0})[0].(Key)) {
		t.Error("ctrl+@ does not match NUL")
	}
	if !ch('G', 0).Matches(ch('G', ModShift)) || ch('g', 0).Matches(ch('G', 0)) {
		t.Error("text keys: G must match shift+G and not g")
	}
	if key(KeyUp, ModCtrl).Matches(key(KeyUp, 0)) || !key(KeyUp, ModCtrl).Matches(key(KeyUp, ModCtrl|ModNumLock)) {
		t.Error("functional keys: modifiers must matter, lock states not")
	}
}

func TestLegacySends(t *testing.T) {
	sendsItself := []string{"ctrl+a", "ctrl+b", "ctrl+space", "ctrl+\\", "ctrl+]", "alt+x", "C-M-x", "f1", "f12", "shift+f5", "ctrl+left", "alt+enter"}
	for _, spec := range sendsItself {
		k, err := ParseKey(spec)
		if err != nil {
			t.Fatalf("ParseKey(%q): %v", spec, err)
		}
		if got, ok := LegacySends(k); !ok {
			t.Errorf("LegacySends(%s) = %v, false; want the key itself", spec, got)
		}
	}
	others := map[string]Key{
		"ctrl+m": {Code: KeyEnter},
		"ctrl+i": {Code: KeyTab},
		"ctrl+[": {Code: KeyEscape},
		"ctrl+1": ch('1', 0),
		"f13":    {Code: KeyF1, Mod: ModShift},
	}
	for spec, want := range others {
		k, err := ParseKey(spec)
		if err != nil {
			t.Fatalf("ParseKey(%q): %v", spec, err)
		}
		got, ok := LegacySends(k)
		if ok || !got.Matches(want) {
			t.Errorf("LegacySends(%s) = %v, %v; want %v, false", spec, got, ok, want)
		}
	}
	for _, spec := range []string{"super+a", "hyper+x"} {
		k, err := ParseKey(spec)
		if err != nil {
			t.Fatalf("ParseKey(%q): %v", spec, err)
		}
		if got, ok := LegacySends(k); ok {
			t.Errorf("LegacySends(%s) = %v, true; no legacy terminal sends it", spec, got)
		}
	}
}
