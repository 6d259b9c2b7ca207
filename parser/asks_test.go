package parser

// Strategy: the approval screens recorded from the real CLIs (testdata/screens, see
// real_test.go) must give the question and the choices exactly as the CLI shows them;
// small tables cover the shapes that must not read as a prompt (numbered lists that do
// not count from 1, a single choice) and the box borders and pointers a prompt wears.

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadAskReal(t *testing.T) {
	for _, tc := range []struct {
		file, question string
		options        []Option
		context        string // a row the context must hold
	}{
		{"real-claude-approval.txt", "Do you want to proceed?", []Option{
			{"1", "Yes"}, {"2", "Yes, and always allow access to project/ from this project"}, {"3", "No"}}, "touch agentmux-approval-probe"},
		{"real-codex-approval.txt", "Would you like to run the following command?", []Option{
			{"1", "Yes, proceed (y)"}, {"2", "Yes, and don't ask again for commands that start with `touch agentmux-approval-probe` (p)"},
			{"3", "No, and tell Codex what to do differently (esc)"}}, "$ touch agentmux-approval-probe"},
		{"real-gemini-approval.txt", "Allow execution of [Shell]?", []Option{
			{"1", "Allow once"}, {"2", "Allow for this session"}, {"3", "No, suggest changes (esc)"}}, "Allow execution of [Shell]?"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			rs := readRealScreen(t, filepath.Join("testdata", "screens", tc.file))
			ask, ok := ReadAsk(rs.screen)
			require.True(t, ok, "no ask read")
			assert.Equal(t, tc.question, ask.Question)
			assert.Equal(t, tc.options, ask.Options)
			assert.Contains(t, ask.Context, tc.context)
		})
	}
}

func TestReadAskShapes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		screen []string
		ok     bool
		want   Ask
	}{
		{"boxed with pointer", []string{"╭────╮", "│ Run: rm -rf build? │", "│  ❯ 1. Yes │", "│    2. No  │", "╰────╯"}, true,
			Ask{Question: "Run: rm -rf build?", Options: []Option{{"1", "Yes"}, {"2", "No"}}, Context: []string{"Run: rm -rf build?", "❯ 1. Yes", "2. No"}}},
		{"a question, then choices", []string{"Apply this edit?", "", "1) apply", "2) skip"}, true,
			Ask{Question: "Apply this edit?", Options: []Option{{"1", "apply"}, {"2", "skip"}}, Context: []string{"Apply this edit?", "1) apply", "2) skip"}}},
		{"no question: a list, not a prompt", []string{"Tips for getting started:", "1. Create GEMINI.md files", "2. /help for more information",
			"", "> claude (1):", "⠏ Waiting for user confirmation..."}, false, Ask{}},
		{"a list not counted from 1", []string{"steps:", "2. two", "3. three"}, false, Ask{}},
		{"a label wrapped in a narrow pane (Claude Code 2.1.332 at 108 columns)", []string{
			"● Bash(touch agentmux-approval-probe)", "  ⎿  Waiting…", "", strings.Repeat("─", 108),
			" Bash command",
			` Tip: auto mode handles these prompts for you — choose "switch to auto mode" below`,
			" Run the command the test asked for", strings.Repeat("╌", 108), " touch agentmux-approval-probe", strings.Repeat("╌", 108),
			" Do you want to proceed?",
			" ❯ 1. Yes",
			"   2. Yes, and always allow access to /tmp/TestAnswerFromAPaneProgramRefused2278527760/002/project from",
			"      this project",
			"   3. Yes, and switch to auto mode · auto mode handles these prompts for you",
			"   4. No", "", " Esc to cancel · Tab to amend"}, true,
			Ask{Question: "Do you want to proceed?", Options: []Option{{"1", "Yes"},
				{"2", "Yes, and always allow access to /tmp/TestAnswerFromAPaneProgramRefused2278527760/002/project from this project"},
				{"3", "Yes, and switch to auto mode · auto mode handles these prompts for you"}, {"4", "No"}},
				Context: []string{"Bash command", `Tip: auto mode handles these prompts for you — choose "switch to auto mode" below`,
					"Run the command the test asked for", "touch agentmux-approval-probe", "Do you want to proceed?", "❯ 1. Yes",
					"2. Yes, and always allow access to /tmp/TestAnswerFromAPaneProgramRefused2278527760/002/project from",
					"this project", "3. Yes, and switch to auto mode · auto mode handles these prompts for you", "4. No"}}},
		{"a label wrapped onto more rows than a label wraps", []string{"Go on?", "1. yes", "a", "b", "c", "d", "2. no"}, false, Ask{}},
		{"a single choice", []string{"ok?", "1. fine"}, false, Ask{}},
		{"two choices, no question", []string{"Apply this edit", "1) apply", "2) skip"}, false, Ask{}},
		{"no choices", []string{"Allow? (y/n)"}, false, Ask{}},
		{"a version number is no choice", []string{"v1.2 ready", "3.5 seconds"}, false, Ask{}},
		{"a scrollbar in the last column (Qwen Code's, after it scrolled)", []string{
			"  > please run-tool now                 █",
			"  ? Shell touch probe ←                 █",
			"                                        █",
			"   Allow execution of: 'touch'?         █",
			"                                        █",
			"   › 1. Yes, allow once                 █",
			"     2. No, suggest changes (esc)       █",
			"                                        │",
			"  ⠏ Waiting for user confirmation...    │"}, true,
			Ask{Question: "Allow execution of: 'touch'?", Options: []Option{{"1", "Yes, allow once"}, {"2", "No, suggest changes (esc)"}},
				Context: []string{"> please run-tool now", "? Shell touch probe ←", "Allow execution of: 'touch'?", "› 1. Yes, allow once", "2. No, suggest changes (esc)"}}},
		{"a list far above the bottom is no prompt", []string{"Tips for getting started:", "1. Create GEMINI.md files", "2. /help for more information",
			"", "> please run-tool now", "⠏ Waiting for user confirmation...", "a", "b", "c", "d", "e", "f", "g"}, false, Ask{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ReadAsk(tc.screen)
			require.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestAskShort(t *testing.T) {
	a := Ask{Question: "Do you want to proceed?", Options: []Option{{"1", "Yes"}, {"2", "Yes, and always allow"}, {"3", "No"}}}
	assert.Equal(t, "Do you want to proceed? 1 Yes 2 Yes, and… 3 No", a.Short())
}

func FuzzReadAsk(f *testing.F) {
	f.Add("Run?\n❯ 1. Yes\n  2. No")
	f.Add("│ 1) a │\n│ 2) b │")
	f.Add("Go on?\n 1. Yes\n 2. Yes, and always allow access to\n    /a/long/path\n 3. No")
	f.Fuzz(func(t *testing.T, s string) {
		ask, ok := ReadAsk(strings.Split(s, "\n"))
		if !ok {
			return
		}
		if len(ask.Options) < 2 || len(ask.Options) > askMaxOptions || ask.Question == "" {
			t.Fatalf("ok with %d options, question %q", len(ask.Options), ask.Question)
		}
		for i, o := range ask.Options {
			if o.Key != strconv.Itoa(i+1) || o.Label == "" || len(o.Label) > askMaxText+len("…") {
				t.Fatalf("option %d: %+v", i, o)
			}
		}
	})
}
