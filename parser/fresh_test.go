package parser

// Strategy: tables of {screen at the baseline, rows now} → the first new row, covering
// the ways programs redraw: plain appending, a live region that shrinks and moves (Ink),
// a scroll into history, a clear-and-reprint of the whole transcript, and rows erased
// from the middle (the content rule, fresh, which the relay runs when rows moved).
// merge is checked on frames of a full-screen program that scrolls, streams into its
// last row, scrolls under a fixed header, or changes completely.

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestFresh(t *testing.T) {
	p := ProfileFor("claude")
	rule := strings.Repeat("─", 30)
	box := []string{rule, "❯\u00a0", rule, "  ⏵⏵ auto mode on (shift+tab to cycle)"}
	header := []string{" ▐▛███▛█   Claude Code v2.1.330", "▝▜██████▀  Opus 5.5 · API Usage Billing"}
	header2 := []string{"▗▟▛███▛█▄  Claude Code v2.1.330", " ▜██████▘  Opus 5.5 · API Usage Billing"} // another frame of its logo
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	long := make([]string, 0, 30)
	for i := 0; i < 30; i++ {
		long = append(long, fmt.Sprintf("  old answer row number %02d with some words", i))
	}
	signoff := []string{"  Let me know if anything else is needed,", "  I am around all day", "  and tomorrow.", "  Cheers,", "  — Bob", "  (sent from the relay)"}
	tests := []struct {
		name   string
		before []string
		lines  []string
		want   int
	}{
		{
			name:   "nothing before",
			before: nil,
			lines:  []string{"a"},
			want:   0,
		},
		{
			name:   "appended after the old content, box moved down",
			before: cat(header, []string{""}, box),
			lines:  cat(header, []string{"", "❯ hi", "", "● Hello"}, box),
			want:   3,
		},
		{
			name:   "nothing new",
			before: cat(header, box),
			lines:  cat(header, box),
			want:   len(header) + len(box),
		},
		{
			name:   "a notice above the box was erased and the echo took its place",
			before: cat(header, []string{"⚠ Warning: something", "   continued warning"}, box),
			lines:  cat(header, []string{"❯ hi", "● Hello"}, box),
			want:   2,
		},
		{
			name:   "clear and reprint of a transcript longer than the screen",
			before: cat(long[20:], box),
			lines:  cat(long[20:], header, long, []string{"❯ next", "● New answer"}, box),
			want:   len(long[20:]) + len(header) + len(long),
		},
		{
			name:   "clear and reprint at another width: rows wrapped differently",
			before: cat(long[20:], box),
			lines:  cat(header, reflow(long, 23), []string{"❯ next", "● New answer"}, box),
			want:   len(header) + len(reflow(long, 23)),
		},
		{
			name:   "a short tail is no reprint anchor: only the in-order prefix is old",
			before: cat([]string{"● ok"}, box),
			lines:  cat([]string{"● ok", "❯ again", "● ok"}, box),
			want:   1,
		},
		{
			name:   "a sign-off the agent repeats is no reprint",
			before: cat(header, []string{"❯ one", "● First answer."}, signoff, box),
			lines:  cat(header, []string{"❯ one", "● First answer."}, signoff, []string{"❯ two", "● Second answer."}, signoff, box),
			want:   len(header) + 2 + len(signoff),
		},
		{
			name:   "a header redrawn differently is taken as new rather than risk an answer",
			before: cat(header2, []string{"", "▎ A notice about modes.", "", "❯ one", "● First answer."}, box),
			lines:  cat(header, []string{"", "▎ A notice about modes.", "", "❯ one", "● First answer.", "❯ two", "● Second answer."}, box),
			want:   0,
		},
		{
			name:   "an answer followed by rows that were there before is new (a prompt printed again)",
			before: []string{"bot ready.", "bot>"},
			lines:  []string{"bot ready.", "bot> hello", "answer one", "bot>"},
			want:   1,
		},
		{
			name:   "a stale row of before far into new output does not make it old",
			before: cat([]string{"● First answer.", "⚠ transient"}, box),
			lines:  cat([]string{"● First answer."}, long[:13], []string{"⚠ transient"}, box),
			want:   1,
		},
		{
			name:   "repeated input and answer after the old ones are new",
			before: cat([]string{"❯ continue", "● Done."}, box),
			lines:  cat([]string{"❯ continue", "● Done.", "❯ continue", "● Done."}, box),
			want:   2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := freshOf(p, tt.before, tt.lines); got != tt.want {
				t.Errorf("Fresh = %d, want %d", got, tt.want)
			}
		})
	}
}

// reflow rewraps rows as a program would at another width: words joined and wrapped at
// width, continuation rows indented by two spaces.
func reflow(rows []string, width int) []string {
	var out []string
	for _, r := range rows {
		line := ""
		for _, w := range strings.Fields(r) {
			if line != "" && len(line)+1+len(w) > width {
				out = append(out, line)
				line = " "
			}
			line += " " + w
		}
		out = append(out, line)
	}
	return out
}

func TestMerge(t *testing.T) {
	frame := func(from, to int, last string) []string {
		var out []string
		for i := from; i < to; i++ {
			out = append(out, fmt.Sprintf("row %d", i))
		}
		if last != "" {
			out = append(out, last)
		}
		return out
	}
	tests := []struct {
		name   string
		frames [][]string
		want   []string
	}{
		{
			name:   "first frame",
			frames: [][]string{frame(0, 3, "")},
			want:   frame(0, 3, ""),
		},
		{
			name:   "streaming into the last row replaces it",
			frames: [][]string{frame(0, 3, "• Hel"), frame(0, 3, "• Hello wor"), frame(0, 3, "• Hello world")},
			want:   frame(0, 3, "• Hello world"),
		},
		{
			name:   "scrolling keeps what left the top",
			frames: [][]string{frame(0, 5, ""), frame(2, 7, ""), frame(6, 11, "")},
			want:   frame(0, 11, ""),
		},
		{
			name:   "a shorter frame replaces a taller one (a logo went away)",
			frames: [][]string{append(frame(0, 2, ""), "logo 1", "logo 2", "logo 3", "logo 4", "logo 5", "logo 6", "logo 7"), frame(0, 2, "")},
			want:   frame(0, 2, ""),
		},
		{
			name: "scrolling under a fixed header keeps the rows that went under it",
			frames: [][]string{append([]string{"HEADER"}, frame(0, 5, "")...), append([]string{"HEADER"}, frame(1, 6, "")...),
				append([]string{"HEADER"}, frame(4, 9, "")...)},
			want: append([]string{"HEADER"}, frame(0, 9, "")...),
		},
		{
			name:   "scrolled by more than a screenful under a fixed header: appended without the header",
			frames: [][]string{append([]string{"HEADER"}, frame(0, 3, "")...), append([]string{"HEADER"}, frame(5, 8, "")...)},
			want:   append(append([]string{"HEADER"}, frame(0, 3, "")...), frame(5, 8, "")...),
		},
		{
			name:   "a frame that aligns nowhere is appended",
			frames: [][]string{frame(0, 3, ""), {"something else", "entirely"}},
			want:   append(frame(0, 3, ""), "something else", "entirely"),
		},
		{
			name:   "blank frames change nothing",
			frames: [][]string{frame(0, 3, ""), {"", ""}},
			want:   frame(0, 3, ""),
		},
		{
			name:   "trailing blank rows are dropped",
			frames: [][]string{{"a", "b", "", ""}},
			want:   []string{"a", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acc, last []string
			for _, f := range tt.frames {
				acc, last = merge(acc, f, last), f
			}
			if !reflect.DeepEqual(acc, tt.want) {
				t.Errorf("Merge = %q, want %q", acc, tt.want)
			}
		})
	}
}

func TestRedrawAtAnotherWidthIsNotNew(t *testing.T) {
	p := ProfileFor("codex")
	frame := []string{
		"• The parser keeps the answer whole while the screen scrolls, and",
		"  the relay types it into the other pane once that one is idle.",
		"• A second answer, long enough to be wrapped differently when the",
		"  pane gets narrower than it was before.",
	}
	acc := merge(nil, frame, nil)
	acc = merge(acc, reflow(frame, 30), frame) // the pane was zoomed out: the same text, rewrapped
	if n := freshOf(p, frame, acc); delta(p, acc[n:], nil) != "" {
		t.Fatalf("a redraw at another width has new words: %q", delta(p, acc[n:], nil))
	}
	acc = merge(acc, append(reflow(frame, 30), "• Then a new answer."), reflow(frame, 30))
	if n := freshOf(p, frame, acc); delta(p, acc[n:], nil) != "Then a new answer." {
		t.Fatalf("new words after the redraw: %q", delta(p, acc[n:], nil))
	}
}

func TestTranscriptBounded(t *testing.T) {
	p := Generic()
	tr := NewTranscript(p, []string{"old row"}, -1)
	for i := 0; i < maxMerged/8+10; i++ {
		f := make([]string, 10)
		for j := range f {
			f[j] = fmt.Sprintf("frame %d row %d", i, j)
		}
		tr.Add(p, f, -1)
	}
	if n := len(tr.rows); n < maxMerged || n > maxMerged+maxMerged/4 {
		t.Fatalf("len = %d, want %d to %d", n, maxMerged, maxMerged+maxMerged/4)
	}
	if want := fmt.Sprintf("frame %d row 9", maxMerged/8+9); tr.rows[len(tr.rows)-1] != want {
		t.Fatalf("last row %q, want %q", tr.rows[len(tr.rows)-1], want)
	}
	if tr.old != 0 {
		t.Fatalf("old = %d after the baseline's rows were dropped, want 0", tr.old)
	}
}
