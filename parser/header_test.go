package parser

// Strategy: a full-screen program's header that changes while it works (a spinner, its
// seconds) is redrawn over the same row every frame; frames of a turn are merged into a
// Transcript as the relay does, and the header's texts must not reach the turn's words,
// whether its content was quiet or scrolled as the header turned.

import (
	"strings"
	"testing"
)

func TestSpinnerHeaderIsNoAnswer(t *testing.T) {
	p := Generic()
	frame := func(head string, rows ...string) []string {
		out := append([]string{head}, rows...)
		for len(out) < 8 {
			out = append(out, "")
		}
		return append(out, "────────", "› ")
	}
	tr := NewTranscript(p, frame("bob · ready"), 9)
	tr.Add(p, frame("⠋ bob · working (0s)", "line one of the answer"), -1)
	tr.Add(p, frame("⠙ bob · working (0s)", "line one of the answer"), -1)
	tr.Add(p, frame("⠹ bob · working (0s)", "line one of the answer", "line two"), -1)
	tr.Add(p, frame("⠸ bob · working (1s)", "line one of the answer", "line two"), -1)
	tr.Add(p, frame("bob · ready", "line one of the answer", "line two", "line three"), 9)
	got := tr.Words(p, nil).Text
	if want := "line one of the answer\nline two\nline three"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if strings.Contains(got, "working") {
		t.Fatalf("the header reached the words: %q", got)
	}
}

// The header drawn at the baseline turns into a spinner in the same frame that shows
// the answer's first row, one row alone under it: the spinner turning over that one row
// is enough to know the top row for a header, and an answer whose first row repeats the
// idle header's text keeps it once.
func TestHeaderOverOneRowIsLearnt(t *testing.T) {
	p := Generic()
	frame := func(head string, rows ...string) []string {
		out := append([]string{head}, rows...)
		for len(out) < 8 {
			out = append(out, "")
		}
		return append(out, "────────", "› ")
	}
	tr := NewTranscript(p, frame("bob · ready"), 9)
	tr.Add(p, frame("⠸ bob · working (0s)", "bob · ready"), -1)
	tr.Add(p, frame("⠼ bob · working (0s)", "bob · ready"), -1)
	tr.Add(p, frame("bob · ready", "bob · ready", "line two of the answer", "$ line three"), 9)
	if got, want := tr.Words(p, nil).Text, "bob · ready\nline two of the answer\n$ line three"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// The transcript shrank below the baseline's length (a frame showed the rows under its
// top erased), then a frame that scrolled by more than a screen, its spinner header
// turning, was appended whole: once the header is learnt, that frame's header row is
// taken out too, and the echo under it is where the turn's words start.
func TestHeaderOfAFrameAppendedAfterTheTranscriptShrank(t *testing.T) {
	p := Generic()
	frame := func(head string, rows ...string) []string {
		out := append([]string{head}, rows...)
		for len(out) < 10 {
			out = append(out, "")
		}
		return append(out, "────────", "› ")
	}
	old := []string{"one", "two", "three", "four", "five", "six", "seven", "eight"}
	tr := NewTranscript(p, frame("bob · ready", old...), 11)
	tr.Add(p, frame("bob · ready", old[:5]...), -1)
	turn := []string{"you: hello there", "", "Answer row one.", "Answer row two."}
	tr.Add(p, frame("⠋ bob · working (0s)", turn...), -1)
	tr.Add(p, frame("⠙ bob · working (0s)", turn...), -1)
	tr.Add(p, frame("bob · ready", append(turn, "Answer row three.")...), 11)
	if got, want := tr.Words(p, []string{"hello there"}).Text, "Answer row one.\nAnswer row two.\nAnswer row three."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
