package parser

// The opencode profile on opencode 1.18.33's full-screen frames as the agents tests drew
// them: the message in a box with a left side only, the answer five columns in, a
// "▣  Build · model · time" row, the input box and footer at the bottom.

import (
	"strings"
	"testing"
)

func TestOpencodeTurn(t *testing.T) {
	p := ProfileFor("opencode")
	input := []string{"  ┃", "  ┃", "  ┃", "  ┃  Build · mock mock", "  ╹" + strings.Repeat("▀", 40),
		"   ~/project                      19  ctrl+p commands"}
	frame := func(body ...string) []string {
		rows := append([]string{""}, body...)
		for len(rows) < 24 {
			rows = append(rows, "")
		}
		return append(rows, input...)
	}
	old := []string{"  ┃", "  ┃  say hi", "  ┃", "", "     Q-1 to: say hi", "", "     ▣  Build · mock · 3.9s", ""}
	tr := NewTranscript(p, frame(old...), 25)
	echo := []string{"  ┃", "  ┃  claude (1):", "  ┃", "  ┃  CLAUDE-1 to: hello", "  ┃", ""}
	busy := frame(append(append([]string{}, old...), echo...)...)
	busy[len(busy)-1] = "   ⬝⬝⬝⬝  esc interrupt            tab agents  ctrl+p commands"
	if st := Classify(p, "OC | Mock session", busy); st != Busy {
		t.Errorf("with esc interrupt in its footer opencode is %v, want busy", st)
	}
	tr.Add(p, busy, -1)
	// A pause in the model's stream: the answer's first rows stand above the input and
	// the footer has no "esc interrupt" (as when the early end was seen): not idle, as no
	// "▣" row stands under the answer yet.
	paused := frame(append(append(append([]string{}, old...), echo...), "     Q-2 to: claude (1):", "", "     1. Read the code.", "     2. Run the tests.")...)
	if st := Classify(p, "OC | Mock session", paused); st == Idle {
		t.Errorf("paused mid-answer, with no ▣ row under it, opencode is idle")
	}
	done := frame(append(append(append([]string{}, old...), echo...), "     Q-2 to: claude (1):", "       indented", "",
		"     ▣  Build · mock · 3.0s")...)
	if st := Classify(p, "OC | Mock session", done); st != Idle {
		t.Errorf("without it opencode is %v, want idle", st)
	}
	tr.Add(p, done, 25)
	const want = "Q-2 to: claude (1):\n  indented"
	if w := tr.Words(p, []string{"claude (1):\n\nCLAUDE-1 to: hello"}); w.Text != want {
		t.Fatalf("words %q\nwant  %q", w.Text, want)
	}
}

// opencodeStart is opencode 1.18.33's start screen as a 108-column pane showed it: the
// logo over the empty input box, a tip, the directory and version under it.
func opencodeStart(rows int) []string {
	pad := strings.Repeat(" ", 30)
	screen := []string{
		"", "",
		pad + strings.Repeat(" ", 33) + "▄",
		pad + "█▀▀█ █▀▀█ █▀▀█ █▀▀▄ █▀▀▀ █▀▀█ █▀▀█ █▀▀█",
		pad + "█  █ █  █ █▀▀▀ █  █ █    █  █ █  █ █▀▀▀",
		pad + "▀▀▀▀ █▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀",
		"",
		pad + "┃",
		pad + "┃  Ask anything... \"Fix a TODO in the codebase\"",
		pad + "┃",
		pad + "┃  Build · mock mock",
		pad + "╹" + strings.Repeat("▀", 40),
		pad + "                        tab agents  ctrl+p commands",
		"",
		pad + "      ● Tip Use backticks to inject shell output (e.g., `git status`)",
	}
	for len(screen) < rows-1 {
		screen = append(screen, "")
	}
	return append(screen, "  ~/project"+strings.Repeat(" ", 87)+"1.18.33")
}

// The start screen drawn after the pane counted as started on a blank screen (opencode
// clears its screen seconds before it draws) holds no words: not the logo, not the
// directory and version row; and it is idle.
func TestOpencodeStartScreen(t *testing.T) {
	p := ProfileFor("opencode")
	start := opencodeStart(47)
	if st := Classify(p, "OpenCode", start); st != Idle {
		t.Errorf("the start screen is %v, want idle", st)
	}
	tr := NewTranscript(p, make([]string, 47), -1)
	tr.Add(p, start, 9)
	if w := tr.Words(p, nil); w.Text != "" {
		t.Fatalf("the start screen's words are %q, want none", w.Text)
	}
	// The person's draft in its input box, read as the Enter that sends it comes, is no
	// word of it either.
	draft := opencodeStart(47)
	draft[8] = strings.Repeat(" ", 30) + "┃  hello there"
	tr.Add(p, draft, 8)
	if w := tr.Words(p, nil); w.Text != "" {
		t.Fatalf("the start screen with a draft has words %q, want none", w.Text)
	}
	// The first answer, read from the start screen as its baseline, is read whole.
	tr = NewTranscript(p, start, 9)
	pad := strings.Repeat(" ", 2)
	answer := []string{"", pad + "┃", pad + "┃  hello there", pad + "┃", "",
		"     OC-1 to: hello there", "       █▀▀█ drawn by the model", "",
		"     ▣  Build · mock · 2.1s"}
	for len(answer) < 40 {
		answer = append(answer, "")
	}
	answer = append(answer, pad+"┃", pad+"┃", pad+"┃  Build · mock mock", pad+"╹"+strings.Repeat("▀", 40),
		"  ~/project                                   tab agents  ctrl+p commands")
	tr.Add(p, answer, 42)
	const want = "OC-1 to: hello there\n  █▀▀█ drawn by the model"
	if w := tr.Words(p, []string{"hello there"}); w.Text != want {
		t.Fatalf("words %q\nwant  %q", w.Text, want)
	}
}

// opencodeNarrow is opencode 1.18.33's start screen in a 60-column pane: its input box
// starts at column 2, not centred; the placeholder (or a draft) in its second row.
func opencodeNarrow(input string) []string {
	screen := make([]string, 38)
	screen[13] = strings.Repeat(" ", 44) + "▄"
	screen[14] = "           █▀▀█ █▀▀█ █▀▀█ █▀▀▄ █▀▀▀ █▀▀█ █▀▀█ █▀▀█"
	screen[15] = "           █  █ █  █ █▀▀▀ █  █ █    █  █ █  █ █▀▀▀"
	screen[16] = "           ▀▀▀▀ █▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀ ▀▀▀▀"
	screen[19] = "  ┃"
	screen[20] = "  ┃  " + input
	screen[21] = "  ┃"
	screen[22] = "  ┃  Build · mock mock"
	screen[23] = "  ╹" + strings.Repeat("▀", 57)
	screen[24] = strings.Repeat(" ", 31) + "tab agents  ctrl+p commands"
	screen[36] = "  ~/project                                        1.18.33"
	return screen
}

// In a narrow pane the start screen's input box is not centred: a person's draft in it,
// read when opencode clears its screen after the Enter (it draws the conversation
// seconds later), is no word of it; nor are the rows of its footer, wrapped in two.
func TestOpencodeNarrowStartScreen(t *testing.T) {
	p := ProfileFor("opencode")
	const msg = "hello from the long conversation test, please reply"
	tr := NewTranscript(p, make([]string, 38), -1) // started on a blank screen
	tr.Add(p, opencodeNarrow(`Ask anything… "Fix a TODO in the codebase"`), -1)
	tr.Add(p, opencodeNarrow(msg), 20)
	tr.Add(p, make([]string, 38), -1)
	if w := tr.Words(p, []string{msg}); w.Text != "" {
		t.Errorf("the start screen with a draft has words %q, want none", w.Text)
	}
	footer := []string{"  ┃", "  ┃", "  ┃  Build · mock mock", "  ╹" + strings.Repeat("▀", 57),
		"   /tmp/TestScratchOpencodeNarrow1502016640/9  ctrl+p", "   001/project                                 commands"}
	frame := func(body ...string) []string {
		rows := append([]string{""}, body...)
		for len(rows) < 32 {
			rows = append(rows, "")
		}
		return append(rows, footer...)
	}
	// Its conversation drawn, read with no cursor known in its input box (mid-turn).
	old := []string{"  ┃", "  ┃  " + msg, "  ┃"}
	tr = NewTranscript(p, frame(old...), -1)
	tr.Add(p, frame(append(old, "", "     OC-1 to: hello", "", "     ▣  Build · mock · 4.6s")...), -1)
	if w := tr.Words(p, nil); w.Text != "OC-1 to: hello" {
		t.Errorf("words %q, want the answer alone", w.Text)
	}
}

// The next turn begun: the message the relay submitted stands in its box under the last
// turn's "▣" row. Recorded from the real opencode (real-opencode-next-turn.txt) with its
// footer saying it works and the begun turn's "▣" row (no time yet) under the box; the
// moment before it marks itself working is that screen without those two, its footer
// as it draws it idle (real-opencode-draft.txt's). The box's rows open with "┃  ", as a
// draft in the input box does, but only the input box's own rows may stand under a done
// row of a turn that is over: that screen is not idle.
func TestOpencodeMessageBoxUnderTheDoneRowIsNoEnd(t *testing.T) {
	p := ProfileFor("opencode")
	rs := readRealScreen(t, "testdata/screens/real-opencode-next-turn.txt")
	idle := readRealScreen(t, "testdata/screens/real-opencode-draft.txt")
	footer := idle.screen[len(idle.screen)-1]
	var before []string
	for _, r := range rs.screen {
		switch {
		case strings.TrimSpace(r) == "▣  Build · mock":
			continue // the begun turn's row: not drawn yet
		case strings.Contains(r, "esc interrupt"):
			r = footer
		}
		before = append(before, r)
	}
	if len(before) != len(rs.screen)-1 {
		t.Fatalf("the recorded screen has no begun turn's ▣ row:\n%s", strings.Join(rs.screen, "\n"))
	}
	if st := Classify(p, rs.title, before); st == Idle {
		t.Errorf("the message's box alone under the last turn's ▣ row reads idle")
	}
	if text, _ := InputRow(p, before); text != "" {
		t.Errorf("InputRow = %q, want the empty input box", text)
	}
}
