package parser

// Strategy: the echo of what the relay typed, as programs no profile knows show it, on
// the rows a turn's words are read from: each line behind the same prefix (learnt from
// the first row), a blank line shown as the prefix alone, long lines word-wrapped under
// it; the first line alone behind it; in a box. Each must leave the answer alone, and an
// answer that quotes the message's first line is not an echo.

import "testing"

func TestEchoBehindAPrefix(t *testing.T) {
	typed := []string{"bob (2):\n\nbob turn 1: I read 55 words and wrote them down in order, one line each.\n\nDone."}
	for _, tc := range []struct {
		name string
		rows []string
		want string
	}{
		{"every line", []string{
			"you: bob (2):", "you:", "you: bob turn 1: I read 55 words and wrote", "them down in order, one line each.", "you:", "you: Done.",
			"", "alice: noted, thanks.",
		}, "alice: noted, thanks."},
		{"every line, blank lines dropped", []string{
			"[me] bob (2):", "[me] bob turn 1: I read 55 words and wrote", "them down in order, one line each.", "[me] Done.",
			"", "Noted.",
		}, "Noted."},
		{"first line", []string{
			"user ▸ bob (2):", "", "       bob turn 1: I read 55 words and", "       wrote them down in order, one line", "       each.", "", "       Done.",
			"", "Noted.",
		}, "Noted."},
		{"box", []string{
			"╭──────────────────────────────────────────╮",
			"│ bob (2):                                 │",
			"│                                          │",
			"│ bob turn 1: I read 55 words and wrote    │",
			"│ them down in order, one line each.       │",
			"│                                          │",
			"│ Done.                                    │",
			"╰──────────────────────────────────────────╯",
			"", "Noted.",
		}, "Noted."},
		{"start scrolled away", []string{
			"them down in order, one line each.", "you:", "you: Done.", "", "Noted.",
		}, "Noted."},
		{"an answer quoting the first line", []string{
			"> bob (2):", "Noted, bob.",
		}, "> bob (2):\nNoted, bob."},
	} {
		if got := delta(Generic(), tc.rows, typed); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A program that draws no echo and opens its answer by quoting the message behind "> "
// shows rows an echo's, row for row; only when they came tells them apart. Here the
// message left the input and the program showed itself working (its busy marker in the
// header) for two frames with nothing new before the quote came: the quote is its
// answer's. A program that draws its echo in the frame that empties its input, as it
// shows itself working, has that echo left out as before.
func TestQuoteAfterTheWorkShownIsNoEcho(t *testing.T) {
	g := Generic()
	const msg = "what is in the relay log?"
	frame := func(head, input string, body ...string) []string {
		rows := append([]string{head}, body...)
		for len(rows) < 8 {
			rows = append(rows, "")
		}
		return append(rows, "────────────────────", "› "+input)
	}
	busy := func(spin string) string { return spin + " bob · working (0s · esc to interrupt)" }
	answer := []string{"> " + msg, "The log holds the turns."}

	tr := NewTranscript(g, frame("bob · ready", msg, "An earlier answer."), 9)
	tr.Add(g, frame(busy("⠋"), "", "An earlier answer."), -1)
	tr.Add(g, frame(busy("⠙"), "", "An earlier answer."), -1)
	tr.Add(g, frame(busy("⠹"), "", append([]string{"An earlier answer."}, answer...)...), -1)
	tr.Add(g, frame("bob · ready", "", append([]string{"An earlier answer."}, answer...)...), 9)
	if got, want := tr.Words(g, []string{msg}).Text, "> "+msg+"\nThe log holds the turns."; got != want {
		t.Errorf("no echo drawn: words %q, want %q", got, want)
	}

	tr = NewTranscript(g, frame("bob · ready", msg, "An earlier answer."), 9)
	echoed := []string{"An earlier answer.", "> " + msg, ""}
	tr.Add(g, frame(busy("⠋"), "", echoed...), -1)
	tr.Add(g, frame(busy("⠙"), "", echoed...), -1)
	tr.Add(g, frame(busy("⠹"), "", append(echoed, "The log holds the turns.")...), -1)
	tr.Add(g, frame("bob · ready", "", append(echoed, "The log holds the turns.")...), 9)
	if got, want := tr.Words(g, []string{msg}).Text, "The log holds the turns."; got != want {
		t.Errorf("echo drawn as it took the message: words %q, want %q", got, want)
	}
}
