package parser

// The qwen profile on Qwen Code 0.24.4's screen as the agents tests drew it: notices
// opening with "●︎", the echo "> …", the answer after "◆︎", the input between two rules
// with a placeholder and two footer rows under them.

import (
	"strings"
	"testing"
)

func TestQwenTurn(t *testing.T) {
	p := ProfileFor("qwen")
	rule := strings.Repeat("─", 60)
	banner := []string{"  Tips: Add a QWEN.md file to give Qwen Code persistent project context.", "",
		"  ●\uFE0E Auto mode enabled.", "       An LLM classifier evaluates each tool call — safe actions auto-approve,",
		"       risky ones are blocked. Exit: Shift+Tab or /approval-mode default.", ""}
	input := []string{rule, ">   Type your message or @path/to/file", rule, "  ➜ project · mock", "  Auto mode (shift + tab to cycle)"}
	before := append(append([]string{}, banner...), input...)
	after := append(append([]string{}, banner...),
		"  ●\uFE0E Read context files: ~/.qwen/output-language.md", "", "  > claude (1):", "", "    CLAUDE-1 to: hello", "",
		"  ◆\uFE0E QWEN-1 to: claude (1): CLAUDE-1", "    second line", "")
	after = append(after, input...)
	w := MainTurn(p, screenAt(before, 0, len(banner)+1), screenAt(after, 0, len(after)-4), []string{"claude (1):\n\nCLAUDE-1 to: hello"})
	const want = "QWEN-1 to: claude (1): CLAUDE-1\nsecond line"
	if w.Text != want {
		t.Fatalf("words %q\nwant  %q", w.Text, want)
	}
	if st := Classify(p, "◐\uFE0E Qwen - project", nil); st != Busy {
		t.Errorf("title with a half circle: %v, want busy", st)
	}
	if st := Classify(p, "Qwen - project", nil); st != Idle {
		t.Errorf("plain title: %v, want idle", st)
	}
}
