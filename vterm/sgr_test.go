package vterm

// SGR table tests: each case prints "x" after an SGR sequence and compares the cell's
// whole Style, so an attribute that leaks or is lost fails the case. Colours are
// checked by kind as well as value (a 24-bit colour is never a palette index).

import "testing"

func styleAfter(t *testing.T, in string) Style {
	t.Helper()
	term := newTerm(10, 2, in+"x")
	return term.Snapshot().Lines[0].Cells[0].Style
}

func TestSGR(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want Style
	}{
		{"reset by empty SGR", "\x1b[1;31m\x1b[m", Style{}},
		{"reset by 0", "\x1b[1;31m\x1b[0m", Style{}},
		{"bold", "\x1b[1m", Style{Attr: AttrBold}},
		{"dim", "\x1b[2m", Style{Attr: AttrDim}},
		{"italic", "\x1b[3m", Style{Attr: AttrItalic}},
		{"underline", "\x1b[4m", Style{Underline: UnderlineSingle}},
		{"blink", "\x1b[5m", Style{Attr: AttrBlink}},
		{"rapid blink is blink", "\x1b[6m", Style{Attr: AttrBlink}},
		{"reverse", "\x1b[7m", Style{Attr: AttrReverse}},
		{"hidden", "\x1b[8m", Style{Attr: AttrHidden}},
		{"strike", "\x1b[9m", Style{Attr: AttrStrike}},
		{"double underline", "\x1b[21m", Style{Underline: UnderlineDouble}},
		{"overline", "\x1b[53m", Style{Attr: AttrOverline}},
		{"22 clears bold and dim", "\x1b[1;2;3m\x1b[22m", Style{Attr: AttrItalic}},
		{"23 24 25 27 28 29 55", "\x1b[3;4;5;7;8;9;53m\x1b[23;24;25;27;28;29;55m", Style{}},
		{"many in one", "\x1b[1;3;4;7m", Style{Attr: AttrBold | AttrItalic | AttrReverse, Underline: UnderlineSingle}},
		{"ANSI foreground", "\x1b[31m", Style{FG: Indexed(1)}},
		{"ANSI background", "\x1b[47m", Style{BG: Indexed(7)}},
		{"bright foreground", "\x1b[91m", Style{FG: Indexed(9)}},
		{"bright background", "\x1b[107m", Style{BG: Indexed(15)}},
		{"default colours", "\x1b[31;42m\x1b[39;49m", Style{}},
		{"256 colours", "\x1b[38;5;208;48;5;17m", Style{FG: Indexed(208), BG: Indexed(17)}},
		{"24-bit colours", "\x1b[38;2;1;2;3;48;2;250;251;252m", Style{FG: RGB(1, 2, 3), BG: RGB(250, 251, 252)}},
		{"24-bit below 256 is not a palette index", "\x1b[38;2;0;0;5m", Style{FG: RGB(0, 0, 5)}},
		{"colon 256", "\x1b[38:5:99m", Style{FG: Indexed(99)}},
		{"colon 24-bit with colour space", "\x1b[38:2::10:20:30m", Style{FG: RGB(10, 20, 30)}},
		{"colon 24-bit with colour space id", "\x1b[48:2:0:10:20:30m", Style{BG: RGB(10, 20, 30)}},
		{"colon 24-bit without colour space", "\x1b[38:2:10:20:30m", Style{FG: RGB(10, 20, 30)}},
		{"colon then more", "\x1b[38:5:99;1m", Style{FG: Indexed(99), Attr: AttrBold}},
		{"underline colour", "\x1b[58;5;3m", Style{UL: Indexed(3)}},
		{"underline colour colon", "\x1b[58:2::1:2:3m", Style{UL: RGB(1, 2, 3)}},
		{"underline colour default", "\x1b[58;5;3m\x1b[59m", Style{}},
		{"curly underline", "\x1b[4:3m", Style{Underline: UnderlineCurly}},
		{"dotted and dashed", "\x1b[4:5m", Style{Underline: UnderlineDashed}},
		{"4:0 removes the underline", "\x1b[4m\x1b[4:0m", Style{}},
		{"colon underline keeps other attributes", "\x1b[1m\x1b[4:2m", Style{Attr: AttrBold, Underline: UnderlineDouble}},
		{"out of range 256 colour ignored", "\x1b[38;5;300m", Style{}},
		{"24-bit values clamp", "\x1b[38;2;999;0;0m", Style{FG: RGB(255, 0, 0)}},
		{"truncated 38 is ignored", "\x1b[1;38;2;1m", Style{Attr: AttrBold}},
		{"truncated 38;5", "\x1b[38;5m", Style{}},
		{"unknown SGR ignored", "\x1b[1;77;4m", Style{Attr: AttrBold, Underline: UnderlineSingle}},
		{"XTMODKEYS is not SGR", "\x1b[1m\x1b[>4;2m", Style{Attr: AttrBold}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := styleAfter(t, c.in); got != c.want {
				t.Errorf("%q: got %+v, want %+v", c.in, got, c.want)
			}
		})
	}
}

func TestSGRStopsAtCellsWritten(t *testing.T) {
	term := newTerm(10, 2, "a\x1b[31mb\x1b[0mc")
	cells := term.Snapshot().Lines[0].Cells
	if cells[0].Style.FG != DefaultColor || cells[1].Style.FG != Indexed(1) || cells[2].Style.FG != DefaultColor {
		t.Errorf("styles %+v %+v %+v", cells[0].Style, cells[1].Style, cells[2].Style)
	}
}

func TestEraseUsesBackgroundColour(t *testing.T) {
	term := newTerm(5, 2, "abcde\x1b[44m\x1b[1;3H\x1b[K")
	cells := term.Snapshot().Lines[0].Cells
	if cells[1].Style.BG != DefaultColor {
		t.Errorf("cell before the erase changed: %+v", cells[1])
	}
	for x := 2; x < 5; x++ {
		if cells[x].Rune != 0 || cells[x].Style.BG != Indexed(4) {
			t.Errorf("erased cell %d = %+v, want blank on colour 4", x, cells[x])
		}
	}
}

func TestColorAccessors(t *testing.T) {
	if i, ok := Indexed(200).Index(); !ok || i != 200 {
		t.Errorf("Indexed(200).Index() = %d, %v", i, ok)
	}
	if _, ok := RGB(0, 0, 200).Index(); ok {
		t.Error("an RGB colour reported a palette index")
	}
	if r, g, b, ok := RGB(1, 2, 3).RGB(); !ok || r != 1 || g != 2 || b != 3 {
		t.Errorf("RGB(1,2,3).RGB() = %d %d %d %v", r, g, b, ok)
	}
	if !DefaultColor.IsDefault() || Indexed(0).IsDefault() || RGB(0, 0, 0).IsDefault() {
		t.Error("IsDefault confuses black with the default colour")
	}
}
