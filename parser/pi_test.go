package parser

// The pi profile on pi 0.73.1's screen as the agents tests drew it: the echo and the
// answer each padded by one column, the input between two rules with the directory and a
// status row (tokens, context, model) under them, a spinner row while it works.

import (
	"strings"
	"testing"
)

func TestPiTurn(t *testing.T) {
	p := ProfileFor("pi")
	rule := strings.Repeat("─", 60)
	banner := []string{"fd not found. Offline mode enabled, skipping download.", "", " pi v0.73.1",
		" escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more", ""}
	before := append(append([]string{}, banner...), rule, "", rule, "~/project", "0.0%/200k (auto)                       mock")
	after := append(append([]string{}, banner...),
		" claude (1):", "", " CLAUDE-1 to: hello", "", " PI-1 to: claude (1): CLAUDE-1", "   indented code",
		"", " > a quoted line", "", rule, "", rule, "~/project", "↑20 ↓16 0.0%/200k (auto)              mock")
	w := MainTurn(p, screenAt(before, 0, len(banner)+1), screenAt(after, 0, len(after)-4), []string{"claude (1):\n\nCLAUDE-1 to: hello"})
	const want = "PI-1 to: claude (1): CLAUDE-1\n  indented code\n\n> a quoted line"
	if w.Text != want {
		t.Fatalf("words %q\nwant  %q", w.Text, want)
	}
	if st := Classify(p, "π - project", append(append([]string{}, after[:len(after)-5]...), " ⠇ Working...", "", rule, "", rule)); st != Busy {
		t.Errorf("with its spinner row pi is %v, want busy", st)
	}
	if st := Classify(p, "π - project", after); st != Idle {
		t.Errorf("without its spinner row pi is %v, want idle", st)
	}
}
