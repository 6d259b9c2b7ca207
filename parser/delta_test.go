package parser

// Strategy: tables of transcript rows as each program prints them → the exact delta.
// Every row of a case is a row the real program could print; the cases cover chrome,
// echo of typed input (reflowed, across blank rows, cut short, without a prefix), answer
// glyphs and dedenting, code indentation, blank-run collapsing, and the strict echo
// rule of the generic profile.

import (
	"strings"
	"testing"
)

func TestDelta(t *testing.T) {
	claude, codex, gemini, generic := ProfileFor("claude"), ProfileFor("codex"), ProfileFor("gemini"), ProfileFor("sh")
	rule := strings.Repeat("─", 40)
	tests := []struct {
		name  string
		p     Profile
		lines []string
		typed []string
		want  string
		last  int
	}{
		{
			name:  "empty",
			p:     claude,
			lines: nil,
			want:  "",
			last:  -1,
		},
		{
			name: "claude answer with box, footer and summary",
			p:    claude,
			lines: []string{
				"",
				"❯ say hi",
				"",
				"● Hello there.",
				"",
				"✻ Cogitated for 8s · done 12:05 AM",
				"",
				rule,
				"❯\u00a0",
				rule,
				"  ⏵⏵ auto mode on (shift+tab to cycle)",
			},
			typed: []string{"say hi"},
			want:  "Hello there.",
			last:  3,
		},
		{
			name: "claude multi-paragraph answer with code keeps indentation",
			p:    claude,
			lines: []string{
				"❯ write code",
				"● Here it is:",
				"",
				"",
				"  func main() {",
				"      fmt.Println(\"hi\")",
				"  }",
				"",
				"  Done.   ",
			},
			want: "Here it is:\n\nfunc main() {\n    fmt.Println(\"hi\")\n}\n\nDone.",
			last: 8,
		},
		{
			name: "claude echo reflowed over rows and blank rows, then the answer",
			p:    claude,
			lines: []string{
				"❯ alice (1):",
				"",
				"  Please review the parser package and tell me",
				"  what you think of it.",
				"",
				"● It looks fine.",
			},
			typed: []string{"alice (1):\n\nPlease review the parser package and tell me what you think of it."},
			want:  "It looks fine.",
			last:  5,
		},
		{
			name: "claude pasted-text placeholder echo is input too",
			p:    claude,
			lines: []string{
				"❯ [Pasted text #1 +12 lines]",
				"● Got it.",
			},
			typed: []string{"a long message"},
			want:  "Got it.",
			last:  1,
		},
		{
			name: "claude spinner and tool rows while busy are chrome",
			p:    claude,
			lines: []string{
				"● Bash(ls)",
				"  ⎿  main.go",
				"✽ Quantumizing… (2s · ↓ 3 tokens)",
				"  ⎿  Tip: use /memory",
				rule,
				"❯ ",
				rule,
				"  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt",
			},
			want: "Bash(ls)\n⎿  main.go",
			last: 1,
		},
		{
			name: "codex answer, working row and status rows",
			p:    codex,
			lines: []string{
				"› say hi",
				"",
				"• Working (0s • esc to interrupt)",
				"• Hello from Codex.",
				"  Second line.",
				"",
				"  Worked for 8s • 00:06",
				"",
				"› Ask Codex to do anything",
				"",
				"  GPT-6.1-Sol default · ~/project",
				"  ← for agents · ? for shortcuts                 ⚠ 1 warning · f2 to view",
			},
			typed: []string{"say hi"},
			want:  "Hello from Codex.\nSecond line.",
			last:  4,
		},
		{
			name: "gemini answer between echo and prompt",
			p:    gemini,
			lines: []string{
				" > say hi",
				"",
				"✦ Hello from Gemini.",
				"",
				"                                        ? for shortcuts",
				rule,
				" Shift+Tab to accept edits",
				"",
				" >   Type your message or @path/to/file",
				"",
				" workspace (/directory)          sandbox          /model",
				" ~/project                       no sandbox       Auto",
			},
			want: "Hello from Gemini.",
			last: 2,
		},
		{
			name: "gemini spinner row with hint is chrome",
			p:    gemini,
			lines: []string{
				"✦ Partial answer",
				" ⠸ Thinking... (esc to cancel, 2s)                  ? for shortcuts",
			},
			want: "Partial answer",
			last: 0,
		},
		{
			name: "generic keeps unknown echo-looking output, drops the typed echo and prompt",
			p:    generic,
			lines: []string{
				"> hello bot",
				"bot says:",
				"> quoted reply",
				"> ",
			},
			typed: []string{"hello bot"},
			want:  "bot says:\n> quoted reply",
			last:  2,
		},
		{
			name: "generic echo without prefix (cooked tty echo) at the start",
			p:    generic,
			lines: []string{
				"what is the answer to everything",
				"42",
			},
			typed: []string{"what is the answer to everything"},
			want:  "42",
			last:  1,
		},
		{
			name: "short words that merely start like the typed text stay",
			p:    generic,
			lines: []string{
				"ok",
				"fine",
			},
			typed: []string{"ok then, go on"},
			want:  "ok\nfine",
			last:  1,
		},
		{
			name: "echo cut short with an ellipsis",
			p:    codex,
			lines: []string{
				"› a very long message that the program…",
				"• Reply.",
			},
			typed: []string{"a very long message that the program cut short on its screen"},
			want:  "Reply.",
			last:  1,
		},
		{
			name: "bare answer glyph while streaming gives nothing",
			p:    claude,
			lines: []string{
				"❯ say hi",
				"●",
				"✢ Considering… (1s · ↓ 1 tokens)",
			},
			want: "",
			last: -1,
		},
		{
			name: "blank runs collapse, only whitespace rows are blank",
			p:    generic,
			lines: []string{
				"   ",
				"one",
				"",
				" \t",
				"",
				"two",
				"",
			},
			want: "one\n\ntwo",
			last: 5,
		},
		{
			name: "no dedent when a continuation row is not indented",
			p:    codex,
			lines: []string{
				"• first",
				"  second",
				"third",
			},
			want: "first\n  second\nthird",
			last: 2,
		},
		{
			name: "generic: a Codex-like answer's bullet on its first row is stripped, its rows dedented",
			p:    generic,
			lines: []string{
				"› alice (1):",
				"",
				"  On it.",
				"",
				"• Sure, alice! Let's keep it tiny: a CLI with add, list and done, stored in",
				"  one JSON file.",
				"  Can you take the data model?",
			},
			typed: []string{"alice (1):\n\nOn it."},
			want:  "Sure, alice! Let's keep it tiny: a CLI with add, list and done, stored in\none JSON file.\nCan you take the data model?",
			last:  6,
		},
		{
			name: "generic: the answer's bullet, and a list's under it, indented, kept as bullets",
			p:    generic,
			lines: []string{
				"• The plan:",
				"  • add",
				"  • list",
			},
			want: "The plan:\n• add\n• list",
			last: 2,
		},
		{
			name: "generic: an answer that is a list keeps every bullet",
			p:    generic,
			lines: []string{
				"• add",
				"• list",
				"  and its options",
				"• done",
			},
			want: "• add\n• list\n  and its options\n• done",
			last: 3,
		},
		{
			name: "generic: a bullet past the first row of words is the answer's own",
			p:    generic,
			lines: []string{
				"Steps:",
				"• add",
			},
			want: "Steps:\n• add",
			last: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, last := extractLive(tt.p, tt.lines, tt.typed)
			if got != tt.want {
				t.Errorf("Extract text = %q, want %q", got, tt.want)
			}
			if last != tt.last {
				t.Errorf("Extract last = %d, want %d", last, tt.last)
			}
			if d := delta(tt.p, tt.lines, tt.typed); d != got {
				t.Errorf("Delta = %q, Extract = %q", d, got)
			}
		})
	}
}

func TestLiveStart(t *testing.T) {
	claude, generic := ProfileFor("claude"), Generic()
	rule := strings.Repeat("─", 20)
	tests := []struct {
		name string
		p    Profile
		rows []string
		want int
	}{
		{"empty", claude, nil, 0},
		{"content last", claude, []string{"a", "b"}, 2},
		{"box and footer", claude, []string{"● hi", "", rule, "❯\u00a0draft", rule, "  ⏵⏵ auto mode on"}, 1},
		{"all chrome", claude, []string{rule, "❯ ", rule}, 0},
		{"strict echo: only the last prompt row", generic, []string{"out", "> quoted", "> "}, 2},
		{"strict echo: typed draft on the last row", generic, []string{"out", "> draft"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LiveStart(tt.p, tt.rows); got != tt.want {
				t.Errorf("LiveStart = %d, want %d", got, tt.want)
			}
		})
	}
}
