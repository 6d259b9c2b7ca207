package keys

// EncodePaste: bracketed pastes are wrapped and cannot be ended early by markers in the
// text (even ones that only form once another is removed); plain pastes turn line
// ends into CR as a terminal does; a bracketed paste decodes back to its text.

import "testing"

func TestEncodePaste(t *testing.T) {
	cases := []struct {
		text      string
		bracketed bool
		want      string
	}{
		{"hello", true, "\x1b[200~hello\x1b[201~"},
		{"", true, "\x1b[200~\x1b[201~"},
		{"a\nb\r\nc", true, "\x1b[200~a\nb\r\nc\x1b[201~"},
		{"evil\x1b[201~rm -rf ~\r", true, "\x1b[200~evilrm -rf ~\r\x1b[201~"},
		{"x\x1b[200~y", true, "\x1b[200~xy\x1b[201~"},
		{"\x1b[20\x1b[201~1~; echo pwned", true, "\x1b[200~; echo pwned\x1b[201~"},
		{"a\x1b[Ab", true, "\x1b[200~a\x1b[Ab\x1b[201~"},
		{"hello", false, "hello"},
		{"a\nb\r\nc\rd", false, "a\rb\rc\rd"},
		{"\n\n", false, "\r\r"},
	}
	for _, c := range cases {
		if got := string(EncodePaste(c.text, c.bracketed)); got != c.want {
			t.Errorf("EncodePaste(%q, %v) = %q, want %q", c.text, c.bracketed, got, c.want)
		}
	}
	text := "multi\nline \x1b[A text"
	evs := decodeOne(EncodePaste(text, true))
	if p, ok := evs[0].(Paste); len(evs) != 1 || !ok || p.Text != text {
		t.Fatalf("round trip: %s", describeAll(evs))
	}
}
