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
