package keys

import "strings"

// EncodePaste returns what a terminal sends a program for pasted text. With bracketed
// paste on (DECSET 2004) the text is wrapped in ESC[200~ and ESC[201~, with every
// start or end marker inside it removed (repeatedly, so removing one cannot form
// another) so the text cannot end the paste early and inject keystrokes. Without it the
// text is sent as typed keys, with CRLF and LF turned into CR the way a terminal
// delivers a paste.
func EncodePaste(text string, bracketed bool) []byte {
	if !bracketed {
		text = strings.ReplaceAll(text, "\r\n", "\r")
		return []byte(strings.ReplaceAll(text, "\n", "\r"))
	}
	for strings.Contains(text, "\x1b[201~") || strings.Contains(text, "\x1b[200~") {
		text = strings.ReplaceAll(text, "\x1b[201~", "")
		text = strings.ReplaceAll(text, "\x1b[200~", "")
	}
	b := make([]byte, 0, len(text)+12)
	b = append(b, "\x1b[200~"...)
	b = append(b, text...)
	return append(b, "\x1b[201~"...)
}
