package keys

// The reply helpers on what real terminals answer: kitty flags, DA1, and OSC colours
// with 4, 2 and 1 hex digits per component, ended by ST or BEL.

import "testing"

func TestReplyHelpers(t *testing.T) {
	if f, ok := (Reply{Raw: []byte("\x1b[?7u")}).KittyFlags(); !ok || f != 7 {
		t.Errorf("kitty flags: %d %v", f, ok)
	}
	for _, bad := range []string{"\x1b[?u", "\x1b[?62c", "\x1b[?999u", "\x1b[7u"} {
		if _, ok := (Reply{Raw: []byte(bad)}).KittyFlags(); ok {
			t.Errorf("KittyFlags(%q) ok", bad)
		}
	}
	if !(Reply{Raw: []byte("\x1b[?62;22c")}).PrimaryDA() || (Reply{Raw: []byte("\x1b[>1;2c")}).PrimaryDA() {
		t.Error("PrimaryDA")
	}
	cases := []struct {
		in      string
		n       int
		r, g, b uint8
		ok      bool
	}{
		{"\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\", 11, 0x1c, 0x1c, 0x1c, true},
		{"\x1b]10;rgb:ffff/8080/0000\a", 10, 0xff, 0x80, 0x00, true},
		{"\x1b]11;rgb:ff/00/7f\x1b\\", 11, 0xff, 0x00, 0x7f, true},
		{"\x1b]12;rgb:f/0/8\a", 12, 0xff, 0x00, 0x88, true},
		{"\x1b]11;rgba:0000/ffff/0000/ffff\a", 11, 0, 0xff, 0, true},
		{"\x1b]11;?\a", 0, 0, 0, 0, false},
		{"\x1b]11;rgb:12345/0/0\a", 0, 0, 0, 0, false},
		{"\x1b]11;rgb:1c1c/1c1c\a", 0, 0, 0, 0, false},
		{"\x1b[?62c", 0, 0, 0, 0, false},
	}
	for _, c := range cases {
		n, r, g, b, ok := (Reply{Raw: []byte(c.in)}).Color()
		if ok != c.ok || (ok && (n != c.n || r != c.r || g != c.g || b != c.b)) {
			t.Errorf("Color(%q) = %d #%02x%02x%02x %v", c.in, n, r, g, b, ok)
		}
	}
}
