package parser

// Strategy: a full-screen turn whose baseline frame was read half drawn (the text was
// typed while the program drew its first frame: its header alone, the cursor on a
// blank row mid-screen) has no input area to cut by: the row its cursor was on is no
// input. The turn's last frame, drawn at the prompt, says where the input is by its
// cursor, and an answer whose last row looks like a prompt ("❯ …") on that mid-screen
// row, above blank rows and the real input, is the answer's. Frames are read through a
// Transcript as the relay reads them.

import (
	"strings"
	"testing"
)

func TestPromptLikeRowAboveTheCursorsInputIsAnswer(t *testing.T) {
	p := Generic()
	frame := func(rows ...string) []string {
		out := append([]string{"alice · ready"}, rows...)
		for len(out) < 12 {
			out = append(out, "")
		}
		return append(out, "──────────", "› ")
	}
	half := append([]string{"alice · ready"}, make([]string, 13)...)
	tr := NewTranscript(p, half, 7)
	answer := []string{"Row one.", "Row two.", "Row three.", "Row four.", "Row five.", "Row six.", "❯ Group banner is the last row"}
	tr.Add(p, frame(answer[:3]...), -1)
	tr.Add(p, frame(answer...), 13)
	if got, want := tr.Words(p, nil).Text, strings.Join(answer, "\n"); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
