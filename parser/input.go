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
// the box's sides. Zero-width spaces are dropped: Qwen Code draws one as its cursor at the
// end of a draft. A profile with InputBottom finds the input by its edges instead (see
// Profile.InputBottom).
func InputRow(p Profile, screen []string) (string, bool) {
	if len(p.InputBottom) > 0 {
		return edgedInput(p, screen)
	}
	i, end, ok := echoInputRows(p, screen)
	if !ok {
		return "", false
	}
	row := unboxed(inputClean(screen[i]))
	if p.IsChrome(row) {
		return "", true
	}
	text := row[p.echoPrefix(row):]
	for _, next := range screen[i+1 : end] {
		text += "\n" + unboxed(inputClean(next))
	}
	return text, true
}

// inputRows returns the rows of screen that hold the program's input as InputRow reads
// it, screen[top:end] (a box's edges and its agent row aside); false when InputRow
// finds none.
func inputRows(p Profile, screen []string) (top, end int, ok bool) {
	if len(p.InputBottom) > 0 {
		return edgedRows(p, screen)
	}
	return echoInputRows(p, screen)
}

// echoInputRows returns the rows of the input of a profile without InputBottom: the
// lowest row that opens with an echo prefix, with the rows that continue it up to a
// blank or chrome row.
func echoInputRows(p Profile, screen []string) (top, end int, ok bool) {
	for i := len(screen) - 1; i >= 0; i-- {
		row := unboxed(inputClean(screen[i]))
		if p.echoPrefix(row) == 0 {
			continue
		}
		end = i + 1
		if p.IsChrome(row) {
			return i, end, true
		}
		for _, next := range screen[i+1:] {
			next = inputClean(next)
			if isBlank(next) || p.IsChrome(next) || isBlank(unboxed(next)) {
				break
			}
			end++
		}
		return i, end, true
	}
	return 0, 0, false
}

// edgedInput reads the input of a profile with InputBottom: the rows edgedRows finds.
func edgedInput(p Profile, screen []string) (string, bool) {
	top, bottom, ok := edgedRows(p, screen)
	if !ok {
		return "", false
	}
	var rows []string
	for _, row := range screen[top:bottom] {
		rows = append(rows, unboxed(inputClean(row)))
	}
	for len(rows) > 0 && isBlank(rows[0]) {
		rows = rows[1:]
	}
	for len(rows) > 0 && isBlank(rows[len(rows)-1]) {
		rows = rows[:len(rows)-1]
	}
	indent := -1
	for _, r := range rows {
		if !isBlank(r) {
			n := len(r) - len(strings.TrimLeft(r, " "))
			if indent < 0 || n < indent {
				indent = n
			}
		}
	}
	for i, r := range rows {
		rows[i] = strings.TrimRight(r[min(indent, len(r)):], " ")
	}
	text := strings.Join(rows, "\n")
	if matchAny(p.InputPlaceholders, text) {
		return "", true
	}
	return text, true
}

// edgedRows returns the rows of the input of a profile with InputBottom,
// screen[top:bottom]: the rows between the lowest row matching InputBottom and the row
// above them matching InputTop (or a blank row). False when no row matches InputBottom,
// or InputTop is set and no row above matches it.
func edgedRows(p Profile, screen []string) (top, bottom int, ok bool) {
	bottom = -1
	for i := len(screen) - 1; i >= 0; i-- {
		if matchAny(p.InputBottom, inputClean(screen[i])) {
			bottom = i
			break
		}
	}
	if bottom < 0 {
		return 0, 0, false
	}
	top = bottom
	for i := bottom - 1; i >= 0; i-- {
		row := inputClean(screen[i])
		if len(p.InputTop) > 0 && matchAny(p.InputTop, row) || len(p.InputTop) == 0 && isBlank(row) {
			break
		}
		if i == 0 && len(p.InputTop) > 0 {
			return 0, 0, false // no top edge on screen: not the input
		}
		top = i
	}
	return top, bottom, true
}

// inputClean returns row cleaned (see clean) without zero-width spaces.
func inputClean(row string) string {
	if strings.ContainsRune(row, '\u200b') {
		row = strings.ReplaceAll(row, "\u200b", "")
	}
	return clean(row)
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
