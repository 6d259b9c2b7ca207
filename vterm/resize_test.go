package vterm

// Resize: no reflow. Rows are cut or padded, the cursor stays on screen, rows above the
// cursor go to history when the screen gets shorter and come back when it gets taller,
// tab stops survive, and every size down to 1×1 keeps the structural invariants (row
// widths, whole wide characters).

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResize(t *testing.T) {
	cases := []struct {
		name         string
		cols, rows   int
		in           string
		ncols, nrows int
		want         []string
		x, y         int
		history      []string
	}{
		{"narrower cuts", 10, 2, "abcdefghij\r\nxy", 5, 2, rows(2, "abcde", "xy"), 2, 1, nil},
		{"wider pads", 5, 2, "abc", 10, 2, rows(2, "abc"), 3, 0, nil},
		{"cut wide char becomes blank", 6, 1, "ab中文", 5, 1, rows(1, "ab中"), 4, 0, nil},
		{"shorter with cursor at the bottom pushes to history", 5, 4, "1\r\n2\r\n3\r\n4", 5, 2, rows(2, "3", "4"), 1, 1, []string{"1", "2"}},
		{"shorter with cursor at the top drops the bottom", 5, 4, "1\r\n2\r\n3\r\n4\x1b[H", 5, 2, rows(2, "1", "2"), 0, 0, nil},
		{"taller adds rows at the bottom", 5, 2, "1\r\n2", 5, 4, rows(4, "1", "2"), 1, 1, nil},
		{"taller takes history back at the top", 5, 2, "1\r\n2\r\n3\r\n4", 5, 4, rows(4, "1", "2", "3", "4"), 1, 3, nil},
		{"taller takes back what history holds", 5, 2, "1\r\n2\r\n3", 5, 5, rows(5, "1", "2", "3"), 1, 2, nil},
		{"taller takes back only as many rows", 5, 2, "1\r\n2\r\n3\r\n4", 5, 3, rows(3, "2", "3", "4"), 1, 2, []string{"1"}},
		{"a taller alternate screen takes nothing back", 5, 2, "1\r\n2\r\n3\x1b[?1049h\x1b[Hx", 5, 4, rows(4, "x"), 1, 0, []string{"1"}},
		{"cursor clamps into a narrower screen", 10, 2, "\x1b[1;9H", 4, 2, rows(2), 3, 0, nil},
		{"one by one", 10, 3, "hello\r\nworld", 1, 1, rows(1, "w"), 0, 0, []string{"h"}},
		{"zero becomes one", 10, 3, "x", 0, -5, rows(1, "x"), 0, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			term := newTerm(c.cols, c.rows, c.in)
			term.Resize(c.ncols, c.nrows)
			checkScreen(t, term, c.want, c.x, c.y)
			if got := historyText(term); strings.Join(got, "|") != strings.Join(c.history, "|") {
				t.Errorf("history %q, want %q", got, c.history)
			}
		})
	}
}

func TestResizeKeepsTabStopsAndResetsMargins(t *testing.T) {
	term := newTerm(20, 4, "\x1b[3g\x1b[1;4H\x1bH\x1b[2;3r")
	term.Resize(30, 5)
	term.Write([]byte("\r\tA\tB"))
	// the custom stop at column 3 survives; the new columns get default stops (24)
	if got := term.ScreenText()[0]; got != "   A                    B" {
		t.Errorf("row %q", got)
	}
	if term.margin.top != 0 || term.margin.bot != 4 {
		t.Errorf("margins %d-%d after resize", term.margin.top, term.margin.bot)
	}
}

func TestResizeAnySize(t *testing.T) {
	term := newTerm(12, 5, "中文字\x1b[?1049h中文\x1b[5;12H")
	for _, sz := range [][2]int{{1, 1}, {2, 1}, {3, 7}, {13, 2}, {1, 9}, {40, 40}, {7, 3}} {
		term.Resize(sz[0], sz[1])
		term.Write([]byte("x中y\r\nz"))
		s := term.Snapshot()
		if s.Cols != sz[0] || s.Rows != sz[1] || len(s.Lines) != sz[1] {
			t.Fatalf("size %dx%d → snapshot %dx%d", sz[0], sz[1], s.Cols, s.Rows)
		}
		if s.Cursor.X >= s.Cols || s.Cursor.Y >= s.Rows {
			t.Errorf("cursor %+v off a %dx%d screen", s.Cursor, s.Cols, s.Rows)
		}
		for y, l := range s.Lines {
			if len(l.Cells) != s.Cols {
				t.Fatalf("row %d has %d cells at %dx%d", y, len(l.Cells), s.Cols, s.Rows)
			}
			for x, c := range l.Cells {
				if c.Width == 2 && (x+1 >= len(l.Cells) || l.Cells[x+1].Width != 0) ||
					c.Width == 0 && (x == 0 || l.Cells[x-1].Width != 2) {
					t.Errorf("broken wide char at %d,%d at %dx%d", x, y, s.Cols, s.Rows)
				}
			}
		}
	}
}

// A narrower resize hides the end of a row rather than losing it: widening again shows
// it, as long as nothing changed the row meanwhile (a pane zoomed out and back in).
// A change to the row (printing, an erase, a clear by scrolling) drops what it hid.
func TestResizeShowsWhatANarrowerOneHid(t *testing.T) {
	line := "bot> AAAAAAAAAABBBBBBBBBBCCCCCCCCCCDDDDDDDDDDEEEEEEEEEE-end"
	wide := "中文中文中文中文中文中文中文中文中文中文中文" // 44 columns: cuts at 33 and 11 split one
	cases := []struct {
		name  string
		in    string // written at the first narrower width
		steps []int  // the narrower widths in turn; back to 70 at the end
		want  []string
	}{
		{"back to the width", "", []int{33}, rows(4, line, "got: x", wide)},
		{"through narrower widths", "", []int{33, 11, 50}, rows(4, line, "got: x", wide)},
		{"a wide character split at the cut", "", []int{33, 11, 33}, rows(4, line, "got: x", wide)},
		{"a row written after the cut keeps what it shows", "\x1b[1;1Hbot> new", []int{33}, rows(4, "bot> newAAAAAAABBBBBBBBBBCCCCCCCC", "got: x", wide)},
		{"an erase to the end takes the hidden part", "\x1b[1;20H\x1b[K", []int{33}, rows(4, "bot> AAAAAAAAAABBBB", "got: x", wide)},
		{"an erased row shows nothing of it", "\x1b[1;1H\x1b[2K", []int{33}, rows(4, "", "got: x", wide)},
		{"rows scrolled up keep it, the one scrolled in is new", "\x1b[4;1H\n", []int{33}, rows(4, "got: x", wide, "", "")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			term := newTerm(70, 4, line+"\r\ngot: x\r\n"+wide+"\x1b[2;7H")
			term.Resize(c.steps[0], 4)
			term.Write([]byte(c.in))
			for _, w := range c.steps[1:] {
				term.Resize(w, 4)
			}
			term.Resize(70, 4)
			if got := term.ScreenText(); strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("screen\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

// The cursor a narrower resize pulled in goes back where it was when a wider one shows
// the cut text again and nothing was written meanwhile (a read loop does not redraw:
// what is typed next must show where the program reads it, at the end of the line);
// once something is written, the cursor stays where that left it.
func TestResizeBringsTheCursorBack(t *testing.T) {
	for _, c := range []struct {
		name  string
		from  int    // the width "bot> abc" is written at
		steps []int  // widths in turn
		in    string // written after the first step
		x     int    // the cursor's column at the end
		text  string // after XYZ is written
	}{
		{"back to the width", 60, []int{8, 60}, "", 8, "bot> abcXYZ"},
		{"through narrower widths", 60, []int{30, 4, 12, 60}, "", 8, "bot> abcXYZ"},
		{"wider still", 60, []int{6, 100}, "", 8, "bot> abcXYZ"},
		{"written to meanwhile", 60, []int{6, 60}, "\r", 0, "XYZ> abc"},
		{"at the last column, its wrap pending", 8, []int{3, 8}, "", 7, "bot> abc|XYZ"},
	} {
		t.Run(c.name, func(t *testing.T) {
			term := newTerm(c.from, 3, "bot> abc")
			term.Resize(c.steps[0], 3)
			term.Write([]byte(c.in))
			for _, w := range c.steps[1:] {
				term.Resize(w, 3)
			}
			if x := term.Snapshot().Cursor.X; x != c.x {
				t.Errorf("cursor at column %d, want %d", x, c.x)
			}
			term.Write([]byte("XYZ"))
			if got := strings.Join(trimRows(term.ScreenText()), "|"); got != c.text {
				t.Errorf("screen %q, want %q", got, c.text)
			}
		})
	}
}

// trimRows drops the blank rows at the end.
func trimRows(rows []string) []string {
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	return rows
}

// A pane resized while a program's lines are on its screen (zoomed, a pane added beside
// it, the terminal resized) shows them cut or padded, as lines do not reflow; but what
// the program wrote is read whole (TextFrom, ScreenLines, and history once the rows
// scroll up): the relay reads a turn by its text. A soft-wrapped row widened joins the
// next where it wrapped, not after the blanks the resize padded it with; a row
// narrowed keeps the text the cut hides, until the row changes.
func TestTextIsReadAsWrittenAcrossAResize(t *testing.T) {
	long := "the quick brown fox jumps over the lazy dog and then some more words to wrap"
	cases := []struct {
		name  string
		cols  int // the width it was written at
		steps [][2]int
	}{
		{"a wrapped line widened", 30, [][2]int{{100, 6}}},
		{"a wrapped line narrowed", 30, [][2]int{{12, 6}}},
		{"a line narrowed", 100, [][2]int{{20, 6}}},
		{"narrowed, then widened past it", 30, [][2]int{{12, 6}, {90, 6}}},
		{"widened, then narrowed", 30, [][2]int{{90, 6}, {12, 6}}},
		{"narrowed and shortened: into history", 100, [][2]int{{20, 2}}},
		{"a wrapped line widened and shortened: into history", 30, [][2]int{{100, 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			term := newTerm(c.cols, 6, "bot> "+long+"\r\nbot> ")
			for _, s := range c.steps {
				term.Resize(s[0], s[1])
			}
			var got []string
			for _, l := range term.TextFrom(0) {
				got = append(got, l.Text)
			}
			assert.Equal(t, []string{"bot> " + long, "bot>"}, got)
			if c.steps[len(c.steps)-1][1] == 6 {
				assert.Equal(t, "bot> "+long, term.ScreenLines()[0])
			}
		})
	}
}

// What the program changes on such a row is read as it shows: the row is the program's
// again, at the new width.
func TestAResizedRowChangedIsReadAsItShows(t *testing.T) {
	term := newTerm(10, 4, "0123456789abcde\r\n")
	term.Resize(20, 4)
	term.Write([]byte("\x1b[1;12HX")) // onto the padding of the wrapped row
	assert.Equal(t, "0123456789 X        abcde", term.TextFrom(0)[0].Text)
}

// A pane shrunk and grown back (a smaller terminal attached and gone, zoom, a pane
// added and closed) shows what it showed, as in tmux: the rows the shorter screen
// pushed into history come back, with their colours, wide characters and soft wraps,
// and their absolute numbers, so the text readers read the same lines.
func TestShrunkAndGrownBackShowsTheSame(t *testing.T) {
	in := "\x1b[31mred\x1b[0m plain\r\n中文 wide\r\n" +
		"a soft-wrapped line longer than twenty columns\r\n" +
		"\x1b[44mblue background\x1b[K\x1b[0m\r\nbot> "
	for _, steps := range [][][2]int{
		{{20, 3}},
		{{20, 1}},
		{{12, 2}, {20, 4}},
		{{20, 30}, {20, 2}}, // taller first: nothing to take back, the prompt stays
	} {
		term := newTerm(20, 8, "old\r\n"+in)
		before, top, text := term.Snapshot(), term.ScreenTop(), term.TextFrom(0)
		for _, s := range steps {
			term.Resize(s[0], s[1])
		}
		term.Resize(20, 8)
		after := term.Snapshot()
		name := fmt.Sprint(steps)
		if steps[0][1] > 8 {
			// the prompt row stayed where it was; the rows added below it went again
			assert.Equal(t, before.Cursor, after.Cursor, name)
		}
		for y := range before.Lines {
			assert.Equal(t, before.Lines[y].Cells, after.Lines[y].Cells, "%v row %d", steps, y)
			assert.Equal(t, before.Lines[y].Wrapped, after.Lines[y].Wrapped, "%v row %d", steps, y)
		}
		assert.Equal(t, before.Cursor, after.Cursor, name)
		assert.Equal(t, top, term.ScreenTop(), name)
		assert.Equal(t, text, term.TextFrom(0), name)
	}
}

// A line taken back from history is the screen's: what the program then writes on it
// is what history holds when it leaves again, not what a reader read of it before.
func TestALineTakenBackIsReadAsItIsNow(t *testing.T) {
	term := newTerm(10, 2, "one\r\ntwo\r\nthree")
	require.Equal(t, []string{"one"}, historyText(term)) // read, and so cached
	term.Resize(10, 3)
	assert.Equal(t, int64(0), term.ScreenTop())
	term.Write([]byte("\x1b[1;1HONE\x1b[3;6H"))
	term.Resize(10, 2)
	assert.Equal(t, []string{"ONE"}, historyText(term))
	assert.Equal(t, []string{"two", "three"}, rowsText(term))
	assert.Equal(t, int64(1), term.ScreenTop())
}
