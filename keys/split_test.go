package keys

// SplitEscape is tested on what the Decoder makes of real byte strings: ESC followed at
// once by a key (Escape pressed just before it, or Alt+key from a legacy terminal) splits
// into Escape and that key; keys whose Alt is part of a CSI sequence do not.

import (
	"bytes"
	"testing"
)

func TestSplitEscape(t *testing.T) {
	cases := []struct {
		in    string
		split bool
		key   Key
	}{
		{"\x1b\x01", true, ch('a', ModCtrl)},     // Esc then ctrl+a (the default prefix)
		{"\x1b\x02", true, ch('b', ModCtrl)},     // Esc then ctrl+b
		{"\x1bx", true, ch('x', 0)},              // Esc then x
		{"\x1b\xc3\xa9", true, ch('é', 0)},       // Esc then é
		{"\x1b\r", true, key(KeyEnter, 0)},       // Esc then Enter
		{"\x1b\x1b[A", true, key(KeyUp, 0)},      // Esc then Up (old alt+up)
		{"\x1b[1;3A", false, Key{}},              // alt+up as CSI: one key
		{"\x1b[97;7u", false, Key{}},             // kitty alt+ctrl+a: one key
		{"\x01", false, Key{}},                   // plain ctrl+a
		{"\x1b", false, Key{}},                   // a lone Escape
		{"\x1b[200~x\x1b[201~", false, Key{}},    // not a key at all
		{"\x1bOP", false, Key{}},                 // F1
		{"\x1b[1;3P", false, Key{}},              // alt+F1
		{"\x1b" + "\x1b", false, Key{}},          // two Escapes stay two keys
		{"\x1b[", true, ch('[', 0)},              // ESC [ flushed alone: Esc then [
		{"\x1bO", true, ch('O', 0)},              // ESC O flushed alone: Esc then O
		{"\x1b\x7f", true, key(KeyBackspace, 0)}, // Esc then Backspace
		{"\x1b\x00", true, ch(' ', ModCtrl)},     // Esc then ctrl+space
		{"\x1bA", true, ch('A', 0)},              // Esc then A
	}
	for _, c := range cases {
		var d Decoder
		evs := append(d.Feed([]byte(c.in)), d.Flush()...)
		k, isKey := evs[0].(Key)
		esc, got, ok := SplitEscape(k)
		if ok != c.split || c.split && !isKey {
			t.Errorf("%q → %s: split %v, want %v", c.in, describeAll(evs), ok, c.split)
			continue
		}
		if !ok {
			continue
		}
		if len(evs) != 1 {
			t.Errorf("%q decoded to %d events (%s), want one Alt key", c.in, len(evs), describeAll(evs))
		}
		if esc.Code != KeyEscape || esc.Mod != 0 || string(esc.Raw) != "\x1b" {
			t.Errorf("%q: first key %s raw %q, want Escape", c.in, esc, esc.Raw)
		}
		if !got.Matches(c.key) || got.Mod&ModAlt != 0 || !bytes.Equal(got.Raw, []byte(c.in)[1:]) {
			t.Errorf("%q: second key %s raw %q, want %s raw %q", c.in, got, got.Raw, c.key, c.in[1:])
		}
	}
}
