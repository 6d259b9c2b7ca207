package parser

// dropScrollbar on frames as full-screen programs draw them: a scrollbar in the last
// column (thumb █ on track │, the track blank once it fades) is left out; a box's right
// edge, a short run and text that merely ends in a bar glyph are kept. Then a whole
// transcript whose frames show the bar at some moments and not at others: the words
// come out once and without it.

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// padTo returns s padded with spaces to w columns (by cellWidth).
func padTo(s string, w int) string {
	n := 0
	for _, r := range s {
		n += cellWidth.RuneWidth(r)
	}
	return s + strings.Repeat(" ", max(w-n, 0))
}

// barred returns rows drawn 20 columns wide with bar[i] in the last column of row i
// (' ' for none), trailing blanks trimmed as a screen reading gives them.
func barred(rows []string, bar string) []string {
	out := make([]string, len(rows))
	marks := []rune(bar)
	for i, r := range rows {
		m := ' '
		if i < len(marks) {
			m = marks[i]
		}
		out[i] = clean(padTo(r, 19) + string(m))
	}
	return out
}

func TestDropScrollbar(t *testing.T) {
	text := []string{"  first answer row", "  漢字 wide row", "", "  last row", "> "}
	for _, tc := range []struct {
		name string
		rows []string
		want []string
	}{
		{"thumb on track", barred(text, "│██│ "), cleanAll(text)},
		{
			"right after a row that fills the width",
			[]string{clean(padTo("a", 19) + "│"), "a row of words that█", clean(padTo("c", 19) + "█")},
			[]string{"a", "a row of words that", "c"},
		},
		{"thumb alone", barred(text, " ██  "), barred(text, " ██  ")}, // two rows: too few
		{"all thumb", barred(text, "████ "), cleanAll(text)},
		{"track only", barred(text, "││││ "), barred(text, "││││ ")}, // no thumb: a rule or a box
		{"none", cleanAll(text), cleanAll(text)},
		{
			"box right edge",
			[]string{"╭──────────────────╮", "│ a box           █", "│ its second row  █", "│ third           █", "╰──────────────────╯"},
			[]string{"╭──────────────────╮", "│ a box           █", "│ its second row  █", "│ third           █", "╰──────────────────╯"},
		},
		{
			"words ending in a bar glyph, not in one column",
			[]string{"a pipe │", "another pipe │", "more pipes here │", "x"},
			[]string{"a pipe │", "another pipe │", "more pipes here │", "x"},
		},
		{
			"full-width box drawn up to the bar",
			[]string{clean(padTo("a row", 19) + "█"), strings.Repeat("─", 18) + "╮█", clean(padTo("│ in it", 18) + "│█"), clean(padTo("b", 19) + "│")},
			[]string{"a row", strings.Repeat("─", 18) + "╮", clean(padTo("│ in it", 18) + "│"), "b"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.rows)
			if got := dropScrollbar(tc.rows); !slices.Equal(got, tc.want) {
				t.Errorf("dropScrollbar\n got %q\nwant %q", got, tc.want)
			}
			if !slices.Equal(in, tc.rows) {
				t.Errorf("rows changed: %q, was %q", tc.rows, in)
			}
		})
	}
}

func TestTranscriptScrollbar(t *testing.T) {
	// A full-screen program 30 columns wide: six transcript rows, an input row. Its
	// answer scrolls the transcript; while it scrolls, a bar shows in the last column.
	g := Generic()
	frame := func(body []string, bar bool) []string {
		body = append([]string(nil), body...)
		for len(body) < 6 {
			body = append(body, "")
		}
		body = body[len(body)-6:]
		marks := "      "
		if bar {
			marks = "│││███"
		}
		out := make([]string, 0, 7)
		for i, r := range body {
			out = append(out, clean(padTo(r, 29)+string([]rune(marks)[i])))
		}
		return append(out, "> ")
	}
	body := []string{"an earlier answer", "", "> hi"}
	tr := NewTranscript(g, frame(body, false), 6)
	var answer []string
	for i := 1; i <= 8; i++ {
		answer = append(answer, fmt.Sprintf("answer row %d 漢字", i))
		body = append(body, answer[len(answer)-1])
		tr.Add(g, frame(body, i%2 == 0), -1)
	}
	tr.Add(g, frame(body, true), 6)
	if w := tr.Words(g, []string{"hi"}); w.Text != strings.Join(answer, "\n") {
		t.Errorf("words %q\nwant  %q", w.Text, strings.Join(answer, "\n"))
	}
}
