package ui

// Render tests are tables of cells (with styles) in and the exact bytes out: every SGR
// attribute and colour form, runs of equal styles sharing one sequence, wide characters
// in two columns, the cursor, hyperlinks and control characters that must never reach
// the outer terminal. A round trip through vterm checks the bytes draw what they claim.

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/vterm"
)

// line builds a Line from text runs, each with one style; wide runes get their
// continuation cell.
func line(runs ...any) *vterm.Line {
	l := &vterm.Line{}
	st := vterm.Style{}
	for _, r := range runs {
		switch r := r.(type) {
		case vterm.Style:
			st = r
		case string:
			for _, ch := range r {
				w := uint8(1)
				if ch >= 0x1100 && (ch <= 0x115f || ch >= 0x2e80 && ch <= 0xa4cf || ch >= 0xac00 && ch <= 0xd7a3 || ch >= 0xff00 && ch <= 0xff60 || ch >= 0x1f300 && ch <= 0x1faff) {
					w = 2
				}
				l.Cells = append(l.Cells, vterm.Cell{Rune: ch, Width: w, Style: st})
				if w == 2 {
					l.Cells = append(l.Cells, vterm.Cell{Width: 0, Style: st})
				}
			}
		}
	}
	return l
}

func TestRenderLine(t *testing.T) {
	bold := vterm.Style{Attr: vterm.AttrBold}
	cases := []struct {
		name    string
		l       *vterm.Line
		width   int
		cursorX int
		want    string
	}{
		{"plain padded", line("hi"), 5, -1, "hi   "},
		{"truncated", line("hello world"), 5, -1, "hello"},
		{"nil line", nil, 3, -1, "   "},
		{"bold run then reset", line(bold, "ab", vterm.Style{}, "c"), 3, -1, "\x1b[1mab\x1b[mc"},
		{"style at end is reset", line(bold, "ab"), 2, -1, "\x1b[1mab\x1b[m"},
		{"styled to styled resets first", line(bold, "a", vterm.Style{Attr: vterm.AttrItalic}, "b"), 2, -1,
			"\x1b[1ma\x1b[0;3mb\x1b[m"},
		{"ansi colours", line(vterm.Style{FG: vterm.Indexed(1), BG: vterm.Indexed(4)}, "x"), 1, -1, "\x1b[31;44mx\x1b[m"},
		{"bright colours", line(vterm.Style{FG: vterm.Indexed(9), BG: vterm.Indexed(15)}, "x"), 1, -1, "\x1b[91;107mx\x1b[m"},
		{"256 colours", line(vterm.Style{FG: vterm.Indexed(196), BG: vterm.Indexed(16)}, "x"), 1, -1, "\x1b[38;5;196;48;5;16mx\x1b[m"},
		{"truecolour below 256", line(vterm.Style{FG: vterm.RGB(0, 0, 5), BG: vterm.RGB(255, 128, 0)}, "x"), 1, -1,
			"\x1b[38;2;0;0;5;48;2;255;128;0mx\x1b[m"},
		{"every attribute", line(vterm.Style{Attr: vterm.AttrBold | vterm.AttrDim | vterm.AttrItalic | vterm.AttrBlink |
			vterm.AttrReverse | vterm.AttrHidden | vterm.AttrStrike | vterm.AttrOverline, Underline: vterm.UnderlineSingle}, "x"), 1, -1,
			"\x1b[1;2;3;4;5;7;8;9;53mx\x1b[m"},
		{"curly underline with colour", line(vterm.Style{Underline: vterm.UnderlineCurly, UL: vterm.RGB(1, 2, 3)}, "x"), 1, -1,
			"\x1b[4:3;58:2::1:2:3mx\x1b[m"},
		{"double underline indexed colour", line(vterm.Style{Underline: vterm.UnderlineDouble, UL: vterm.Indexed(5)}, "x"), 1, -1,
			"\x1b[4:2;58:5:5mx\x1b[m"},
		{"dotted and dashed", line(vterm.Style{Underline: vterm.UnderlineDotted}, "x", vterm.Style{Underline: vterm.UnderlineDashed}, "y"), 2, -1,
			"\x1b[4:4mx\x1b[0;4:5my\x1b[m"},
		{"underline colour without underline is dropped", line(vterm.Style{UL: vterm.Indexed(5)}, "x"), 1, -1, "x"},
		{"CJK is certain: no resync", line("a世界b"), 6, -1, "a世界b"},
		{"emoji resyncs after each, its cells erased first", line("a👍👍b"), 6, -1, "a\x1b[2X👍\x1b[4G\x1b[2X👍\x1b[6Gb"},
		{"ambiguous run resyncs once", line("──╮x"), 4, -1, "──╮\x1b[4Gx"},
		{"ambiguous run at the end resyncs", line("a─"), 2, -1, "a─\x1b[3G"},
		{"latin-1 is certain", line("café"), 4, -1, "café"},
		{"wide char cut at edge", line("ab世"), 3, -1, "ab "},
		{"orphan continuation", &vterm.Line{Cells: []vterm.Cell{{Width: 0}, {Rune: 'x', Width: 1}}}, 2, -1, " x"},
		{"combining mark", &vterm.Line{Cells: []vterm.Cell{{Rune: 'e', Comb: "\u0301", Width: 1}, {Rune: 'x', Width: 1}}}, 2, -1,
			"e\u0301\x1b[2Gx"},
		{"cursor reverse", line("abc"), 3, 1, "a\x1b[7mb\x1b[mc"},
		{"cursor on reverse text un-reverses", line(vterm.Style{Attr: vterm.AttrReverse}, "ab"), 2, 0, "a\x1b[7mb\x1b[m"},
		{"cursor past text", line("a"), 3, 2, "a \x1b[7m \x1b[m"},
		{"cursor on wide right half", line("世"), 2, 1, "\x1b[7m世\x1b[m"},
		{"controls never reach the terminal", &vterm.Line{Cells: []vterm.Cell{{Rune: 0x1b, Width: 1}, {Rune: '\n', Width: 1}, {Rune: 0x9b, Width: 1}}}, 3, -1, "   "},
		{"empty cell is a space", &vterm.Line{Cells: []vterm.Cell{{Width: 1}, {Rune: 'x', Width: 1}}}, 2, -1, " x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := string(renderLine(nil, c.l, c.width, 0, c.cursorX, nil))
			if got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestRenderLineCHAUsesOuterColumn(t *testing.T) {
	got := string(renderLine(nil, line("👍x"), 3, 10, -1, nil))
	if want := "\x1b[2X👍\x1b[13Gx"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRenderSpan(t *testing.T) {
	l := line("ab世cd")
	cases := []struct {
		from, to int
		want     string
	}{
		{0, 2, "ab"},
		{1, 3, "b "}, // the wide char does not fit: a space
		{3, 5, " c"}, // starts on the right half: a space
		{2, 4, "世"},
		{4, 8, "cd  "},
	}
	for _, c := range cases {
		if got := string(renderSpan(nil, l, c.from, c.to, 0, -1, nil)); got != c.want {
			t.Errorf("span [%d,%d): got %q, want %q", c.from, c.to, got, c.want)
		}
	}
}

func TestRenderHyperlink(t *testing.T) {
	link := func(id uint32) string {
		if id == 7 {
			return "https://example.com/\x1b\\evil"
		}
		return ""
	}
	l := line("a", vterm.Style{Link: 7}, "bc", vterm.Style{}, "d")
	got := string(renderLine(nil, l, 4, 0, -1, link))
	want := "a\x1b]8;;https://example.com/\\evil\x1b\\bc\x1b]8;;\x1b\\d"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// An open link at the end of the row is closed.
	got = string(renderLine(nil, line(vterm.Style{Link: 7}, "x"), 1, 0, -1, link))
	if !strings.HasSuffix(got, "x\x1b]8;;\x1b\\") {
		t.Errorf("link not closed at end of row: %q", got)
	}
}

// TestRenderHyperlinkAddress: the address a pane's program gave a link reaches the
// person's terminal as printable ASCII only. C1 controls in UTF-8 (U+009C ends the OSC
// in a terminal that obeys them, U+009B and U+009D would then start a CSI or another
// OSC) and other non-ASCII bytes are percent-encoded, C0 controls dropped.
func TestRenderHyperlinkAddress(t *testing.T) {
	term := vterm.New(vterm.Options{Cols: 20, Rows: 2})
	term.WriteString("\x1b]8;;http://x/\u009c\u009b2J\u009d52;c;ZXZpbA==\u009c/é a\x1b\\A\x1b]8;;\x1b\\")
	got := string(renderLine(nil, term.Snapshot().Lines[0], 1, 0, -1, term.Link))
	want := "\x1b]8;;http://x/%C2%9C%C2%9B2J%C2%9D52;c;ZXZpbA==%C2%9C/%C3%A9%20a\x1b\\A\x1b]8;;\x1b\\"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestRenderRoundTrip feeds rendered rows back into vterm and checks the cells come out
// equal: the bytes mean what the cells say.
func TestRenderRoundTrip(t *testing.T) {
	styles := []vterm.Style{
		{},
		{FG: vterm.Indexed(2), Attr: vterm.AttrBold},
		{FG: vterm.RGB(10, 20, 30), BG: vterm.Indexed(200), Attr: vterm.AttrItalic | vterm.AttrStrike},
		{Underline: vterm.UnderlineCurly, UL: vterm.RGB(1, 2, 3), Attr: vterm.AttrDim},
		{BG: vterm.Indexed(12), Attr: vterm.AttrReverse | vterm.AttrOverline},
	}
	src := &vterm.Line{}
	for i := range 40 {
		src.Cells = append(src.Cells, vterm.Cell{Rune: rune('a' + i%26), Width: 1, Style: styles[i%len(styles)]})
	}
	b := renderLine(nil, src, 40, 0, -1, nil)
	term := vterm.New(vterm.Options{Cols: 40, Rows: 2})
	term.Write(b)
	got := term.Snapshot().Lines[0]
	for i, c := range src.Cells {
		g := got.Cells[i]
		if g.Rune != c.Rune || g.Style != c.Style {
			t.Fatalf("cell %d: got %q %+v, want %q %+v", i, g.Rune, g.Style, c.Rune, c.Style)
		}
	}
}

func TestLineCache(t *testing.T) {
	var c lineCache
	c.reset(4, 0, nil)
	a, b := line("aaaa"), line("bbbb")
	if c.row(a, -1) != "aaaa" || c.row(b, -1) != "bbbb" {
		t.Fatal("wrong rows")
	}
	c.endRebuild()
	if _, ok := c.cur[a]; !ok {
		t.Fatal("row a not cached after rebuild")
	}
	// A rebuild that only uses b drops a.
	c.row(b, -1)
	c.endRebuild()
	if _, ok := c.cur[a]; ok {
		t.Error("row a still cached after a rebuild that did not use it")
	}
	// Cursor rows are never cached.
	c.row(b, 1)
	if c.cur[b] != "bbbb" {
		t.Error("cursor row replaced the cached plain row")
	}
	// New geometry empties the cache.
	c.reset(5, 0, nil)
	if len(c.cur) != 0 {
		t.Error("cache survived a width change")
	}
}

// TestBorderStateBeforeProgramTitle: on a narrow pane whose whole state does not fit, the
// border still says what the pane is doing (its first word) and never shows the
// program's title in the state's place (nor after a state it had to cut).
func TestBorderStateBeforeProgramTitle(t *testing.T) {
	st := newStyles(lipgloss.NewRenderer(io.Discard))
	for _, c := range []struct {
		w          int
		state      string
		want, lose string
	}{
		{24, "busy · linked", "─ busy ─", "✳"},                 // 22 inside: " 1 alice " + "─ busy · linked " does not fit
		{40, "busy · linked", "─ busy · linked ─ ✳ alice", ""}, // room for all
		{18, "busy · linked", "╭ 1 alice ─ busy ╮", "✳"},       // room for the word only
		{12, "idle · linked · 2 waiting", "╭ 1 alice ─", "✳"},  // nothing but the name
		{30, "idle · linked · 2 waiting", "─ idle ─", "✳"},     // a cut state: no title after it
	} {
		got := ansi.Strip(st.topBorder(c.w, "1 alice", c.state, "", false, kindBusy, false, "✳ alice"))
		if !strings.Contains(got, c.want) || (c.lose != "" && strings.Contains(got, c.lose)) {
			t.Errorf("%d columns, state %q: %q; want %q and no %q", c.w, c.state, got, c.want, c.lose)
		}
		if w := ansi.StringWidth(got); w != c.w {
			t.Errorf("%d columns: border is %d wide: %q", c.w, w, got)
		}
	}
}

// Where a pane runs and how it was restored come after its state, each only when it fits
// whole: a restored pane's border in a long folder still says it is linked, held and
// has messages waiting (they hid it, for the whole life of a restored session).
func TestBorderStateBeforeFolderAndRestore(t *testing.T) {
	st := newStyles(lipgloss.NewRenderer(io.Discard))
	state, after := "idle · linked · held · 1 waiting", "in /home/someone/projects/a-long-name · fresh (not resumed)"
	for _, c := range []struct {
		w          int
		want, lose string
	}{
		{60, "─ idle · linked · held · 1 waiting ─", "in /home"},
		{200, "─ idle · linked · held · 1 waiting · in /home/someone/projects/a-long-name · fresh (not resumed) ─ ✳ alice", ""},
		{20, "─ idle ─", "linked"},
	} {
		got := ansi.Strip(st.topBorder(c.w, "1 alice", state, after, false, kindIdle, false, "✳ alice"))
		if !strings.Contains(got, c.want) || (c.lose != "" && strings.Contains(got, c.lose)) {
			t.Errorf("%d columns: %q; want %q and no %q", c.w, got, c.want, c.lose)
		}
		if w := ansi.StringWidth(got); w != c.w {
			t.Errorf("%d columns: border is %d wide: %q", c.w, w, got)
		}
	}
}
