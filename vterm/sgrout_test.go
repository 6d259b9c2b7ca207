package vterm

// AppendSGR is the inverse of the SGR parser: for every style, the sequence it writes,
// read back by a Terminal, gives the same style on the next cell. Styles are drawn from
// a seeded generator over every attribute, underline style and colour kind.

import (
	"math/rand/v2"
	"testing"
)

func TestAppendSGRReadsBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	color := func() Color {
		switch rng.IntN(4) {
		case 0:
			return DefaultColor
		case 1:
			return Indexed(uint8(rng.IntN(16)))
		case 2:
			return Indexed(uint8(rng.IntN(256)))
		}
		return RGB(uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)))
	}
	for i := 0; i < 5000; i++ {
		s := Style{FG: color(), BG: color(), UL: color(), Attr: Attr(rng.IntN(1 << 8)), Underline: Underline(rng.IntN(6))}
		seq := "\x1b[" + string(s.AppendSGR(nil)) + "mx"
		term := New(Options{Cols: 4, Rows: 1})
		term.Write([]byte(seq))
		if got := term.Snapshot().Lines[0].Cells[0].Style; got != s {
			t.Fatalf("%q reads back as %+v, want %+v", seq, got, s)
		}
	}
	if got := (Style{}).AppendSGR(nil); len(got) != 0 {
		t.Errorf("the default style appends %q, want nothing", got)
	}
	if got := string((Style{Attr: AttrBold, Underline: UnderlineCurly, FG: Indexed(1), BG: Indexed(12)}).AppendSGR(nil)); got != "1;4:3;31;104" {
		t.Errorf("bold, curly underline, red on bright blue: %q", got)
	}
}
