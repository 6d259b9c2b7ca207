package parser

// InputRow returns the text in a program's input row on screen: the lowest row that opens
// (after up to two spaces) with one of the profile's echo prefixes, with the rows that
// continue it up to a blank or chrome row; "" when the profile calls that row chrome (an
// empty prompt, a placeholder). false: no row opens with an echo prefix.
//
// Rows are read cleaned, as every other reading of the parser's: a non-breaking space is
// a space. Claude Code 2.1.197 draws its input row as "❯" and a non-breaking space (its
// submitted messages, higher up, with a plain one), so a raw reading misses the input row
// and takes the last message's echo for it.
func InputRow(p Profile, screen []string) (string, bool) {
	for i := len(screen) - 1; i >= 0; i-- {
		row := clean(screen[i])
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
			text += "\n" + next
		}
		return text, true
	}
	return "", false
}
