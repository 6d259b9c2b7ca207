package parser

// Strategy: main-screen turns of the three kinds of chat program under the generic
// profile, as vterm numbers their rows: a line-mode REPL (a prompt, the answer, the same
// prompt again), an inline UI with an input box and a footer under it, and a program
// whose rows above the input were redrawn in place. Each case gives the screen at the
// baseline and at the turn's end with the cursor where the program left it, and wants
// exactly the answer: the failures (answers between a banner and an identical
// prompt thrown away) and the corpus's traps (an answer line identical to the banner, the
// prompt row or an earlier answer's line, lines opening with > ❯ › $, the person's
// message quoted back). Transcripts of full-screen programs are checked the same way.

import (
	"strings"
	"testing"
)

// screenAt numbers rows from absolute row top and puts the cursor on row cur of them
// (-1: not known).
func screenAt(rows []string, top int64, cur int) View {
	v := View{Cursor: -1}
	for i, r := range rows {
		v.Lines = append(v.Lines, Line{N: top + int64(i), Text: r})
	}
	if cur >= 0 {
		v.Cursor, v.Input = top+int64(cur), rows[cur]
	}
	return v
}

func TestMainTurn(t *testing.T) {
	g := Generic()
	rule := strings.Repeat("─", 40)
	box := []string{rule, "❯ ", rule, "  ? for shortcuts"}
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name          string
		before, after []string
		bcur, acur    int // cursor rows (-1: not known)
		typed         []string
		want          string
		redrawn       bool
	}{
		{
			name:   "line-mode REPL: the answer between the banner and the same prompt",
			before: []string{"a ready.", "a> "},
			after:  []string{"a ready.", "a> hello there", "a answer 1: I got 11 characters.", "Second line of answer 1.", "a> "},
			bcur:   1, acur: 4,
			typed: []string{"hello there"},
			want:  "a answer 1: I got 11 characters.\nSecond line of answer 1.",
		},
		{
			name:   "REPL: lines equal to the banner, the prompt row and an earlier answer, and the message quoted",
			before: []string{"a ready.", "a> hi", "Earlier line.", "a> "},
			after: []string{"a ready.", "a> hi", "Earlier line.", "a> hello there", "hello there", "a ready.", "a>", "",
				"Earlier line.", "> hello there", "$ ls", "a> "},
			bcur: 3, acur: 11,
			typed: []string{"hello there"},
			want:  "hello there\na ready.\na>\n\nEarlier line.\n> hello there\n$ ls",
		},
		{
			name:   "REPL without a cursor: the prompt row is not chrome, the answer still comes, the echo after its prompt does not",
			before: []string{"a ready.", "a> "},
			after:  []string{"a ready.", "a> hello there", "answer", "a> "},
			bcur:   -1, acur: -1,
			typed: []string{"hello there"},
			want:  "answer\na>",
		},
		{
			name:   "inline UI: echo, answer ending in a lone prompt glyph, the box and footer drawn again",
			before: cat([]string{" ✻ Welcome to bot", ""}, box),
			after:  cat([]string{" ✻ Welcome to bot", "", "❯ hi", "", "The answer.", "❯ quoted", "❯", ""}, box),
			bcur:   3, acur: 9,
			typed: []string{"hi"},
			want:  "The answer.\n❯ quoted\n❯",
		},
		{
			name:   "inline UI whose footer changed: the cursor's row and the rule above it end the turn",
			before: cat([]string{" ✻ Welcome to bot", ""}, box),
			after:  cat([]string{" ✻ Welcome to bot", "", "❯ hi", "", "The answer.", "› fine", ""}, box[:3], []string{"  esc to interrupt"}),
			bcur:   3, acur: 8,
			typed: []string{"hi"},
			want:  "The answer.\n› fine",
		},
		{
			name:   "inline UI, baseline read while its box was half redrawn: the cursor's boxed row ends the turn",
			before: []string{" ✻ Welcome to bot", "", rule[:len("─")*15]},
			after:  cat([]string{" ✻ Welcome to bot", "", "❯ hi", "", "The answer.", ""}, box),
			bcur:   2, acur: 7,
			typed: []string{"hi"},
			want:  "The answer.",
		},
		{
			name:   "a header redrawn in place above rows that stayed is old",
			before: []string{"logo frame 1", "v1.0", "", "notice", "", "> "},
			after:  []string{"logo frame 2", "v1.0", "", "notice", "", "> hi", "answer", "> "},
			bcur:   5, acur: 7,
			typed: []string{"hi"},
			want:  "answer", redrawn: true,
		},
		{
			name:   "a notice above the input erased and the echo in its place (Gemini CLI)",
			before: []string{"banner", "", "⚠ warning", "  continued", "", "", " > "},
			after:  []string{"banner", "", " > hi", "", "The answer.", "", " > "},
			bcur:   6, acur: 6,
			typed: []string{"hi"},
			want:  "The answer.",
		},
		{
			name:   "REPL, baseline when the person pressed Enter: the echo is old, a quote first in the answer stays",
			before: []string{"a ready.", "a> hello there"},
			after:  []string{"a ready.", "a> hello there", "hello there", "answer", "a> "},
			bcur:   1, acur: 4,
			typed: []string{"hello there"},
			want:  "hello there\nanswer",
		},
		{
			name:   "REPL, baseline at Enter, a second line typed ahead while busy: its echo is input too",
			before: []string{"a ready.", "a> one"},
			after: []string{"a ready.", "a> one", "two", "a answer 1: I got 3 characters.", "Second line of answer 1.",
				"a> a answer 2: I got 3 characters.", "Second line of answer 2.", "a> "},
			bcur: 1, acur: 7,
			typed: []string{"one", "two"},
			want:  "a answer 1: I got 3 characters.\nSecond line of answer 1.\na> a answer 2: I got 3 characters.\nSecond line of answer 2.",
		},
		{
			name:   "REPL, baseline at the prompt, a second line typed ahead while busy: both echoes are input",
			before: []string{"a ready.", "a> "},
			after: []string{"a ready.", "a> one", "two", "a answer 1: I got 3 characters.", "Second line of answer 1.",
				"a> a answer 2: I got 3 characters.", "Second line of answer 2.", "a> "},
			bcur: 1, acur: 7,
			typed: []string{"one", "two"},
			want:  "a answer 1: I got 3 characters.\nSecond line of answer 1.\na> a answer 2: I got 3 characters.\nSecond line of answer 2.",
		},
		{
			name:   "REPL, baseline at the prompt: an answer opening with the message quoted keeps it",
			before: []string{"a ready.", "a> "},
			after:  []string{"a ready.", "a> one", "one", "answer", "a> "},
			bcur:   1, acur: 4,
			typed: []string{"zero", "one"},
			want:  "one\nanswer",
		},
		{
			name:   "REPL, baseline at Enter: text typed in an earlier turn, quoted first, stays",
			before: []string{"a ready.", "a> one"},
			after:  []string{"a ready.", "a> one", "zero", "answer", "a> "},
			bcur:   1, acur: 4,
			typed: []string{"zero", "one"},
			want:  "zero\nanswer",
		},
		{
			name:   "nothing but the prompt again: nothing new",
			before: []string{"a ready.", "a> "},
			after:  []string{"a ready.", "a> ", "a> "},
			bcur:   1, acur: 2,
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const top = 100 // rows above scrolled into history
			w := MainTurn(g, screenAt(tt.before, top, tt.bcur), screenAt(tt.after, top, tt.acur), tt.typed)
			if w.Text != tt.want || w.Redrawn != tt.redrawn {
				t.Errorf("words %q (redrawn %v)\nwant  %q (redrawn %v)", w.Text, w.Redrawn, tt.want, tt.redrawn)
			}
		})
	}
}

func TestMainTurnScrolledAndCleared(t *testing.T) {
	g := Generic()
	before := screenAt([]string{"old 1", "old 2", "old 3", "a> "}, 50, 3)
	// The answer scrolled the screen: the rows keep their numbers.
	var rows []string
	for i := 0; i < 30; i++ {
		rows = append(rows, "line "+string(rune('A'+i%26)))
	}
	after := screenAt(append(append([]string{"old 1", "old 2", "old 3", "a> go"}, rows...), "a> "), 50, 34)
	if w := MainTurn(g, before, after, []string{"go"}); w.Text != strings.Join(rows, "\n") || w.Moved {
		t.Errorf("scrolled: %q (moved %v)", w.Text, w.Moved)
	}
	// The program cleared the screen and printed at its top: the rows moved, compared by text.
	after = screenAt([]string{"fresh start", "a> "}, 50, 1)
	if w := MainTurn(g, before, after, nil); w.Text != "fresh start" || !w.Moved {
		t.Errorf("cleared: %q (moved %v)", w.Text, w.Moved)
	}
}

func TestTranscriptTurn(t *testing.T) {
	g := Generic()
	frame := func(header string, body []string, input string) []string {
		out := []string{header}
		for len(body) < 6 {
			body = append(body, "")
		}
		out = append(out, body[len(body)-6:]...)
		return append(out, input)
	}
	tr := NewTranscript(g, frame("bot · ready", []string{"> earlier", "an earlier answer", "> "}, "> "), 7)
	// While it works the header changes and the answer scrolls line by line under it; the
	// answer repeats the header, the prompt row and an earlier line.
	answer := []string{"first", "bot · ready", ">", "an earlier answer", "❯ fifth", "$ sixth", "seventh", "eighth"}
	body := []string{"> earlier", "an earlier answer", "> hi"}
	tr.Add(g, frame("bot · thinking", body, "> "), -1)
	for _, l := range answer {
		body = append(body, l)
		tr.Add(g, frame("bot · thinking", body, "> "), -1)
	}
	tr.Add(g, frame("bot · ready", body, "> "), 7)
	if w := tr.Words(g, []string{"hi"}); w.Text != strings.Join(answer, "\n") {
		t.Errorf("words %q\nwant  %q", w.Text, strings.Join(answer, "\n"))
	}
}

func TestTranscriptEchoScrolledAway(t *testing.T) {
	g := Generic()
	frame := func(body []string, input string) []string {
		body = append([]string(nil), body...)
		for len(body) < 4 {
			body = append(body, "")
		}
		return append(append([]string{"bot · ready"}, body[len(body)-4:]...), "", input)
	}
	msg := "alice (1):\n\nthe first line of a long message\nthe second line of it\nthe third line of it\nthe fourth line of it, its last"
	tr := NewTranscript(g, frame(nil, "> "), 6)
	// The whole echo is drawn at once: only its last rows are ever on the screen.
	var echo []string
	for i, l := range strings.Split(msg, "\n") {
		if i == 0 {
			echo = append(echo, "> "+l)
		} else {
			echo = append(echo, "  "+l)
		}
	}
	tr.Add(g, frame(echo, "> "), -1)
	body := append(echo, "An answer that quotes", "> alice (1):")
	tr.Add(g, frame(body, "> "), 6)
	if w := tr.Words(g, []string{msg}); w.Text != "An answer that quotes\n> alice (1):" {
		t.Errorf("words %q", w.Text)
	}
}

// A program on a screen of four content rows draws a long message's echo at once, its
// lines behind an indent: only its last two rows, short ones, ever stand on the screen,
// right after a frame that scrolled by more than a screenful. Fewer characters than a
// tail is otherwise asked to spell, they are the echo's end all the same, not words of
// the answer; the same short rows with no jump before them (the answer's own) are kept.
func TestTranscriptShortEchoTailAfterAJump(t *testing.T) {
	g := Generic()
	frame := func(body []string, input string) []string {
		body = append([]string(nil), body...)
		for len(body) < 4 {
			body = append(body, "")
		}
		return append(append([]string{"alice ── chat", ""}, body[len(body)-4:]...), input, "mock-model · 2 messages")
	}
	msg := "bob (2):\n\nthe first line of a long message\nthe second line of it\n\nbob · ready\nbob · ready"
	old := []string{"An earlier answer, row one.", "Row two.", "Row three."}
	tr := NewTranscript(g, frame(old, "> "), 6)
	var echo []string
	for i, l := range strings.Split(msg, "\n") {
		if i == 0 {
			echo = append(echo, "you: "+l)
		} else {
			echo = append(echo, "     "+l)
		}
	}
	echo = append(echo, "")
	tr.Add(g, frame(echo, "> "), -1)
	answer := []string{"The answer's first row.", "Its second row."}
	tr.Add(g, frame(append(echo, answer...), "> "), 6)
	if w := tr.Words(g, []string{msg}); w.Text != "The answer's first row.\nIts second row." {
		t.Errorf("after a jump: words %q, want the answer alone", w.Text)
	}
	// No jump: the rows scroll in one by one. The answer's own first rows, though the
	// message ended with them too, are kept: too short to be taken for an echo's end.
	tr = NewTranscript(g, frame(old, "> "), 6)
	own := []string{"     bob · ready", "     bob · ready", "", "The answer's first row."}
	tr.Add(g, frame(append(append([]string{}, old...), own[:1]...), "> "), -1)
	tr.Add(g, frame(append(append([]string{}, old...), own[:2]...), "> "), -1)
	tr.Add(g, frame(append(append([]string{}, old...), own...), "> "), 6)
	if w := tr.Words(g, []string{msg}); !strings.HasPrefix(strings.TrimSpace(w.Text), "bob · ready") {
		t.Errorf("no jump: words %q, want the rows kept", w.Text)
	}
}

func TestMainTurnWrappedDraft(t *testing.T) {
	// The person's draft wrapped over two rows of a narrow pane; the cursor is on the
	// second. Ending the turn there (at the person's Enter) finds nothing to relay.
	g := Generic()
	before := screenAt([]string{"a ready.", "a> "}, 0, 1)
	after := screenAt([]string{"a ready.", "a> a draft long enough to wrap"}, 0, -1)
	after.Cursor, after.Input = 2, "to wrap" // the row, not the logical line
	if w := MainTurn(g, before, after, nil); w.Text != "" {
		t.Errorf("words %q, want none", w.Text)
	}
}

// A line-mode REPL's prompt at the bottom, with the cursor on it, is never part of the
// answer, even when the baseline knew no prompt: it was taken after the echo of the
// person's Enter moved the cursor to the blank row under the echo, or the program's
// prompt changed. Until the prompt is printed (the program paused longer than the
// relay's quiet time before it), the cursor is on the blank row under the answer, and
// every row above is the answer's, also one equal to the prompt or opening like a draft.
func TestMainTurnPromptUnderCursor(t *testing.T) {
	g := Generic()
	answer := []string{"Pane types each screen turn relay.", "    x2 := parse(row71) // code"}
	below := func(rows []string) View { // the cursor on the blank row under rows
		v := screenAt(rows, 10, -1)
		v.Cursor = 10 + int64(len(rows))
		return v
	}
	tests := []struct {
		name          string
		before, after View
		want          string
	}{
		{
			name:   "baseline after the Enter's echo: cursor on the blank row below",
			before: below([]string{"alice ready.", "alice> hello there"}),
			after:  screenAt(append(append([]string{"alice ready.", "alice> hello there"}, answer...), "alice> "), 10, 4),
			want:   strings.Join(answer, "\n"),
		},
		{
			name:   "a prompt that differs from the baseline's",
			before: screenAt([]string{"alice ready.", "[1] alice> "}, 10, 1),
			after:  screenAt(append(append([]string{"alice ready.", "[1] alice> hello there"}, answer...), "[2] alice> "), 10, 4),
			want:   strings.Join(answer, "\n"),
		},
		{
			name:   "the prompt not printed yet, the answer's last line equal to it",
			before: screenAt([]string{"alice ready.", "alice> "}, 10, 1),
			after:  below(append(append([]string{"alice ready.", "alice> hello there"}, answer...), "alice>")),
			want:   strings.Join(answer, "\n") + "\nalice>",
		},
		{
			name:   "the prompt not printed yet, the answer's last line opening like a draft",
			before: screenAt([]string{"alice ready.", "alice> "}, 10, 1),
			after:  below(append(append([]string{"alice ready.", "alice> hello there"}, answer...), "› quoted")),
			want:   strings.Join(answer, "\n") + "\n› quoted",
		},
	}
	for _, tc := range tests {
		if got := MainTurn(g, tc.before, tc.after, []string{"hello there"}).Text; got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// A program no profile knows that draws its input in a box under its transcript (a
// Claude-Code-like look: the empty prompt row "❯" between two rules, a footer under them)
// and keeps its hardware cursor hidden on the footer row, with a reverse-video cell in
// the box for a cursor. The rows are the demo's inline style as vterm reads them in a
// 78-column pane; the box's prompt row is the input, never the answer's last line,
// whether the box shows what it showed at the baseline, a draft typed meanwhile or
// another footer.
func TestMainTurnBoxedInputCursorBelow(t *testing.T) {
	g := Generic()
	rule := strings.Repeat("─", 78)
	banner := []string{
		" ╭─────╮   alice · simulated agent",
		" │ o o │   agentmux demo · no model, no network",
		" ╰─────╯   type a message and press Enter",
		"",
	}
	footer := "  ⏵⏵ demo mode · ctrl+j for newline"
	box := func(prompt, footer string) []string { return []string{rule, prompt, rule, footer} }
	typed := "you:\n\nsay hello to bob"
	turn := []string{
		"❯ you:", "", "  say hello to bob", "",
		"● On it: each item has an id, its text, a done flag and when it was added.",
		"  `todo add` appends one and prints its id.",
		"",
	}
	answer := "On it: each item has an id, its text, a done flag and when it was added.\n`todo add` appends one and prints its id."
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	before := cat(banner, box("❯  ", footer))
	tests := []struct {
		name  string
		after []string
	}{
		{"the box drawn again as it was", cat(banner, turn, box("❯  ", footer))},
		{"a draft typed into the box meanwhile", cat(banner, turn, box("❯ half a thought ", footer))},
		{"another footer under the box", cat(banner, turn, box("❯  ", "  ⏵⏵ demo mode · shift+enter for newline"))},
	}
	for _, tc := range tests {
		const top = 40
		b := screenAt(before, top, len(before)-1)
		a := screenAt(tc.after, top, len(tc.after)-1)
		if got := MainTurn(g, b, a, []string{typed}).Text; got != answer {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, answer)
		}
	}
	// Answers that end in a table ruled above and below, under which a line-mode program
	// prints its prompt, keep their rows (the rules, chrome, aside): rules around rows that
	// open with no prompt are no input box, and the prompt under them is no footer.
	repl := []string{"a ready.", "a> hi", "The totals:", "-----", "total 2", "-----", "a> "}
	more := append(append([]string(nil), repl[:6]...), "a> more", "The totals:", "-----", "total 3", "-----", "a> ")
	b := screenAt(repl, 0, len(repl)-1)
	a := screenAt(more, 0, len(more)-1)
	if got, want := MainTurn(g, b, a, []string{"more"}).Text, "The totals:\ntotal 3"; got != want {
		t.Errorf("a REPL's table:\n got %q\nwant %q", got, want)
	}
}

// A turn in which nothing changed but the input box at the bottom (a draft shown in it,
// masked or as typed, or typed back into it) wrote nothing: neither the box's rows nor
// the hint under it are words, whether the cursor is parked under the box or the box's
// rows were read as the first that changed.
func TestMainTurnOnlyTheInputBoxChanged(t *testing.T) {
	g := Generic()
	box := func(row string) []string {
		rule := strings.Repeat("─", 40)
		return []string{"╭" + rule + "╮", "│ " + row + strings.Repeat(" ", 38-len([]rune(row))) + " │", "╰" + rule + "╯", "  enter send · ctrl+j newline", ""}
	}
	head := []string{"* bob code · mock-model", "", "> hello there", "", "Answer questions not relay and the turn.", ""}
	for _, tc := range []struct {
		name     string
		from, to string
		typed    []string
	}{
		{"a masked draft", "> ", "> •••", []string{"abc"}},
		{"a masked draft put back", "> ", "> •••••••••••••••••••••", []string{"hello there", "my half-typed thought"}},
		{"a draft as typed", "> ", "> my half-typed thought", []string{"hello there"}},
		{"a labelled input", "Message: ", "Message: ••", nil},
		{"the draft's last key", "> ab", "> abc", []string{"abc"}},
	} {
		before, after := append(append([]string(nil), head...), box(tc.from)...), append(append([]string(nil), head...), box(tc.to)...)
		const top = 28
		b := screenAt(before, top, len(before)-1)
		a := screenAt(after, top, len(after)-1)
		if got := MainTurn(g, b, a, tc.typed).Text; got != "" {
			t.Errorf("%s: got %q, want no words", tc.name, got)
		}
	}
}

// A baseline read while the program had erased its input area to draw it again (its
// banner only, the cursor on a blank row under it): the input box the program drew at
// the bottom by the turn's end, the cursor parked under its hint row, is the input and
// not the answer's last rows, whatever the box's label. An answer that ends in a table
// (rows with columns between rules) keeps it.
func TestMainTurnBaselineWithoutInput(t *testing.T) {
	g := Generic()
	rule := strings.Repeat("─", 40)
	box := func(row string) []string {
		return []string{"╭" + rule + "╮", "│ " + row + strings.Repeat(" ", 38-len([]rune(row))) + " │", "╰" + rule + "╯", "  enter send · ctrl+j newline"}
	}
	turn := []string{"> hello there", "", "The answer, first line.", "> Its second line.", ""}
	const answer = "The answer, first line.\n> Its second line."
	before := []string{"* bob code · mock-model", ""}
	for _, tc := range []struct {
		name string
		tail []string
		want string
	}{
		{"a labelled box", box("Message: "), answer},
		{"a box with a prompt", box("> "), answer},
		{"a box showing a masked draft", box("Message: •••"), answer},
		{"an answer's table", []string{"╭" + rule + "╮", "│ a    │ b" + strings.Repeat(" ", 29) + "│", "╰" + rule + "╯"},
			answer + "\n\n│ a    │ b" + strings.Repeat(" ", 29) + "│"},
	} {
		after := append(append(append([]string(nil), before...), turn...), tc.tail...)
		const top = 7
		b := screenAt(before, top, -1)
		b.Cursor = top + int64(len(before))
		a := screenAt(after, top, -1)
		a.Cursor = top + int64(len(after))
		if got := MainTurn(g, b, a, []string{"hello there"}).Text; got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// The same boxed input on a full-screen program: the cursor hidden on the footer row
// under the box, the answer scrolling above the box, which stays at the bottom.
func TestTranscriptBoxedInputCursorBelow(t *testing.T) {
	g := Generic()
	rule := strings.Repeat("─", 60)
	frame := func(body []string, footer string) []string {
		body = append([]string(nil), body...)
		for len(body) < 8 {
			body = append(body, "")
		}
		return append(append([]string{"bot · ready", ""}, body[len(body)-8:]...), rule, "❯  ", rule, footer)
	}
	const idle, busy = "  ⏵⏵ demo mode · ctrl+j for newline", "  ⏵⏵ demo mode · esc to interrupt"
	cur := 13 // the footer's row
	tr := NewTranscript(g, frame(nil, idle), cur)
	body := []string{"❯ hi", ""}
	tr.Add(g, frame(body, busy), -1)
	answer := []string{"● The answer, first line.", "  Its second line."}
	for _, l := range answer {
		body = append(body, l)
		tr.Add(g, frame(body, busy), -1)
	}
	tr.Add(g, frame(body, idle), cur)
	if got, want := tr.Words(g, []string{"hi"}).Text, "The answer, first line.\nIts second line."; got != want {
		t.Errorf("words %q\nwant  %q", got, want)
	}
}
