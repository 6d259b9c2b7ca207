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
