package parser

// Strategy: InputRow on hand-made screens for each rule (the lowest prompt row wins, rows
// continuing it, chrome and placeholders read as empty, none found), and on the Claude Code
// case that broke the relay's reading: its input row opens with "❯" and a non-breaking
// space, its submitted messages above with a plain space. The recorded real screens are
// checked in real_test.go.

import "testing"

func TestInputRow(t *testing.T) {
	claude, gemini, codex := ProfileFor("claude"), ProfileFor("gemini"), ProfileFor("codex")
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
