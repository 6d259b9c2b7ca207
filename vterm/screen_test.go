package vterm

// Table tests of the screen operations: each case feeds bytes into a fresh Terminal
// and compares the text rows (trailing blanks trimmed) and the cursor with what xterm
// does. The same tables are replayed one byte per Write, which must give the same
// screen. Helpers shared by the package's internal tests live here.

import (
	"fmt"
	"strings"
	"testing"
)

// screenCase is one {bytes in → screen rows and cursor} expectation.
type screenCase struct {
	name       string
	cols, rows int
	in         string
	want       []string // all rows, trailing blanks trimmed
	x, y       int      // cursor
}

// newTerm returns a Terminal of the given size fed with in.
func newTerm(cols, rows int, in string) *Terminal {
	t := New(Options{Cols: cols, Rows: rows})
	t.Write([]byte(in))
	return t
}

// rowsText is ScreenText with trailing spaces trimmed.
func rowsText(t *Terminal) []string {
	return t.ScreenText()
}

func checkScreen(t *testing.T, term *Terminal, want []string, x, y int) {
	t.Helper()
	got := rowsText(term)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("screen:\n got %q\nwant %q", got, want)
	}
	c := term.Snapshot().Cursor
	if c.X != x || c.Y != y {
		t.Errorf("cursor: got %d,%d, want %d,%d", c.X, c.Y, x, y)
	}
}

func runScreenCases(t *testing.T, cases []screenCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkScreen(t, newTerm(c.cols, c.rows, c.in), c.want, c.x, c.y)
			// byte by byte must give the same result
			term := New(Options{Cols: c.cols, Rows: c.rows})
			for i := 0; i < len(c.in); i++ {
				term.Write([]byte{c.in[i]})
			}
			checkScreen(t, term, c.want, c.x, c.y)
		})
	}
}

// rows builds a want slice: the given rows followed by blank rows up to n.
func rows(n int, r ...string) []string {
	out := make([]string, n)
	copy(out, r)
	return out
}

func TestPrintingAndControls(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"text", 10, 3, "hello", rows(3, "hello"), 5, 0},
		{"CR LF", 10, 3, "ab\r\ncd", rows(3, "ab", "cd"), 2, 1},
		{"LF keeps column", 10, 3, "ab\ncd", rows(3, "ab", "  cd"), 4, 1},
		{"BS", 10, 3, "abc\b\bX", rows(3, "aXc"), 2, 0},
		{"BS at column 0 stays", 10, 3, "\b\bX", rows(3, "X"), 1, 0},
		{"tab stops every 8", 30, 2, "a\tb\tc", rows(2, "a       b       c"), 17, 0},
		{"tab stops at the last column", 10, 2, "abcdefgh\tX\tY", rows(2, "abcdefgh Y"), 9, 0},
		{"VT and FF are line feeds", 10, 4, "a\vb\fc", rows(4, "a", " b", "  c"), 3, 2},
		{"DEL is ignored", 10, 2, "a\x7fb", rows(2, "ab"), 2, 0},
		{"NUL is ignored", 10, 2, "a\x00b", rows(2, "ab"), 2, 0},
		{"scrolls at the bottom", 5, 2, "a\r\nb\r\nc", rows(2, "b", "c"), 1, 1},
		{"DEC special graphics", 10, 2, "\x1b(0qxl\x1b(Bq", rows(2, "─│┌q"), 4, 0},
		{"SO selects G1", 10, 2, "\x1b)0a\x0eq\x0fq", rows(2, "a─q"), 3, 0},
	})
}

func TestAutowrap(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"pending wrap keeps the cursor in the last column", 5, 3, "abcde", rows(3, "abcde"), 4, 0},
		{"next character wraps", 5, 3, "abcdef", rows(3, "abcde", "f"), 1, 1},
		{"CR at pending wrap cancels it", 5, 3, "abcde\rX", rows(3, "Xbcde"), 1, 0},
		{"CRLF at pending wrap gives one new line", 5, 3, "abcde\r\nX", rows(3, "abcde", "X"), 1, 1},
		{"BS from pending wrap", 5, 3, "abcde\bX", rows(3, "abcXe"), 4, 0},
		{"CUP clears pending wrap", 5, 3, "abcde\x1b[1;1HX", rows(3, "Xbcde"), 1, 0},
		{"autowrap off overwrites the last column", 5, 2, "\x1b[?7labcdefg", rows(2, "abcdg"), 4, 0},
		{"autowrap off then on", 5, 3, "\x1b[?7labcdefg\x1b[?7hXY", rows(3, "abcdX", "Y"), 1, 1},
		{"wrap scrolls at the bottom", 3, 2, "abcdefgh", rows(2, "def", "gh"), 2, 1},
	})
}

func TestCursorMoves(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"CUP", 10, 5, "\x1b[3;4HX", rows(5, "", "", "   X"), 4, 2},
		{"CUP defaults home", 10, 5, "ab\x1b[HX", rows(5, "Xb"), 1, 0},
		{"CUP clamps", 10, 3, "\x1b[99;99HX", rows(3, "", "", "         X"), 9, 2},
		{"HVP", 10, 3, "\x1b[2;2fX", rows(3, "", " X"), 2, 1},
		{"CUU CUD CUF CUB", 10, 5, "\x1b[3;3H\x1b[AU\x1b[2BD\x1b[3CF\x1b[5DB", rows(5, "", "  U", "", "   B   F"), 4, 3},
		{"counts of 0 mean 1", 10, 3, "\x1b[2;2H\x1b[0AX", rows(3, " X"), 2, 0},
		{"moves clamp at the edges", 10, 3, "\x1b[99A\x1b[99DX\x1b[99B\x1b[99CY", rows(3, "X", "", "         Y"), 9, 2},
		{"CNL and CPL", 10, 5, "ab\x1b[2EX\x1b[FY", rows(5, "ab", "Y", "X"), 1, 1},
		{"CHA and HPA", 10, 2, "\x1b[5GX\x1b[2`Y", rows(2, " Y  X"), 2, 0},
		{"VPA", 10, 4, "ab\x1b[3dX", rows(4, "ab", "", "  X"), 3, 2},
		{"HPR and VPR", 10, 4, "\x1b[1;2H\x1b[2aX\x1b[2eY", rows(4, "   X", "", "    Y"), 5, 2},
		{"huge counts are clamped", 10, 3, "\x1b[99999999999999CX", rows(3, "         X"), 9, 0},
		{"DECSC DECRC", 20, 5, "\x1b[2;3H\x1b7\x1b[5;5Hx\x1b8X", rows(5, "", "  X", "", "", "    x"), 3, 1},
		{"SCOSC SCORC", 20, 5, "\x1b[2;3H\x1b[s\x1b[5;5H\x1b[uX", rows(5, "", "  X"), 3, 1},
		{"DECRC without DECSC homes", 10, 3, "\x1b[2;2H\x1b8X", rows(3, "X"), 1, 0},
		{"DECRC keeps autowrap as it is", 10, 3, "\x1b7\x1b[?7l\x1b8abcdefghijklm", rows(3, "abcdefghim"), 9, 0},
	})
}

func TestErase(t *testing.T) {
	full := "aaaaaaaaaa\r\nbbbbbbbbbb\r\ncccccccccc"
	runScreenCases(t, []screenCase{
		{"EL 0", 10, 3, full + "\x1b[2;4H\x1b[K", rows(3, "aaaaaaaaaa", "bbb", "cccccccccc"), 3, 1},
		{"EL 1", 10, 3, full + "\x1b[2;4H\x1b[1K", rows(3, "aaaaaaaaaa", "    bbbbbb", "cccccccccc"), 3, 1},
		{"EL 2", 10, 3, full + "\x1b[2;4H\x1b[2K", rows(3, "aaaaaaaaaa", "", "cccccccccc"), 3, 1},
		{"ED 0", 10, 3, full + "\x1b[2;4H\x1b[J", rows(3, "aaaaaaaaaa", "bbb", ""), 3, 1},
		{"ED 1", 10, 3, full + "\x1b[2;4H\x1b[1J", rows(3, "", "    bbbbbb", "cccccccccc"), 3, 1},
		{"ED 2 keeps the cursor", 10, 3, full + "\x1b[2;4H\x1b[2J", rows(3), 3, 1},
		{"ECH", 10, 3, full + "\x1b[2;4H\x1b[3X", rows(3, "aaaaaaaaaa", "bbb   bbbb", "cccccccccc"), 3, 1},
		{"ECH past the edge", 10, 3, full + "\x1b[2;4H\x1b[99X", rows(3, "aaaaaaaaaa", "bbb", "cccccccccc"), 3, 1},
		{"DECSED and DECSEL", 10, 3, full + "\x1b[2;4H\x1b[?K\x1b[3;1H\x1b[?2J", rows(3), 0, 2},
	})
}

// TestEraseAtPendingWrap: after a write to the last column (autowrap on), tmux has the
// cursor one past the last column, so what erases or shifts from the cursor leaves the
// row alone and the next character still wraps (xterm would blank the last column).
// Programs that end full-width lines with EL, like top, keep their last character.
func TestEraseAtPendingWrap(t *testing.T) {
	const line = "0123456789"
	runScreenCases(t, []screenCase{
		{"EL 0 keeps the last column", 10, 3, line + "\x1b[K", rows(3, line), 9, 0},
		{"EL 0 keeps the wrap pending", 10, 3, line + "\x1b[KX", rows(3, line, "X"), 1, 1},
		{"DECSEL 0 too", 10, 3, line + "\x1b[?KX", rows(3, line, "X"), 1, 1},
		{"ECH", 10, 3, line + "\x1b[3XX", rows(3, line, "X"), 1, 1},
		{"DCH", 10, 3, line + "\x1b[2PX", rows(3, line, "X"), 1, 1},
		{"ICH", 10, 3, line + "\x1b[2@X", rows(3, line, "X"), 1, 1},
		{"ED 0 clears below only", 10, 3, "\x1b[2;1Hbelow\x1b[1;1H" + line + "\x1b[J", rows(3, line), 9, 0},
		{"EL 1 still clears through the last column", 10, 3, line + "\x1b[1K", rows(3), 9, 0},
		{"EL 2 still clears the row", 10, 3, line + "\x1b[2KX", rows(3, "", "X"), 1, 1},
		{"top's summary row then a newline", 10, 3, line + "\x1b[K\r\nnext\x1b[K", rows(3, line, "next"), 4, 1},
		{"without autowrap EL erases the last column", 10, 3, "\x1b[?7l" + line + "\x1b[K", rows(3, "012345678"), 9, 0},
		{"after a cursor move EL erases", 10, 3, line + "\x1b[1;10H\x1b[K", rows(3, "012345678"), 9, 0},
	})
}

func TestEditing(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"ICH", 10, 2, "abcdef\x1b[1;3H\x1b[2@", rows(2, "ab  cdef"), 2, 0},
		{"ICH pushes off the edge", 10, 2, "abcdefghij\x1b[1;3H\x1b[3@", rows(2, "ab   cdefg"), 2, 0},
		{"DCH", 10, 2, "abcdef\x1b[1;2H\x1b[2P", rows(2, "adef"), 1, 0},
		{"DCH past the edge", 10, 2, "abcdef\x1b[1;2H\x1b[99P", rows(2, "a"), 1, 0},
		{"IL", 10, 4, "1\r\n2\r\n3\r\n4\x1b[2;1H\x1b[L", rows(4, "1", "", "2", "3"), 0, 1},
		{"IL keeps the column", 10, 4, "1\r\n2\x1b[2;3H\x1b[LX", rows(4, "1", "  X", "2"), 3, 1},
		{"DL", 10, 4, "1\r\n2\r\n3\r\n4\x1b[2;1H\x1b[2M", rows(4, "1", "4"), 0, 1},
		{"IL in region", 10, 5, "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[3;1H\x1b[L", rows(5, "1", "2", "", "3", "5"), 0, 2},
		{"DL in region", 10, 5, "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[2;1H\x1b[M", rows(5, "1", "3", "4", "", "5"), 0, 1},
		{"IL outside region is ignored", 10, 5, "1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[5;1H\x1b[L", rows(5, "1", "2", "3", "4", "5"), 0, 4},
		{"insert mode", 10, 2, "abcdef\r\x1b[4hXY\x1b[4lZ", rows(2, "XYZbcdef"), 3, 0},
		{"insert mode pushes off the edge", 5, 2, "abcde\r\x1b[4hXY", rows(2, "XYabc"), 2, 0},
		{"REP", 20, 2, "ab\x1b[3b", rows(2, "abbbb"), 5, 0},
		{"REP wraps", 5, 3, "x\x1b[6b", rows(3, "xxxxx", "xx"), 2, 1},
		{"REP without a previous character", 5, 2, "\x1b[3b", rows(2), 0, 0},
		{"DECALN", 3, 2, "\x1b#8", rows(2, "EEE", "EEE"), 0, 0},
	})
}

func TestScrollRegions(t *testing.T) {
	five := "1\r\n2\r\n3\r\n4\r\n5"
	runScreenCases(t, []screenCase{
		{"DECSTBM homes the cursor", 10, 5, five + "\x1b[2;4r", rows(5, "1", "2", "3", "4", "5"), 0, 0},
		{"LF scrolls the region only", 10, 5, five + "\x1b[2;4r\x1b[4;1H\nX", rows(5, "1", "3", "4", "X", "5"), 1, 3},
		{"RI at the region top", 10, 5, five + "\x1b[2;4r\x1b[2;1H\x1bMX", rows(5, "1", "X", "2", "3", "5"), 1, 1},
		{"RI at the screen top", 10, 3, "a\r\nb\x1b[H\x1bMX", rows(3, "X", "a", "b"), 1, 0},
		{"IND and NEL", 10, 5, five + "\x1b[2;4r\x1b[4;3H\x1bDX\x1bEY", rows(5, "1", "4", "  X", "Y", "5"), 1, 3},
		{"SU", 10, 5, five + "\x1b[2;4r\x1b[S", rows(5, "1", "3", "4", "", "5"), 0, 0},
		{"SD", 10, 5, five + "\x1b[2;4r\x1b[2T", rows(5, "1", "", "", "2", "5"), 0, 0},
		{"SU more than the region", 10, 5, five + "\x1b[2;4r\x1b[99S", rows(5, "1", "", "", "", "5"), 0, 0},
		{"SD with mouse-tracking parameters is ignored", 10, 3, "a\x1b[1;2;3;4;5T", rows(3, "a"), 1, 0},
		{"invalid region is ignored", 10, 5, five + "\x1b[4;2r\x1b[5;1H\nX", rows(5, "2", "3", "4", "5", "X"), 1, 4},
		{"origin mode", 10, 5, "\x1b[2;4r\x1b[?6h\x1b[1;1HX\x1b[9;1HY", rows(5, "", "X", "", "Y"), 1, 3},
		{"origin mode off homes to the screen", 10, 5, "\x1b[2;4r\x1b[?6h\x1b[?6lX", rows(5, "X"), 1, 0},
		{"cursor below the region moves freely", 10, 5, "\x1b[1;2r\x1b[4;1H\x1b[AX\x1b[9BY", rows(5, "", "", "X", "", " Y"), 2, 4},
	})
}

func TestResets(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"DECSTR resets margins, origin and insert", 10, 4,
			"\x1b[2;3r\x1b[?6h\x1b[4h\x1b[!pab\x1b[1;1HX", rows(4, "X", "ab"), 1, 0},
		{"RIS clears the screen", 10, 3, "junk\x1b[2;3r\x1b[31m\x1bcok", rows(3, "ok"), 2, 0},
	})
	term := newTerm(10, 3, "\x1b[1;31m\x1b[?25l\x1b[?1h\x1b[!p")
	s := term.Snapshot()
	if !s.Cursor.Visible || s.Modes.AppCursor || term.cur.pen != (Style{}) {
		t.Errorf("DECSTR left cursor %v, app cursor %v, pen %+v", s.Cursor.Visible, s.Modes.AppCursor, term.cur.pen)
	}
}

func TestParserRobustness(t *testing.T) {
	runScreenCases(t, []screenCase{
		{"C0 inside CSI is executed", 10, 3, "ab\x1b[2\rC", rows(3, "ab"), 2, 0},
		{"CAN aborts CSI", 10, 3, "ab\x1b[3\x18C", rows(3, "abC"), 3, 0},
		{"SUB aborts CSI", 10, 3, "ab\x1b[3\x1aC", rows(3, "abC"), 3, 0},
		{"ESC restarts a sequence", 10, 3, "ab\x1b[3\x1b[2;2HX", rows(3, "ab", " X"), 2, 1},
		{"unknown CSI is ignored", 10, 3, "ab\x1b[?1234zcd", rows(3, "abcd"), 4, 0},
		{"private marker after params is ignored", 10, 3, "ab\x1b[1?Hcd", rows(3, "abcd"), 4, 0},
		{"too many intermediates", 10, 3, "ab\x1b[1 !\"Hcd", rows(3, "abcd"), 4, 0},
		{"OSC BEL is invisible", 20, 2, "a\x1b]0;title\x07b", rows(2, "ab"), 2, 0},
		{"OSC ST is invisible", 20, 2, "a\x1b]2;title\x1b\\b", rows(2, "ab"), 2, 0},
		{"OSC cut by ESC starts a new sequence", 20, 2, "a\x1b]2;t\x1b[2;1Hb", rows(2, "a", "b"), 1, 1},
		{"DCS is swallowed", 20, 2, "a\x1bP1$qm\x1b\\b", rows(2, "ab"), 2, 0},
		{"APC is swallowed", 20, 2, "a\x1b_Gi=1;AAAA\x1b\\b", rows(2, "ab"), 2, 0},
		{"PM and SOS are swallowed", 20, 2, "a\x1b^pm\x1b\\b\x1bXsos\x1b\\c", rows(2, "abc"), 3, 0},
		{"unknown OSC is swallowed", 20, 2, "a\x1b]7501;?\x07b", rows(2, "ab"), 2, 0},
		{"CAN aborts OSC", 20, 2, "a\x1b]0;x\x18b", rows(2, "ab"), 2, 0},
		{"unknown ESC is ignored", 20, 2, "a\x1bzb", rows(2, "ab"), 2, 0},
		{"thousands of parameters", 10, 2, "\x1b[" + strings.Repeat("1;", 5000) + "2HX", rows(2, "X"), 1, 0},
		{"invalid UTF-8 shows U+FFFD", 10, 2, "a\xffb\xc3c", rows(2, "a\ufffdb\ufffdc"), 5, 0},
		{"truncated UTF-8 then control", 10, 2, "a\xe4\xb8\r", rows(2, "a\ufffd\ufffd"), 0, 0},
		{"C1 controls as UTF-8 are not printed", 10, 2, "a\u0085b", rows(2, "ab"), 2, 0},
	})
}

func TestCountsAreClamped(t *testing.T) {
	// every counted operation with an enormous count must finish and keep the screen sane
	for _, f := range "@ABCDEFGIJKLMPSTXZ`abdefgr" {
		in := fmt.Sprintf("abc\x1b[99999999999999%c\x1b[-5%cxyz", f, f)
		term := newTerm(7, 3, in)
		s := term.Snapshot()
		if s.Cursor.X >= 7 || s.Cursor.Y >= 3 {
			t.Errorf("%c: cursor %+v off screen", f, s.Cursor)
		}
	}
}
