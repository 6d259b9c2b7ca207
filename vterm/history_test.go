package vterm

// History tests: which operations push rows into history (and which must not), the
// limit, ED 3, the round trip of the compact encoding (text, styles, wide characters,
// combining marks, soft-wrap flags), absolute row numbers for TextFrom and ScreenTop,
// and the memory bound for a full 10 000-line history of 200-column text.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func historyText(term *Terminal) []string {
	var out []string
	for _, l := range term.HistoryLines(0, term.HistoryLen()) {
		out = append(out, strings.TrimRight(lineString(l), " "))
	}
	return out
}

func lineString(l *Line) string {
	var b strings.Builder
	for _, c := range l.Cells {
		b.WriteString(c.String())
	}
	return b.String()
}

func TestWhatGoesIntoHistory(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"line feeds at the bottom", "1\r\n2\r\n3\r\n4", []string{"1"}},
		{"autowrap at the bottom", "1\r\n2\r\n3\r\nabcdefgh", []string{"1", "2"}},
		{"IND", "1\r\n2\r\n3\x1bD", []string{"1"}},
		{"SU", "1\r\n2\r\n3\x1b[2S", []string{"1", "2"}},
		{"region starting at the top", "1\r\n2\r\n3\x1b[1;2r\x1b[2;1H\nX", []string{"1"}},
		{"region not at the top", "1\r\n2\r\n3\x1b[2;3r\x1b[3;1H\n", nil},
		{"DL never", "1\r\n2\r\n3\x1b[H\x1b[2M", nil},
		{"ED 2 never", "1\r\n2\r\n3\x1b[2J", nil},
		{"alternate screen never", "\x1b[?1049h1\r\n2\r\n3\r\n4\r\n5", nil},
		{"ED 3 clears", "1\r\n2\r\n3\r\n4\r\n5\x1b[3J", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			term := newTerm(5, 3, c.in)
			if got := historyText(term); strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("history %q, want %q", got, c.want)
			}
		})
	}
}

func TestHistoryLimit(t *testing.T) {
	term := New(Options{Cols: 10, Rows: 2, HistoryLimit: 3})
	for i := 0; i < 10; i++ {
		fmt.Fprintf(term, "%d\r\n", i)
	}
	if got := historyText(term); strings.Join(got, ",") != "6,7,8" {
		t.Errorf("history %q, want the last three lines", got)
	}
	if top := term.ScreenTop(); top != 9 {
		t.Errorf("ScreenTop %d, want 9 (rows pushed ever)", top)
	}
	none := New(Options{Cols: 10, Rows: 2, HistoryLimit: -1})
	fmt.Fprint(none, "a\r\nb\r\nc\r\n")
	if none.HistoryLen() != 0 || none.ScreenTop() != 2 {
		t.Errorf("negative limit: %d lines held, top %d", none.HistoryLen(), none.ScreenTop())
	}
}

func TestHistoryRoundTrip(t *testing.T) {
	in := "\x1b[1;31mred\x1b[0m \x1b[48;2;1;2;3mbg\x1b[0m 中e\u0301\x1b]8;;http://x\x07L\x1b]8;;\x07\x1b[44m  \x1b[0m" +
		"\x1b[4:3;58;5;9;3;53mU\x1b[0m"
	term := newTerm(20, 1, in)
	want := term.Snapshot().Lines[0]
	term.Write([]byte("\r\n"))
	got := term.HistoryLines(0, 1)
	if len(got) != 1 {
		t.Fatalf("%d history lines", len(got))
	}
	for x := range want.Cells {
		if want.Cells[x] != got[0].Cells[x] {
			t.Errorf("cell %d: %+v after the round trip, was %+v", x, got[0].Cells[x], want.Cells[x])
		}
	}
	if l := term.Link(got[0].Cells[10].Style.Link); l != "http://x" {
		t.Errorf("link of history cell: %q", l)
	}
	if again := term.HistoryLines(0, 1); again[0] != got[0] {
		t.Error("asking twice for a history line gave a new *Line")
	}
}

func TestHistoryLinesWidth(t *testing.T) {
	term := newTerm(10, 1, "abcdefgh中\r\n")
	term.Resize(9, 1)
	l := term.HistoryLines(0, 1)[0]
	if len(l.Cells) != 9 || l.Cells[8].Width != 1 || l.Cells[8].Rune != 0 {
		t.Errorf("narrower read: %d cells, last %+v (a cut wide char must become a blank)", len(l.Cells), l.Cells[8])
	}
	term.Resize(15, 1)
	l = term.HistoryLines(0, 1)[0]
	if len(l.Cells) != 15 || lineString(l) != "abcdefgh中     " {
		t.Errorf("wider read: %d cells %q", len(l.Cells), lineString(l))
	}
	if term.HistoryLines(5, 3) != nil || term.HistoryLines(-3, 0) != nil {
		t.Error("out-of-range HistoryLines returned lines")
	}
}

func TestTextFrom(t *testing.T) {
	term := newTerm(5, 3, "one\r\nabcdefgh\r\nthree\r\nfour")
	// rows: history "one", "abcde"(wrapped); screen "fgh", "three", "four"
	got := term.TextFrom(0)
	want := []TextLine{{0, "one", 1}, {1, "abcdefgh", 2}, {3, "three", 1}, {4, "four", 1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("TextFrom(0) = %v, want %v", got, want)
	}
	if top := term.ScreenTop(); top != 2 {
		t.Errorf("ScreenTop = %d, want 2", top)
	}
	// a row continuing a line that started earlier is skipped
	if got := term.TextFrom(2); fmt.Sprint(got) != fmt.Sprint(want[2:]) {
		t.Errorf("TextFrom(2) = %v, want %v", got, want[2:])
	}
	if got := term.TextFrom(99); len(got) != 0 {
		t.Errorf("TextFrom past the end = %v", got)
	}
	// numbers stay absolute when history is dropped
	term.Write([]byte("\x1b[3J"))
	if got := term.TextFrom(0); len(got) == 0 || got[0].N != 2 {
		t.Errorf("after ED 3, TextFrom(0) = %v, want to start at row 2", got)
	}
	// blank rows at the bottom are left out; spaces inside a wrapped row are kept
	term = newTerm(4, 4, "ab  cd")
	if got := term.TextFrom(0); fmt.Sprint(got) != fmt.Sprint([]TextLine{{0, "ab  cd", 2}}) {
		t.Errorf("TextFrom = %v", got)
	}
	// erased cells inside a wrapped row are spaces of the joined line, on screen and in
	// history; the blank left by a wrapping wide character is not
	for _, c := range []struct{ in, want string }{
		{"abcdef\x1b[1;1H\x1b[2P", "cd  ef"},
		{"abcdef\x1b[1;1H\x1b[2P\x1b[3;1H\n\n\n", "cd  ef"},
		{"abc中x", "abc中x"},
		{"abc中x\x1b[3;1H\n\n\n", "abc中x"},
	} {
		term = newTerm(4, 3, c.in)
		if got := term.TextFrom(0); len(got) == 0 || got[0].Text != c.want {
			t.Errorf("%q: TextFrom = %v, want first line %q", c.in, got, c.want)
		}
	}
	// the main screen is read while the alternate screen is shown
	term = newTerm(10, 3, "main\x1b[?1049halt")
	if got := term.TextFrom(0); len(got) != 1 || got[0].Text != "main" {
		t.Errorf("TextFrom on alt screen = %v", got)
	}
}

func TestHistoryMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a full history")
	}
	line := strings.Repeat("the quick brown fox jumps over the lazy dog 0123456789 ", 4)[:200]
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	term := New(Options{Cols: 200, Rows: 50})
	for i := 0; i < 10050; i++ {
		term.Write([]byte(line))
		term.Write([]byte("\r\n"))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if term.HistoryLen() != 10000 {
		t.Fatalf("history holds %d lines", term.HistoryLen())
	}
	used := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("10 000 lines of 200 columns: %.2f MB", float64(used)/1e6)
	if used > 10<<20 {
		t.Errorf("history of 10 000 200-column lines uses %d bytes, want under 10 MB", used)
	}
	runtime.KeepAlive(term)
}

// ReadText gives what Snapshot, ScreenTop, ScreenText and TextFrom give, in one reading.
func TestReadTextMatchesTheSeparateReads(t *testing.T) {
	term := New(Options{Cols: 10, Rows: 3})
	term.WriteString("\x1b]2;busy\x07one\r\ntwo is longer than ten\r\nthree\r\nfour\r\nfive> ")
	rd := term.ReadText(-1)
	snap := term.Snapshot()
	if rd.Title != snap.Title || rd.Cursor != snap.Cursor || rd.Modes != snap.Modes || rd.AltScreen != snap.AltScreen {
		t.Errorf("reading %+v, snapshot %+v", rd, snap)
	}
	if rd.Top != term.ScreenTop() || !slices.Equal(rd.Rows, term.ScreenText()) || !slices.Equal(rd.Lines, term.TextFrom(rd.Top)) {
		t.Errorf("reading %d %q %+v; want %d %q %+v", rd.Top, rd.Rows, rd.Lines, term.ScreenTop(), term.ScreenText(), term.TextFrom(term.ScreenTop()))
	}
	if got, want := term.ReadText(0).Lines, term.TextFrom(0); !slices.Equal(got, want) {
		t.Errorf("from 0: %+v, want %+v", got, want)
	}
	if got := term.ReadText(math.MaxInt64).Lines; len(got) != 0 {
		t.Errorf("from past the end: %+v, want none", got)
	}
}

// A reading is of one moment while the program writes: the row the cursor is on is the
// text of the line numbered Top plus the cursor's row, however the writes interleave.
func TestReadTextIsOneMoment(t *testing.T) {
	term := New(Options{Cols: 20, Rows: 4})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 2000 {
			term.WriteString(fmt.Sprintf("answer %d\r\n", i))
			term.WriteString("bot> ")
		}
	}()
	check := func() {
		rd := term.ReadText(-1)
		want := ""
		for _, l := range rd.Lines {
			if l.N == rd.Top+int64(rd.Cursor.Y) {
				want = l.Text
			}
		}
		if got := rd.Rows[rd.Cursor.Y]; got != want {
			t.Fatalf("cursor row %d of top %d shows %q, its line %q", rd.Cursor.Y, rd.Top, got, want)
		}
	}
	for range 2000 {
		check()
	}
	<-done
	check()
}

// TestHistoryBlocks pushes lines of random lengths (empty ones included, some styled,
// some wide) through short and long histories, so blocks fill, empty and are reused in
// every order, and checks after each line that history holds exactly the newest lines
// and that its blocks stay in proportion to what they hold.
func TestHistoryBlocks(t *testing.T) {
	// a long history of short lines, and short ones of long lines: there a block holds
	// a few lines and often does not fit the next
	for _, c := range []struct{ cols, limit int }{{30, 40}, {2000, 3}, {1500, 1}} {
		t.Run(fmt.Sprintf("%dx%d", c.cols, c.limit), func(t *testing.T) { testBlocks(t, c.cols, c.limit) })
	}
}

func testBlocks(t *testing.T, cols, limit int) {
	r := rand.New(rand.NewPCG(11, uint64(cols)))
	term := New(Options{Cols: cols, Rows: 2, HistoryLimit: limit})
	var model []string
	for i := range 3000 {
		var line strings.Builder
		n := r.IntN(cols + 1)
		if r.IntN(8) == 0 {
			n = 0
		}
		for line.Len() < n {
			switch r.IntN(10) {
			case 0:
				line.WriteString("中")
			case 1:
				line.WriteString("e\u0301")
			default:
				line.WriteByte(byte('a' + r.IntN(26)))
			}
		}
		text := line.String()
		for x, w := 0, 0; x < len(text); { // cut to cols columns
			_, size := utf8.DecodeRuneInString(text[x:])
			if text[x:x+size] == "中" {
				w += 2
			} else if size == 1 {
				w++
			}
			if w > cols {
				text = text[:x]
				break
			}
			x += size
		}
		if r.IntN(3) == 0 {
			term.Write([]byte("\x1b[3" + itoa(r.IntN(8)) + "m"))
		}
		term.Write([]byte(text + "\x1b[0m\r\n"))
		model = append(model, text)
		// the screen holds the newest line and the empty one below
		want := model[max(0, len(model)-1-limit) : len(model)-1]
		// read the lines themselves: HistoryLines answers from a cache of decoded lines
		var got []string
		live := 0
		for j := 0; j < term.hist.len(); j++ {
			h := term.hist.at(j)
			got = append(got, string(h.appendText(nil, false, nil)))
			live += len(h.text) + len(h.runs) + len(h.comb)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("after line %d: history\n%q\nwant\n%q", i, got, want)
		}
		// blocks are freed as their lines go: what they hold stays within the lines
		// held, a block's unused tail each, the newest block and the spare
		held := 0
		for _, b := range append(term.hist.blocks, term.hist.spare) {
			if b != nil {
				held += len(b.data)
			}
		}
		if longest := maxLineBytes(term); held > 2*live+2*longest+2*blockSize {
			t.Fatalf("after line %d: blocks hold %d bytes for %d bytes of lines", i, held, live)
		}
	}
}

// maxLineBytes is the encoded size of the longest held line of t.
func maxLineBytes(t *Terminal) int {
	n := 0
	for j := 0; j < t.hist.len(); j++ {
		h := t.hist.at(j)
		n = max(n, len(h.text)+len(h.runs)+len(h.comb))
	}
	return n
}

// Two style runs that differ in one field while another field is equal stay two runs:
// the encoder's one-branch difference test once read a ^ b | c ^ d, which Go takes as
// ((a^b)|c)^d, and merged a red run into a green one on the same background.
func TestHistoryKeepsRunsThatDifferInOneField(t *testing.T) {
	cells := make([]Cell, 6)
	for x := range cells {
		cells[x] = Cell{Rune: rune('a' + x), Width: 1, Style: Style{BG: Indexed(240), FG: Indexed(183)}}
	}
	for x := 3; x < 6; x++ {
		cells[x].Style.FG = Indexed(231)
	}
	text, runs, comb := (&encScratch{}).encode(cells, nil)
	got := hview{text: text, runs: runs, comb: comb, cols: 6}.decode(6)
	for x := range cells {
		if got[x].Style != cells[x].Style {
			t.Fatalf("cell %d reads back as %+v, want %+v", x, got[x].Style, cells[x].Style)
		}
	}
}

func TestScreenLines(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"soft-wrapped rows are one line", "1. allow /tmp/work/x\r\n2. no",
			[]string{"1. allow /tmp/work/x", "2. no", ""}},
		{"a wrap at a space keeps it", "abcdefghi jkl",
			[]string{"abcdefghi jkl", "", ""}},
		{"the blank a wide character leaves is not text", "abcdefghi中x",
			[]string{"abcdefghi中x", "", ""}},
		{"erased cells inside a wrapped row are spaces", "abcdefghijkl\x1b[1;3H\x1b[2X",
			[]string{"ab  efghijkl", "", ""}},
		{"a line begun above the screen starts at its top row", "x\r\n" + strings.Repeat("y", 35),
			[]string{"yyyyyyyyyyyyyyyyyyyyyyyyy"}},
		{"the alternate screen", "main\x1b[?1049h\x1b[H0123456789abc\r\nend",
			[]string{"0123456789abc", "end", ""}},
		{"rows ended by the program stay apart", "0123456789\r\nabc",
			[]string{"0123456789", "abc", "", ""}},
	} {
		rows := 4
		if c.name == "a line begun above the screen starts at its top row" {
			rows = 3
		}
		term := newTerm(10, rows, c.in)
		if got := term.ScreenLines(); !slices.Equal(got, c.want) {
			t.Errorf("%s: ScreenLines = %q, want %q", c.name, got, c.want)
		}
	}
	// ScreenText still gives the rows
	term := newTerm(10, 2, "abcdefghijkl")
	if got := term.ScreenText(); !slices.Equal(got, []string{"abcdefghij", "kl"}) {
		t.Errorf("ScreenText = %q", got)
	}
}
