package parser

// Strategy: InputRow on hand-made screens for each rule (the lowest prompt row wins, rows
// continuing it, chrome and placeholders read as empty, none found), and on the Claude Code
// case that broke the relay's reading: its input row opens with "❯" and a non-breaking
// space, its submitted messages above with a plain space; and inputs found by their edges
// (pi, opencode), with no prompt glyph. The recorded real screens are
// checked in real_test.go.

import (
	"strings"
	"testing"
)

func TestInputRow(t *testing.T) {
	claude, gemini, codex := ProfileFor("claude"), ProfileFor("gemini"), ProfileFor("codex")
	pi, opencode, qwen := ProfileFor("pi"), ProfileFor("opencode"), ProfileFor("qwen")
	rule := strings.Repeat("─", 40)
	box := strings.Repeat(" ", 23) + "┃"
	edge := "  ╹" + strings.Repeat("▀", 40)
	for _, tc := range []struct {
		name   string
		p      Profile
		screen []string
		want   string
		found  bool
	}{
		{"claude draft after an nbsp", claude, []string{"❯ earlier message", "", "● answer", "───", "❯\u00a0my draft", "───", "  ? for shortcuts"}, "my draft", true},
		{"claude empty after an nbsp", claude, []string{"❯ earlier message", "", "● answer", "───", "❯\u00a0", "───"}, "", true},
		{"claude plain space", claude, []string{"───", "❯ my draft", "───"}, "my draft", true},
		{"claude lines continuing", claude, []string{"───", "❯\u00a0first", "  second", "", "  third", "───"}, "first\n  second", true},
		{"gemini placeholder", gemini, []string{" > earlier", "▄▄▄▄", " >   Type your message or @path/to/file", "▀▀▀▀"}, "", true},
		{"codex placeholder", codex, []string{"› earlier", "", "› Ask Codex to do anything"}, "", true},
		{"codex draft", codex, []string{"› earlier", "", "› my draft", "", "  model · ~/project"}, "my draft", true},
		// pi 0.73.1: no prompt glyph, the input between two rules; its answers padded by one.
		{"pi empty", pi, []string{" > a quoted answer", rule, "", rule, "~/project", "0.0%/200k (auto)   mock"}, "", true},
		{"pi pasted lines", pi, []string{" answer", rule, "two (9):", "", "lines here", rule, "~/project"}, "two (9):\n\nlines here", true},
		{"pi no rules", pi, []string{" answer", "> not its input"}, "", false},
		// opencode 1.18.33: a box with a left side only over its agent · model row; centred
		// on its start screen, two columns in once a conversation is drawn.
		{"opencode start placeholder", opencode, []string{"", box, box + `  Ask anything… "What is the tech stack?"`, box, box + "  Build · mock mock", edge}, "", true},
		{"opencode start draft", opencode, []string{"", box, box + "  my draft here", box, box + "  Build · mock mock", edge}, "my draft here", true},
		{"opencode draft under a message", opencode, []string{"  ┃", "  ┃  say hi", "  ┃", "", "     OC-1 to: say hi", "",
			"  ┃", "  ┃  my draft", "  ┃  second line", "  ┃", "  ┃  Build · mock mock", edge}, "my draft\nsecond line", true},
		{"opencode empty under a message", opencode, []string{"  ┃", "  ┃  say hi", "  ┃", "", "  ┃", "  ┃", "  ┃", "  ┃  Build · mock mock", edge}, "", true},
		// Qwen Code 0.24.4 draws a zero-width space as its cursor after a draft.
		{"qwen cursor after a draft", qwen, []string{"  > earlier", rule, "> my draft \u200b", rule, "  ➜ project · mock"}, "my draft", true},
		{"no prompt row", claude, []string{"● answer", "───"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, found := InputRow(tc.p, tc.screen)
			if got != tc.want || found != tc.found {
				t.Errorf("InputRow = %q, %v; want %q, %v", got, found, tc.want, tc.found)
			}
		})
	}
}
