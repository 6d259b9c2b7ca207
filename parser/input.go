package parser

import (
	"strings"
	"unicode/utf8"
)

// InputRow returns the text in a program's input row on screen: the lowest row that opens
// (after up to two spaces) with one of the profile's echo prefixes, with the rows that
// continue it up to a blank or chrome row; "" when the profile calls that row chrome (an
// empty prompt, a placeholder). false: no row opens with an echo prefix.
//
// Rows are read cleaned, as every other reading of the parser's: a non-breaking space is
// a space. Claude Code 2.1.197 draws its input row as "❯" and a non-breaking space (its
// submitted messages, higher up, with a plain one), so a raw reading misses the input row
// and takes the last message's echo for it.
//
// A row inside a box ("│ > draft │", as Ink programs draw their input) is read without
// the box's sides.
func InputRow(p Profile, screen []string) (string, bool) {
	for i := len(screen) - 1; i >= 0; i-- {
		row := unboxed(clean(screen[i]))
		n := p.echoPrefix(row)
		if n == 0 {
			continue
		}
		if p.IsChrome(row) {
			return "", true
		}
		text := row[n:]
		for _, next := range screen[i+1:] {
			next = clean(next)
			if isBlank(next) || p.IsChrome(next) {
				break
			}
			if next = unboxed(next); isBlank(next) {
				break
			}
			text += "\n" + next
		}
		return text, true
	}
	return "", false
}

// unboxed returns row without the sides of a box around it ("│ > draft │" gives
// "> draft"), trailing blanks trimmed; row itself when no box side opens it.
func unboxed(row string) string {
	t := strings.TrimLeft(row, " ")
	r, size := utf8.DecodeRuneInString(t)
	if !isBoxSide(r) {
		return row
	}
	t = strings.TrimRight(t[size:], " ")
	if r2, size2 := utf8.DecodeLastRuneInString(t); isBoxSide(r2) {
		t = t[:len(t)-size2]
	}
	return strings.TrimRight(strings.TrimPrefix(t, " "), " ")
}

// isBoxSide reports whether r is a glyph programs draw a box's side with.
func isBoxSide(r rune) bool {
	return r == '│' || r == '┃' || r == '║' || r == '▌' || r == '|'
}
