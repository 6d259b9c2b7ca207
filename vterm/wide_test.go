package vterm

// Wide and combining characters: tables of bytes → rows and cursor, plus cell-level
// checks that a wide character is a lead cell of width 2 followed by a continuation of
// width 0, and that edits never leave half of one behind.

import "testing"

func TestWideCharacters(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"CJK takes two cells", 10, 2, "中文x", rows(2, "中文x"), 5, 0},
		{"emoji takes two cells", 10, 2, "😀x", rows(2, "😀x"), 3, 0},
		{"wide wraps at the margin", 10, 3, "abcdefghi中x", rows(3, "abcdefghi", "中x"), 3, 1},
		{"wide fills a row exactly", 10, 3, "中文字中文x", rows(3, "中文字中文", "x"), 1, 1},
		{"wide after pending wrap", 10, 3, "abcdefghij中", rows(3, "abcdefghij", "中"), 2, 1},
		{"overwrite lead blanks the continuation", 10, 2, "中文\x1b[1;1HX", rows(2, "X 文"), 1, 0},
		{"overwrite continuation blanks the lead", 10, 2, "中文\x1b[1;2HX", rows(2, " X文"), 2, 0},
		{"wide over a wide half", 10, 2, "a中文\x1b[1;1H字", rows(2, "字 文"), 2, 0},
		{"combining mark joins the previous cell", 10, 2, "e\u0301x", rows(2, "e\u0301x"), 2, 0},
		{"combining after wide", 10, 2, "中\u0301x", rows(2, "中\u0301x"), 3, 0},
		{"combining at pending wrap joins the last cell", 3, 2, "abc\u0301", rows(2, "abc\u0301"), 2, 0},
		{"combining at column 0 is dropped", 10, 2, "\u0301x", rows(2, "x"), 1, 0},
		{"ZWJ sequence is one cell", 10, 2, "👩\u200d💻x", rows(2, "👩\u200d💻x"), 3, 0},
		{"a Hangul syllable joins a leading jamo", 10, 2, "\u1100\uac00x", rows(2, "\u1100\uac00x"), 3, 0},
		{"Hangul syllables are cells of their own", 10, 2, "한국어x", rows(2, "한국어x"), 7, 0},
		{"ASCII after a ZWJ starts a cell", 10, 2, "😀\u200dx", rows(2, "😀\u200dx"), 3, 0},
		{"ASCII after a ZWJ starts a cell in insert mode", 10, 2, "\x1b[4h😀\u200dx", rows(2, "😀\u200dx"), 3, 0},
		{"VS16 joins and widens an emoji-capable character", 10, 2, "☺\ufe0fx", rows(2, "☺\ufe0fx"), 3, 0},
		{"wide on a one-column screen", 1, 2, "中", rows(2, "\ufffd"), 0, 0},
		{"wide without autowrap at the margin", 5, 2, "\x1b[?7labcde中", rows(2, "abc中"), 4, 0},
		{"ICH through a wide char", 10, 2, "中文字中文\x1b[1;2H\x1b[@", rows(2, "   文字中"), 1, 0},
		{"DCH on a wide lead", 10, 2, "中文字\x1b[1;3H\x1b[P", rows(2, "中 字"), 2, 0},
		{"ECH on a continuation", 10, 2, "中文字\x1b[1;4H\x1b[X", rows(2, "中  字"), 3, 0},
		{"EL from a continuation", 10, 2, "中文字\x1b[1;4H\x1b[K", rows(2, "中"), 3, 0},
	})
}

// TestGraphemeClusters covers the clusters uniseg joins beyond combining marks: emoji
// modifiers, flags, VS16 presentation, Hangul and Indic spacing joins, and where a
// widened cluster goes when it no longer fits.
func TestGraphemeClusters(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"skin tone joins the emoji", 10, 2, "👍🏻x", rows(2, "👍🏻x"), 3, 0},
		{"every skin tone joins", 12, 2, "👋🏻👋🏼👋🏽👋🏾👋🏿", rows(2, "👋🏻👋🏼👋🏽👋🏾👋🏿"), 10, 0},
		{"skin tone inside a ZWJ sequence", 10, 2, "🧑🏽\u200d💻x", rows(2, "🧑🏽\u200d💻x"), 3, 0},
		{"family ZWJ sequence is one wide cell", 10, 2, "👨\u200d👩\u200d👧x", rows(2, "👨\u200d👩\u200d👧x"), 3, 0},
		{"flag is one wide cell", 10, 2, "🇫🇷x", rows(2, "🇫🇷x"), 3, 0},
		{"two flags", 10, 2, "🇫🇷🇩🇪x", rows(2, "🇫🇷🇩🇪x"), 5, 0},
		{"a third indicator starts a new cell", 10, 2, "🇫🇷🇫x", rows(2, "🇫🇷🇫x"), 4, 0},
		{"flag at the last column wraps", 4, 2, "abc🇫🇷", rows(2, "abc", "🇫🇷"), 2, 1},
		{"heart with VS16 is two cells", 10, 2, "❤\ufe0fx", rows(2, "❤\ufe0fx"), 3, 0},
		{"warning sign with VS16 is two cells", 10, 2, "⚠\ufe0fx", rows(2, "⚠\ufe0fx"), 3, 0},
		{"heart without VS16 stays narrow", 10, 2, "❤x", rows(2, "❤x"), 2, 0},
		{"VS16 on a character that is no emoji changes nothing", 10, 2, "a\ufe0fx", rows(2, "a\ufe0fx"), 2, 0},
		{"VS16 widening fills the last two columns", 4, 2, "ab❤\ufe0fx", rows(2, "ab❤\ufe0f", "x"), 1, 1},
		{"VS16 at the last column moves the emoji down", 4, 2, "abc❤\ufe0fx", rows(2, "abc", "❤\ufe0fx"), 3, 1},
		{"VS16 at the last column without autowrap stays narrow", 4, 2, "\x1b[?7labc❤\ufe0f", rows(2, "abc❤\ufe0f"), 3, 0},
		{"VS16 widening covers the next cell", 10, 2, "❤yz\x1b[1;2H\ufe0f", rows(2, "❤\ufe0fz"), 2, 0},
		{"VS16 widening in insert mode pushes the rest right", 10, 2, "❤yz\x1b[1;2H\x1b[4h\ufe0f", rows(2, "❤\ufe0fyz"), 2, 0},
		{"Hangul leading and vowel jamo join", 10, 2, "\u1100\u1161x", rows(2, "\u1100\u1161x"), 3, 0},
		{"Devanagari spacing mark joins its consonant", 10, 2, "\u0915\u093ex", rows(2, "\u0915\u093ex"), 3, 0},
		{"skin tone after a letter joins it (UAX #29)", 10, 2, "a🏻x", rows(2, "a🏻x"), 2, 0},
		{"lone skin tone is its own emoji", 10, 2, "🏻x", rows(2, "🏻x"), 3, 0},
		{"CJK characters never join", 10, 2, "中文字", rows(2, "中文字"), 6, 0},
		{"REP repeats the whole cluster", 10, 2, "👍🏻\x1b[2b", rows(2, "👍🏻👍🏻👍🏻"), 6, 0},
		{"cursor move ends the cluster", 10, 2, "🇫\x1b[1;5H🇷", rows(2, "🇫   🇷"), 5, 0},
	})
}

// TestCombiningAtTheRightEdge: a mark after a character written in the last column
// joins that character, whether autowrap is on (pending wrap) or off.
func TestCombiningAtTheRightEdge(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"pending wrap", 5, 2, "abcde\u0301", rows(2, "abcde\u0301"), 4, 0},
		{"autowrap off", 5, 2, "\x1b[?7labcde\u0301", rows(2, "abcde\u0301"), 4, 0},
		{"autowrap off, overwritten last column", 5, 2, "\x1b[?7labcdefg\u0301", rows(2, "abcdg\u0301"), 4, 0},
		{"autowrap off, rune path", 5, 2, "\x1b[?7labcdé\u0301", rows(2, "abcdé\u0301"), 4, 0},
		{"autowrap off, wide last", 5, 2, "\x1b[?7labc中\u0301", rows(2, "abc中\u0301"), 4, 0},
		{"autowrap off, next character overwrites", 5, 2, "\x1b[?7labcde\u0301X", rows(2, "abcdX"), 4, 0},
		{"autowrap off, BS then mark joins left of the cursor", 5, 2, "\x1b[?7labcde\b\u0301", rows(2, "abc\u0301de"), 3, 0},
		{"autowrap back on does not wrap", 5, 2, "\x1b[?7labcde\x1b[?7hX", rows(2, "abcdX"), 4, 0},
		{"ICH at the last column without autowrap", 5, 2, "\x1b[?7labcde\x1b[@", rows(2, "abcd"), 4, 0},
		{"skin tone at pending wrap", 4, 2, "ab👍🏻", rows(2, "ab👍🏻"), 3, 0},
	})
}

func TestClusterCells(t *testing.T) {
	cells := newTerm(6, 1, "🇫🇷❤\ufe0f").Snapshot().Lines[0].Cells
	if c := cells[0]; c.Rune != 0x1F1EB || c.Comb != "\U0001F1F7" || c.Width != 2 || cells[1].Width != 0 {
		t.Errorf("flag cells: %+v %+v", cells[0], cells[1])
	}
	if c := cells[2]; c.Rune != '❤' || c.Comb != "\ufe0f" || c.Width != 2 || cells[3].Width != 0 {
		t.Errorf("VS16 heart cells: %+v %+v", cells[2], cells[3])
	}
	if got := newTerm(6, 1, "🇫🇷❤\ufe0f").ScreenText()[0]; got != "🇫🇷❤\ufe0f" {
		t.Errorf("ScreenText = %q", got)
	}
	// joined and widened cells keep their width and runes through history
	term := newTerm(6, 1, "🇫🇷❤\ufe0f\r\n")
	h := term.HistoryLines(0, 1)
	if len(h) != 1 {
		t.Fatalf("history holds %d lines, want 1", len(h))
	}
	if c := h[0].Cells; c[0].Comb != "\U0001F1F7" || c[0].Width != 2 || c[2].Comb != "\ufe0f" || c[2].Width != 2 || c[3].Width != 0 {
		t.Errorf("history cells: %+v", c[:4])
	}
}

func TestWideCells(t *testing.T) {
	term := newTerm(6, 2, "a中b")
	cells := term.Snapshot().Lines[0].Cells
	if cells[1].Rune != '中' || cells[1].Width != 2 || cells[2].Width != 0 || cells[2].Rune != 0 {
		t.Errorf("wide cells: %+v %+v", cells[1], cells[2])
	}
	if cells[2].String() != "" || cells[1].String() != "中" || cells[4].String() != " " {
		t.Errorf("Cell.String: %q %q %q", cells[1].String(), cells[2].String(), cells[4].String())
	}
	// wrapping a wide character from the last column leaves a blank there
	term = newTerm(4, 2, "abc中")
	s := term.Snapshot()
	if c := s.Lines[0].Cells[3]; c.Rune != 0 || c.Width != 1 {
		t.Errorf("padding cell before a wrapped wide char: %+v", c)
	}
	if !s.Lines[0].Wrapped {
		t.Error("row holding a wrapped wide char is not marked wrapped")
	}
	if got := term.TextFrom(0); len(got) != 1 || got[0].Text != "abc中" {
		t.Errorf("TextFrom joins the wrapped wide char as %+v, want one line \"abc中\"", got)
	}
}

func TestCombiningIsBounded(t *testing.T) {
	in := "e"
	for i := 0; i < 1000; i++ {
		in += "\u0301"
	}
	term := newTerm(5, 1, in)
	if c := term.Snapshot().Lines[0].Cells[0]; len(c.Comb) > maxComb {
		t.Errorf("combining marks grew to %d bytes", len(c.Comb))
	}
}
