package main

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentmux/agentmux/ui"
)

// What agentmux prints for a person is text agents and other programs wrote (names,
// message bodies, states). A terminal obeys control characters in it: ESC sequences set
// the clipboard (OSC 52) or the title, move the cursor, hide text. So every human-readable
// output shows them instead, by one rule:
//
//   - a byte below 0x20 or 0x7f (DEL), and a byte that is not UTF-8, is written \xHH
//     (ESC is \x1b);
//   - a C1 control (U+0080–U+009F), a format character (bidi overrides, zero-width
//     space, tags; the zero-width joiner of emoji is kept) and the line and paragraph
//     separators are written \uHHHH (\U00HHHHHH past U+FFFF);
//   - in a message body, newline and tab stay as they are (the text stays readable); in
//     a one-line field (a name, a state) they are \x0a and \x09 like the others.
//
// A backslash is left as it is. --json output is JSON, escaped the same way (safeJSON).

// visible returns s with what a terminal would obey instead of show made visible; lines
// keeps newlines and tabs.
func visible(s string, lines bool) string {
	if !needsEscape(s, lines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && hidden(r, lines):
			fmt.Fprintf(&b, `\x%02x`, r)
		case hidden(r, lines) && r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		case hidden(r, lines):
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// visibleStyled is visible (lines kept) for a screen captured with --escapes: its SGR
// sequences (ESC [ parameters m), which the server wrote for the cells' styles, pass;
// the cells' text, the pane's program's, is made visible as any other.
func visibleStyled(s string) string {
	var b strings.Builder
	for s != "" {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			b.WriteString(visible(s, true))
			break
		}
		b.WriteString(visible(s[:i], true))
		j := i + 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
			j++
		}
		if j < len(s) && s[j] == 'm' {
			b.WriteString(s[i : j+1])
		} else {
			j = i // no SGR: the ESC is shown
			b.WriteString(visible(s[i:i+1], true))
		}
		s = s[j+1:]
	}
	return b.String()
}

// line is visible for a one-line field.
func line(s string) string { return visible(s, false) }

// hidden reports whether a terminal would obey r or show nothing for it (ui.Invisible,
// the screen's rule too); lines keeps newline and tab.
func hidden(r rune, lines bool) bool {
	if r == '\n' || r == '\t' {
		return !lines
	}
	return ui.Invisible(r)
}

// needsEscape reports whether visible would change s.
func needsEscape(s string, lines bool) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			rest := s[i:]
			if !utf8.ValidString(rest) {
				return true
			}
			return strings.IndexFunc(rest, func(r rune) bool { return hidden(r, lines) }) >= 0
		} else if hidden(rune(c), lines) {
			return true
		}
	}
	return false
}

// safeJSON returns JSON text j with the characters a terminal would obey escaped as
// \uHHHH: Go's encoder already escapes C0 controls, U+2028 and U+2029, but writes DEL,
// C1 controls and format characters as they are. Bytes that are not UTF-8 become
// \ufffd. Outside strings JSON has only printable ASCII and whitespace, which stay.
func safeJSON(j []byte) []byte {
	clean := true
	for i := 0; i < len(j); i++ {
		if j[i] >= 0x7f || j[i] < 0x20 && j[i] != '\n' && j[i] != '\t' && j[i] != '\r' {
			clean = false
			break
		}
	}
	if clean {
		return j
	}
	out := make([]byte, 0, len(j)+16)
	for i := 0; i < len(j); {
		r, size := utf8.DecodeRune(j[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case r == '\n' || r == '\t' || r == '\r':
			out = append(out, j[i:i+size]...)
		case hidden(r, false) && r <= 0xffff:
			out = fmt.Appendf(out, `\u%04x`, r)
		case hidden(r, false):
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = append(out, j[i:i+size]...)
		}
		i += size
	}
	return out
}
