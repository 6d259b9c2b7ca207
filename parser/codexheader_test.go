package parser

// Strategy: a table over the codex profile's chrome: the header's directory row that Codex
// 0.169 draws alone under ">_ OpenAI Codex" (seen in the linked real-agent test) is chrome;
// answer rows that merely mention a path are not.

import "testing"

func TestCodexHeaderDirectoryIsChrome(t *testing.T) {
	p := Builtins()["codex"]
	for _, c := range []struct {
		row    string
		chrome bool
	}{
		{"     ~/project", true},
		{"│    ~/src/agentmux   │", true},
		{"  the file is in ~/project", false},
		{"• ~/project", false},
	} {
		if got := p.IsChrome(c.row); got != c.chrome {
			t.Errorf("IsChrome(%q) = %v, want %v", c.row, got, c.chrome)
		}
	}
	got := delta(p, []string{"  >_ OpenAI Codex (v0.169.0)", "     ~/project", "", "• CODEX-1 to: hi", ""}, nil)
	if got != "CODEX-1 to: hi" {
		t.Errorf("delta %q, want the answer alone", got)
	}
}
