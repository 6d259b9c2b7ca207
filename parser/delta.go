package parser

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// delta returns the words an agent wrote in lines, the text rows it printed after its
// baseline (top to bottom, soft-wrapped rows joined): the program's chrome left out, the
// trailing live block (input box, footers) cut, the echo of typed input left out (typed
// holds what the relay or the person typed into the program; its echo may be reflowed
// over several rows), answer glyphs stripped ("● Hello" becomes "Hello"), code
// indentation kept, runs of blank lines collapsed into one, and leading and trailing
// blank lines trimmed.
func delta(p Profile, lines []string, typed []string) string {
	text, _ := extractLive(p, lines, typed)
	return text
}

// extractLive is delta that also returns the index in lines of the last row that gave
// words to the text, or -1 when the text is empty.
func extractLive(p Profile, lines []string, typed []string) (string, int) {
	lines = cleanAll(lines)
	chrome := newMatcher(p.Chrome)
	return extract(p, chrome, region{rows: lines, isChrome: chromeRows(chrome, lines), live: p.liveMatcher()}, typed)
}

// region is the rows of one turn, cleaned, as extract reads them.
type region struct {
	rows     []string
	isChrome []bool
	// live, when set, cuts the trailing live block (see LiveStart): nothing else told
	// where the program's input is.
	live *matcher
	// prompt is the row the cursor was on when the turn's input was typed (its prompt),
	// "" when not known: an echo at the region's start may open with it.
	prompt string
	// noEcho is set when the echo of what was typed is known to lie before the region.
	noEcho bool
	// clipped is set when the region's first row of words came right after the screen
	// jumped by more than a screenful (see Transcript.jumps): an echo there may be
	// the end of the typed text alone, however short, its start never on the screen.
	clipped bool
	// next is the prompt the program printed where the turn's output stops (the
	// cursor's line), "" when not known. Text typed before the program printed its
	// prompt (a line-mode program quiet for a while between its answer and its prompt)
	// is echoed first, and that prompt lands right after the echo, on its last row.
	next string
	// pending is set when the program had not printed its prompt when the text was
	// typed (its input row was blank): it prints it after the echo, on the echo's last
	// row or at the start of the row after it, and its answer after the prompt.
	pending bool
}

// extract is delta on a region with a matcher for p.Chrome. The echo of typed text is
// looked for where the region starts (after a prefix the prompt row shares, or an echo
// prefix); for a profile without StrictEcho, rows opening with an echo prefix anywhere
// are input too (see Profile.StrictEcho).
func extract(p Profile, chrome *matcher, rg region, typed []string) (string, int) {
	lines, isChrome := rg.rows, rg.isChrome
	end := len(lines)
	if rg.live != nil {
		end = liveStart(p, rg.live, lines)
	}
	targets := typedTargets(typed)
	lead := prefixLeads(p)
	out := make([]string, 0, end)
	last := -1
	answerAt, answerW := -1, 0 // the current answer block's first output row, prefix width
	var blocks [][3]int        // answer blocks: first output row, end (exclusive), width
	closeBlock := func() {
		if answerAt >= 0 {
			blocks = append(blocks, [3]int{answerAt, len(out), answerW})
			answerAt = -1
		}
	}
	firstContent, firstWords := true, true
	for i := 0; i < end; i++ {
		line := lines[i]
		if isBlank(line) {
			out = append(out, "")
			continue
		}
		if isChrome[i] {
			continue
		}
		if firstContent && len(targets) > 0 && !rg.noEcho {
			if j, ok := leadingEcho(p, lines, i, rg.prompt, rg.next, targets, rg.clipped); ok {
				if !p.StrictEcho && p.echoPrefix(line) > 0 {
					j = max(j, echoBlockEnd(p, lines, isChrome, i, end))
				}
				i = typedAhead(lines, i, j, end, targets)
				firstContent = false
				continue
			}
		}
		if rg.pending && firstWords && rg.next != "" && strings.HasPrefix(line, rg.next) {
			// The prompt it printed after the echo, before its answer.
			if line = afterPrompt(line, rg.next); isBlank(line) {
				firstContent, firstWords = false, false
				continue
			}
		}
		firstContent = false
		prefixed := lead[firstByte(line)]
		if pre := p.echoPrefix(line); prefixed && pre > 0 && !p.StrictEcho {
			closeBlock()
			j, ok := matchTyped(lines, i, pre, targets, "")
			if !ok {
				j = i
			}
			i = max(j, echoBlockEnd(p, lines, isChrome, i, end))
			continue
		}
		if pre := p.answerPrefix(line); prefixed && pre > 0 {
			closeBlock()
			answerAt, answerW = len(out), width(line[:pre])
			line = line[pre:]
		} else if pre := p.leadPrefix(line); firstWords && pre > 0 && !bulleted(p, lines[i+1:end], isChrome[i+1:end], line[:pre]) {
			answerAt, answerW = len(out), width(line[:pre])
			line = line[pre:]
		}
		firstWords = false
		out = append(out, line)
		if strings.TrimSpace(line) != "" {
			last = i
		}
	}
	closeBlock()
	for _, b := range blocks {
		dedent(out[b[0]+1:b[1]], b[2])
	}
	if p.Pad > 0 {
		pad := strings.Repeat(" ", p.Pad)
		for i, r := range out {
			out[i] = strings.TrimPrefix(r, pad)
		}
	}
	return joinCollapsed(out), last
}

// bulleted reports whether one of rows, chrome aside, opens with the lead prefix and
// indentation that open the first row of a turn's words (lead): that row is a list's
// first item, and its glyph a bullet of the answer's own.
func bulleted(p Profile, rows []string, isChrome []bool, lead string) bool {
	for i, r := range rows {
		if n := p.leadPrefix(r); n > 0 && !isChrome[i] && r[:n] == lead {
			return true
		}
	}
	return false
}

// leadingEcho reports whether the rows from i, the first content row of a turn, echo one
// of the typed targets, and returns the last row of the echo. The echo may open with an
// echo prefix of p, or with any part of the prompt row it shares (the program printed
// its prompt and the typed text after it), or with nothing; a row that opens with no
// echo prefix must spell a whole target or enough of one (see prefixlessEcho). Its last
// row may end with next, the prompt the program printed after it (see region.next).
// clipped: the rows from i may be the end of an echo however short (see region.clipped).
func leadingEcho(p Profile, lines []string, i int, prompt, next string, targets []string, clipped bool) (int, bool) {
	tail := nonSpace(next)
	line := lines[i]
	best, found := i, false
	take := func(j int, ok bool) {
		if ok && (!found || j > best) {
			best, found = j, true
		}
	}
	if pre := p.echoPrefix(line); pre > 0 {
		take(matchTyped(lines, i, pre, targets, tail))
	}
	// The prompt's own text, then every shorter cut of it down to none (a prompt is short:
	// cuts past maxPrompt bytes are not tried).
	n := min(commonPrefix(prompt, line), maxPrompt)
	for n > 0 && n < len(line) && !utf8.RuneStart(line[n]) {
		n--
	}
	for n >= 0 {
		if j, ok := matchTyped(lines, i, n, targets, tail); ok && (n > 0 || prefixlessEcho(line, targets, tail)) {
			take(j, ok)
		}
		if n == 0 {
			break
		}
		_, size := utf8.DecodeLastRuneInString(line[:n])
		n -= size
	}
	// A label the program puts before what was typed ("you: ", "┃ "): the rows after it
	// must spell a whole target.
	for n, k := 0, 0; n < len(line) && k < maxLabel; k++ {
		_, size := utf8.DecodeRuneInString(line[n:])
		n += size
		if isBlank(line[n:]) {
			break
		}
		take(matchWhole(lines, i, n, targets))
	}
	// An echo drawn in a box: its top border, the rows inside its sides, its bottom.
	if isBorder(line) && i+1 < len(lines) {
		inner := make([]string, 0, len(lines)-i-1)
		for _, l := range lines[i+1:] {
			inner = append(inner, unboxed(l))
		}
		j, ok := matchWhole(inner, 0, 0, targets)
		if !ok && prefixlessEcho(inner[0], targets, "") {
			j, ok = matchTyped(inner, 0, 0, targets, "")
		}
		if j += i + 1; ok && j+1 < len(lines) && isBorder(lines[j+1]) {
			j++
		}
		take(j, ok)
	}
	// The echo that reaches furthest is the echo: a target may begin like another's middle.
	least := echoTailMin
	if clipped {
		least = 1
	}
	for _, pre := range tailPrefixes(lines, i) {
		take(matchTypedTail(lines, i, pre, targets, least))
	}
	return best, found
}

// isBorder reports whether line is a box's top or bottom border: box-drawing glyphs
// alone ("╭────╮", "└──┘").
func isBorder(line string) bool {
	n := 0
	for _, r := range strings.TrimSpace(line) {
		if r < 0x2500 || r > 0x257f {
			return false
		}
		n++
	}
	return n >= 2
}

// tailPrefixes returns the prefixes an echo whose start scrolled away may show before
// each of its lines, learnt from its first rows ("" first: none).
func tailPrefixes(lines []string, i int) []string {
	out := []string{""}
	for j := i; j < min(i+3, len(lines)); j++ {
		l := lines[j]
		for n, k := 0, 0; n < len(l) && k < maxLabel; k++ {
			_, size := utf8.DecodeRuneInString(l[n:])
			n += size
			if isBlank(l[n:]) {
				break
			}
			if !slices.Contains(out, l[:n]) {
				out = append(out, l[:n])
			}
		}
	}
	return out
}

// typedAhead returns the last row of the echo that rows i..j began, with the rows right
// after it that each spell one of the texts typed after the echoed one: lines typed
// while the program was busy, which a line-mode program's terminal echoed on rows of
// their own under the first. targets are newest first; a text typed before the echoed
// one, or the echoed one again, is never taken (an answer may quote it).
func typedAhead(lines []string, i, j, end int, targets []string) int {
	echo := nonSpace(strings.Join(lines[i:j+1], ""))
	m := slices.IndexFunc(targets, func(t string) bool { return strings.HasSuffix(echo, t) })
	if m <= 0 {
		return j
	}
	ahead := slices.Clone(targets[:m])
	for j+1 < end {
		k := slices.Index(ahead, nonSpace(lines[j+1]))
		if k < 0 {
			break
		}
		ahead = slices.Delete(ahead, k, k+1)
		j++
	}
	return j
}

// maxPrompt bounds the prompt text an echo may open with.
const maxPrompt = 200

// echoTailMin is the least text (white space aside) rows must spell to be taken for the end
// of an echo whose start scrolled away.
const echoTailMin = 24

// matchTypedTail reports whether the rows from i spell the end of one of the typed
// targets, at least least characters of it (white space aside), and returns the echo's
// last row: a full-screen program showed a long echo at once and its first rows scrolled
// away before they were seen. pre is a prefix the program shows before each line of the
// echo (see echoRest), "" for none.
func matchTypedTail(lines []string, i int, pre string, targets []string, least int) (int, bool) {
	if nonSpace(lines[i]) == "" {
		return i, false
	}
	best, found := i, false
	for _, t := range targets {
		var c []byte // the rows' text from i, white space removed
		for j := i; j < len(lines) && len(c) <= len(t); j++ {
			row := nonSpace(echoRest(lines[j], pre))
			if !strings.Contains(t, string(c)+row) {
				row = boxedRest(lines[j], row)
			}
			if row == "" {
				continue
			}
			c = append(c, row...)
			if len(c) <= len(t) && strings.HasSuffix(t, string(c)) && utf8.RuneCount(c) >= least && (!found || j > best) {
				best, found = j, true
			}
		}
	}
	return best, found
}

// commonPrefix returns the byte length of the longest common prefix of a and b that ends
// on a rune boundary.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) {
		ra, sa := utf8.DecodeRuneInString(a[n:])
		rb, sb := utf8.DecodeRuneInString(b[n:])
		if ra != rb || sa != sb {
			break
		}
		n += sa
	}
	return n
}

// chromeRows tells for each cleaned row whether it is chrome (blank rows are not).
func chromeRows(chrome *matcher, lines []string) []bool {
	out := make([]bool, len(lines))
	for i, l := range lines {
		out[i] = !isBlank(l) && chrome.match(l)
	}
	return out
}

// prefixLeads returns the first bytes of p's echo and answer prefixes: a row whose first
// byte after up to two spaces is none of them opens with no prefix.
func prefixLeads(p Profile) *[256]bool {
	var t [256]bool
	for _, l := range [][]string{p.EchoPrefixes, p.AnswerPrefixes} {
		for _, pre := range l {
			switch {
			case pre == "":
			case pre[0] == ' ': // indentation is part of this prefix: no shortcut
				for i := range t {
					t[i] = true
				}
				return &t
			default:
				t[pre[0]] = true
			}
		}
	}
	return &t
}

// firstByte returns the first byte of line after up to two spaces (0 for none).
func firstByte(line string) byte {
	for i := 0; i < len(line) && i < 3; i++ {
		if line[i] != ' ' {
			return line[i]
		}
	}
	return 0
}

// echoBlockEnd returns the index of the last row of the echo block opened at row i: the
// rows indented under it, across blank rows, up to a row that is chrome, opens an answer
// or another echo, or is not indented.
func echoBlockEnd(p Profile, lines []string, isChrome []bool, i, end int) int {
	last := i
	for j := i + 1; j < end; j++ {
		l := lines[j]
		if isBlank(l) {
			continue
		}
		if l[0] != ' ' || isChrome[j] || p.answerPrefix(l) > 0 || p.echoPrefix(l) > 0 {
			break
		}
		last = j
	}
	return last
}

// typedTargets returns the typed texts without white space, latest first, empty ones
// left out.
func typedTargets(typed []string) []string {
	var out []string
	for i := len(typed) - 1; i >= 0; i-- {
		if t := nonSpace(typed[i]); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// nonSpace returns s without white space, so text compares equal however it was
// reflowed.
func nonSpace(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f' {
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// matchTyped reports whether the rows from i (the first one after its pre bytes of echo
// prefix) spell the start of one of the typed targets, and returns the last row that
// belongs to the longest such echo. Blank rows inside the echo are part of it; a row
// ending in an ellipsis ends an echo the program cut short, a row ending in tail (white
// space removed; "" for none) after the target's last characters an echo followed by
// the program's prompt.
func matchTyped(lines []string, i, pre int, targets []string, tail string) (int, bool) {
	best, found := i, false
	for _, t := range targets {
		rest := t
		last, n := -1, 0 // n: rows with words taken
		ended := false   // the echo ended as a program cuts one (an ellipsis, its prompt)
		for j := i; j < len(lines) && rest != ""; j++ {
			row := lines[j]
			if j == i {
				row = firstRest(row, pre)
			} else {
				row = unboxed(row) // an echo drawn in a box: its rows inside the box's side
			}
			c := nonSpace(row)
			if j > i && !strings.HasPrefix(rest, c) {
				c = nonSpace(echoRest(lines[j], lines[i][:pre]))
			}
			if c == "" {
				if j == i {
					break
				}
				continue
			}
			if strings.HasPrefix(rest, c) {
				rest = rest[len(c):]
				last = j
				n++
				continue
			}
			if tail != "" && len(c) > len(rest) && c[:len(rest)] == rest && c[len(rest):] == tail {
				last, ended = j, true
				break
			}
			if cut := strings.TrimSuffix(strings.TrimSuffix(c, "…"), "..."); cut != c && cut != "" && strings.HasPrefix(rest, cut) {
				last, ended = j, true
			}
			break
		}
		// The start of a target on one row alone, words under it that are not the
		// target's, is an answer that quotes the message's first line ("> NAME (1):"),
		// not an echo.
		if last >= 0 && rest != "" && !ended && n < 2 && nextWords(lines, last) {
			last = -1
		}
		if last >= 0 && (!found || last > best) {
			best, found = last, true
		}
	}
	return best, found
}

// nextWords reports whether a row with words follows row j of lines.
func nextWords(lines []string, j int) bool {
	for _, l := range lines[j+1:] {
		if !isBlank(l) {
			return true
		}
	}
	return false
}

// maxLabel is the most runes of a label a program may show before the echo of what was
// typed.
const maxLabel = 8

// firstRest returns the first row of an echo after its pre bytes (a prefix, a label):
// the typed text, without a box's right side when the row is inside a box.
func firstRest(line string, pre int) string {
	row := line[pre:]
	if unboxed(line) != line {
		t := strings.TrimRight(row, " ")
		if r, size := utf8.DecodeLastRuneInString(t); isBoxSide(r) {
			row = t[:len(t)-size]
		}
	}
	return row
}

// boxedRest returns c, a row's text as echoRest gave it without white space, or the
// row's text inside a box's sides when it is in a box.
func boxedRest(row, c string) string {
	if u := unboxed(row); u != row {
		return nonSpace(u)
	}
	return c
}

// echoRest returns a row after the first of an echo whose first row showed pre before
// the typed text, without what the program put before the typed text on it: the same
// prefix (a program that marks every line of what it received, "you: "; a blank line
// shows as the prefix alone). A row without it (a line wrapped under the prefix,
// indented or not) is the typed text itself, or (see boxedRest) inside a box's sides.
func echoRest(row, pre string) string {
	if pre != "" && !isBlank(pre) {
		if strings.HasPrefix(row, pre) {
			return row[len(pre):]
		}
		if t := strings.TrimRight(pre, " "); strings.TrimRight(row, " ") == t {
			return ""
		}
	}
	return row
}

// matchWhole reports whether the rows from i (the first one after its pre bytes) spell
// one of the typed targets whole, and returns the echo's last row.
func matchWhole(lines []string, i, pre int, targets []string) (int, bool) {
	for _, t := range targets {
		rest := t
		for j := i; j < len(lines); j++ {
			row := lines[j]
			if j == i {
				row = firstRest(row, pre)
			}
			c := nonSpace(row)
			if j > i && !strings.HasPrefix(rest, c) {
				c = nonSpace(echoRest(row, lines[i][:pre]))
				if !strings.HasPrefix(rest, c) {
					c = boxedRest(row, c)
				}
			}
			if c == "" {
				if j == i {
					break
				}
				continue
			}
			if !strings.HasPrefix(rest, c) {
				break
			}
			if rest = rest[len(c):]; rest == "" {
				return j, true
			}
		}
	}
	return i, false
}

// prefixlessEcho reports whether line, which opens with no echo prefix, is long enough
// or complete enough to be taken for an echo of typed text rather than words that merely
// start the same way. A whole target may be followed by tail (see matchTyped).
func prefixlessEcho(line string, targets []string, tail string) bool {
	c := nonSpace(line)
	for _, t := range targets {
		if tail != "" && c == t+tail {
			return true
		}
		if strings.HasPrefix(t, c) && (c == t || utf8.RuneCountInString(c) >= 16) {
			return true
		}
	}
	return false
}

// dedent removes w leading spaces from every row of rows when every non-blank row has at
// least that many: the continuation rows of an answer, indented under its glyph.
func dedent(rows []string, w int) {
	if w <= 0 {
		return
	}
	pad := strings.Repeat(" ", w)
	for _, r := range rows {
		if r != "" && !strings.HasPrefix(r, pad) {
			return
		}
	}
	for i, r := range rows {
		if r != "" {
			rows[i] = r[w:]
		}
	}
}

// joinCollapsed joins rows with newlines, collapsing runs of blank rows into one and
// dropping leading and trailing blank rows.
func joinCollapsed(rows []string) string {
	var b strings.Builder
	n := 0
	for _, r := range rows {
		n += len(r) + 2
	}
	b.Grow(n)
	blank := false
	for _, r := range rows {
		if r == "" {
			blank = b.Len() > 0
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
			if blank {
				b.WriteByte('\n')
			}
		}
		blank = false
		b.WriteString(r)
	}
	return b.String()
}
