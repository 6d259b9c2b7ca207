package ui

import "testing"

// What programs choose and agentmux shows on its own rows (titles, names, notes,
// questions, notifications) loses what a terminal would obey or not show: controls, bidi
// overrides and isolates, zero-width and other format characters, line separators. Marks,
// variation selectors and the zero-width joiner of emoji stay.
func TestSanitizeDropsWhatATerminalWouldObey(t *testing.T) {
	for in, want := range map[string]string{
		"Evil\u202eRTL":               "EvilRTL",
		"a\u2066b\u2069c\u200fd":      "abcd",
		"zero\u200bwidth\ufeff":       "zerowidth",
		"line\u2028para\u2029":        "linepara",
		"\x1b]52;c;eA==\x07esc\u009b": "]52;c;eA==esc",
		"caf\u00e9 e\u0301 \u2764\ufe0f \U0001F468\u200d\U0001F469": "caf\u00e9 e\u0301 \u2764\ufe0f \U0001F468\u200d\U0001F469",
		"plain": "plain",
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%+q) = %+q, want %+q", in, got, want)
		}
	}
	if got, want := oscText("Hello \u202e desrever; done\x07"), "Hello   desrever  done "; got != want {
		t.Errorf("oscText = %+q, want %+q", got, want)
	}
}
