package parser

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Where a turn's words are on a main screen. The relay keeps, at a pane's baseline, its
// main screen's lines with their absolute row numbers (vterm's history keeps them) and
// where the cursor was: an interactive program waits for input with its cursor on its
// input row, so that row says where the next turn's output will begin and what the
// echo of typed text will open with. At the turn's end the same evidence says where the
// output stops: the input area the program draws again under its answer.
//
// The rule (MainTurn): rows are compared with the baseline's at the same absolute row.
// The turn's output starts at the first row that changed; a run of changed rows above
// the baseline's input that is followed by rows that stayed, still above the input, was
// redrawn in place (a logo's animation frame, a notice that changed) and is old. Rows at
// or below the input are never judged old by their text, so an answer that repeats the
// banner, the prompt row or an earlier answer's line is delivered whole. Only when most
// of the rows above the input moved (a clear and reprint) are old rows told from new ones
// by their text (fresh). The output stops where the input area begins again: the rows
// the baseline's input area was drawn with, found again at the bottom with the cursor
// in them (when every row that changed is in that area, the turn wrote nothing: a
// draft was shown in its input, masked or as typed); else the cursor's row when it
// opens as the baseline's did, is the last row
// of all or has chrome rows right above and below it (an input box: a baseline read
// mid-redraw shows no input row), with the chrome rows right above it; a
// cursor on a blank row under every line (a prompt not printed yet) leaves every row
// above it output; else the trailing block of chrome and empty prompts (LiveStart).
// The echo of what was typed is looked for only where the output starts; when the
// baseline was taken at a person's Enter and its input row, showing what was typed,
// stayed, the echo is that row and old.

// Line is one logical line of a terminal's main screen and history: soft-wrapped rows
// joined.
type Line struct {
	// N is the absolute number of the line's first row: rows pushed into history keep
	// their numbers, so a number is never reused.
	N int64
	// Text is the line's text, trailing blanks trimmed.
	Text string
}

// View is a program's main screen at one moment as the relay reads it: its lines from
// some absolute row on, and the cursor.
type View struct {
	// Lines are the logical lines, in order.
	Lines []Line
	// Cursor is the absolute row the cursor is on, -1 when not known.
	Cursor int64
	// Input is the text of the cursor's row (the prompt, and any draft after it).
	Input string
	// Prompt is the program's prompt as its input row last showed it with nothing
	// typed, "" when not known: a line-mode program that prints it only after the next
	// text was typed prints it after the echo, on its last row (see region.next). The
	// caller remembers it; MainTurn reads it from the baseline's view.
	Prompt string
	// Starting is set on a baseline taken before the program finished starting (a
	// person typed into it first): the rest of its start-up output, up to its first
	// prompt, may follow (see cutStartup).
	Starting bool
}

// Words is what a turn's rows held for the relay.
type Words struct {
	// Text is the words, ready to deliver; "" when there were none.
	Text string
	// Redrawn is true when rows the baseline had were drawn again differently and were
	// taken as old, not as words.
	Redrawn bool
	// Moved is true when the old rows were not where the baseline had them (a clear and
	// reprint): new rows were told from old ones by their text.
	Moved bool
}

// MainTurn returns the words a program wrote on its main screen in one turn: before is
// the screen at the baseline (its lines from the screen's top then), after the screen at
// the turn's end (its lines from the same row on), typed what was typed into the program
// meanwhile. See the rule above.
func MainTurn(p Profile, before, after View, typed []string) Words {
	chrome, live := newMatcher(p.Chrome), p.liveMatcher()
	bl, al := cleanLines(before.Lines), cleanLines(after.Lines)
	rows := make([]string, len(al))
	for i, l := range al {
		rows[i] = l.Text
	}
	isChrome := chromeRows(chrome, rows)
	in := inputOf(p, live, bl, before)
	var w Words
	start, redrawn, trusted := scan(chrome, bl, al, in.row)
	if !trusted {
		old := make([]string, in.top)
		for i := range old {
			old[i] = bl[i].Text
		}
		start, w.Moved = fresh(chrome, old, rows, isChrome), true
	}
	w.Redrawn = redrawn && trusted
	end, cut := inputEnd(p, chrome, live, al, after, in, start)
	rg := region{rows: rows[start:end], isChrome: isChrome[start:end], prompt: in.prompt}
	rg.next = before.Prompt
	if ci, ok := cursorLine(al, after); ok && cut && ci < len(al) && end <= ci {
		rg.next = al[ci].Text // the prompt it printed when it was done
	}
	rg.pending = before.Cursor >= 0 && isBlank(before.Input)
	if before.Starting {
		cutStartup(chrome, &rg, bl, in.prompt, typed)
	}
	if in.line >= 0 && in.line < len(bl) && shows(bl[in.line].Text, typed) && textAt(al, bl[in.line].N) == bl[in.line].Text {
		// The input row showed what was typed when it was submitted, and stayed: the echo
		// is there, drawn as it was typed (a line-mode program), and old. Text typed
		// after it, while the program was busy, was echoed where the output starts (a
		// line typed ahead): that echo is still looked for, the submitted text and what
		// was typed before it no longer.
		k := len(typed) - 1
		for k >= 0 && !shows(bl[in.line].Text, typed[k:k+1]) {
			k--
		}
		ahead := typed[k+1:]
		rg.noEcho, typed = len(ahead) == 0, ahead
	}
	if !cut {
		rg.live = live
	}
	w.Text, _ = extract(p, chrome, rg, typed)
	return w
}

// input is where a program took input at its baseline.
type input struct {
	top    int      // index of the first line of the input and the live block above it (len(lines) when below them all)
	line   int      // index of the cursor's line, -1 when not known
	row    int64    // the absolute row of top
	prompt string   // the cursor's line, cleaned ("" when not known)
	block  []string // the input area as drawn: the lines from its top to the last non-blank one
	area   int      // the index of the block's first line
}

// inputOf finds the input of a baseline: the cursor's line, with the chrome lines right
// above it (an input box's top rule), or the trailing live block if that starts higher;
// without a cursor the live block alone.
func inputOf(p Profile, live *matcher, bl []Line, v View) input {
	texts := make([]string, len(bl))
	for i, l := range bl {
		texts[i] = l.Text
	}
	in := input{top: liveStart(p, live, texts), line: -1}
	area := in.top // where the input area starts
	if ci, ok := cursorLine(bl, v); ok {
		area, in.line = inputTop(p, newMatcher(p.Chrome), live, texts, ci), ci
		in.top = min(in.top, area)
		in.prompt = inputText(bl, ci, v)
	}
	switch {
	case in.top < len(bl):
		in.row = bl[in.top].N
	case v.Cursor >= 0:
		in.row = v.Cursor
	case len(bl) > 0:
		in.row = bl[len(bl)-1].N + 1
	}
	in.block, in.area = append([]string(nil), trimBlankEnd(texts[area:])...), area
	return in
}

// inputTop returns the index of the first row of the input area around the cursor's row
// ci (len(rows) for a blank row under them all): the chrome rows right above it (an input
// box's top rule), or the top rule of the input box that ends rows when the cursor is in
// it or under it (see boxInput).
func inputTop(p Profile, chrome, live *matcher, rows []string, ci int) int {
	top := ci
	for top > 0 && top <= len(rows) && !isBlank(rows[top-1]) && chrome.match(rows[top-1]) {
		top--
	}
	if b := boxInput(p, chrome, live, rows, ci); b >= 0 {
		top = min(top, b)
	}
	return top
}

// boxInput returns the index of the top rule of the input box that ends rows (cleaned)
// when the cursor's row ci is in the box or under it, -1 otherwise. A program that draws
// its input in a box under its transcript need not keep its cursor on the box's prompt
// row: an Ink program parks it on a blank row under every row, and one that hides it
// and draws a reverse-video cell in the box for a cursor (Claude Code's look) may leave
// it on the hint row under the box. Under the box's bottom rule the cursor counts only
// when the box opens with a prompt (an empty one, or an echo prefix and a draft): a
// line-mode program's prompt under an answer's table, ruled above and below, is not
// under an input box.
func boxInput(p Profile, chrome, live *matcher, rows []string, ci int) int {
	top := boxAbove(chrome, rows)
	if top < 0 || ci < top {
		return -1
	}
	if ci >= len(trimBlankEnd(rows)) {
		return top
	}
	bottom := top + 1
	for bottom < len(rows) && (isBlank(rows[bottom]) || !chrome.match(rows[bottom])) {
		bottom++
	}
	first := unboxed(rows[top+1])
	if ci <= bottom || p.echoPrefix(first) > 0 || live.match(first) {
		return top
	}
	return -1
}

// The shape of an input box at the bottom of a screen: at most boxRows rows inside its
// rules, at most boxHints rows of hints under it.
const (
	boxRows  = 8
	boxHints = 2
)

// boxAbove returns the index of the top rule of the input box that ends rows (cleaned):
// a rule (a chrome row), one to boxRows rows that are not, a rule, and up to boxHints
// rows of hints under it; -1 when rows do not end so.
func boxAbove(chrome *matcher, rows []string) int {
	rule := func(i int) bool { return !isBlank(rows[i]) && chrome.match(rows[i]) }
	n := len(trimBlankEnd(rows))
	for hints := 0; hints <= boxHints && n-hints > 0; hints++ {
		if hints > 0 && (isBlank(rows[n-hints]) || rule(n-hints)) {
			break
		}
		bottom := n - hints - 1
		if !rule(bottom) {
			continue
		}
		for top := bottom - 1; top >= 0 && bottom-top-1 <= boxRows; top-- {
			if rule(top) {
				if top < bottom-1 {
					return top
				}
				break
			}
			if isBlank(rows[top]) {
				break
			}
		}
	}
	return -1
}

// cursorLine returns the index of the line the cursor of v is on; len(lines) when it is
// on a blank row below them all. false when the cursor is not known or above the lines.
func cursorLine(lines []Line, v View) (int, bool) {
	if v.Cursor < 0 || len(lines) > 0 && v.Cursor < lines[0].N {
		return 0, false
	}
	i := len(lines) - 1
	for i >= 0 && lines[i].N > v.Cursor {
		i--
	}
	switch {
	case i < 0:
		return len(lines), true
	case lines[i].N < v.Cursor && i == len(lines)-1 && isBlank(v.Input):
		// Past the last line's first row: on a row of its own when that row is blank (a
		// line's continuation rows are not).
		return len(lines), true
	}
	return i, true
}

// scan compares the lines after with the lines before at the same absolute rows and
// returns the index in after of the first line of new output (len(after) for none),
// whether a run of changed lines above the input (inputRow) was taken as redrawn, and
// whether the old lines stayed in place: false when most of before's significant lines
// above the input changed, and the caller must compare by text instead.
func scan(chrome *matcher, before, after []Line, inputRow int64) (start int, redrawn, trusted bool) {
	sig := func(s string) bool { return !isBlank(s) && !chrome.match(s) }
	// The old lines above the input: did they stay?
	stayed, changed := 0, 0
	j := 0
	for _, b := range before {
		if b.N >= inputRow {
			break
		}
		if !sig(b.Text) {
			continue
		}
		for j < len(after) && after[j].N < b.N {
			j++
		}
		if j < len(after) && after[j].N == b.N && after[j].Text == b.Text {
			stayed++
		} else {
			changed++
		}
	}
	trusted = stayed >= changed
	start, j = -1, 0
	for i, a := range after {
		for j < len(before) && before[j].N < a.N {
			j++
		}
		b := ""
		if j < len(before) && before[j].N == a.N {
			b = before[j].Text
		}
		switch {
		case a.Text == b:
			if start >= 0 && a.N < inputRow && sig(a.Text) {
				start, redrawn = -1, true // the changed lines above were drawn again in place
			}
		case sig(a.Text) || sig(b):
			if start < 0 {
				start = i
			}
		}
	}
	if start < 0 {
		start = len(after)
	}
	return start, redrawn, trusted
}

// inputEnd returns where a turn's output in after stops: the input area of the baseline
// drawn again at the bottom, else the cursor's line when it is the baseline's prompt
// again or the last line of all, with the chrome lines right above it, never before
// start. cut is false when neither was found: the caller cuts the live
// block by the profile's patterns.
func inputEnd(p Profile, chrome, live *matcher, after []Line, v View, in input, start int) (end int, cut bool) {
	n := len(after)
	for n > 0 && isBlank(after[n-1].Text) {
		n--
	}
	if k := len(in.block); k > 0 && n-k >= 0 {
		same := true
		for i, b := range in.block {
			if a := after[n-k+i].Text; a != b && !(boxSide(b) && samePrompt(b, a)) {
				same = false
				break
			}
		}
		// The block is the input area drawn again only if the cursor is in it as it was:
		// rows the answer ends with that equal it, the cursor on the row under them and
		// the prompt not printed yet, are the answer's.
		ci, ok := cursorLine(after, v)
		inBlock := in.line >= in.area && in.line < in.area+k
		if same && (!ok || !inBlock || ci >= n-k && ci < n) {
			// Output that would start inside the input area is the area drawn again (a
			// draft shown in it, masked or not): no output at all.
			return max(n-k, start), true
		}
	}
	ci, ok := cursorLine(after, v)
	if ok && hasBox(chrome, in.block) {
		// The baseline's input was a box (read half drawn, showing a draft, or with
		// another footer under it), and the cursor is in or under the box drawn at the
		// bottom: that box is the input.
		texts := make([]string, n)
		for i := range texts {
			texts[i] = after[i].Text
		}
		if top := boxInput(p, chrome, live, texts, ci); top >= 0 {
			return max(top, start), true // nothing inside the box is output
		}
	}
	if ok && ci >= n && in.line >= 0 && in.line == in.area && len(in.block) == 0 {
		// The baseline showed no input at all: its cursor on a blank row under every
		// line (an input area erased to be drawn again, read before it was). An input
		// box drawn at the bottom since, the cursor under it, is the input, not the
		// answer's last rows: an answer's ruled table has columns inside.
		texts := make([]string, n)
		for i := range texts {
			texts[i] = after[i].Text
		}
		if top := boxInput(p, chrome, live, texts, ci); top >= 0 && inputBox(p, chrome, live, texts[top:]) {
			return max(top, start), true
		}
	}
	switch {
	case !ok:
		return len(after), false
	case ci >= n && n > 0 && v.Cursor > after[n-1].N:
		// On a blank row below every line: the input goes there, and the rows above,
		// even one that opens like a draft in an input row, are output.
		return len(after), true
	case ci >= n:
		return len(after), false
	}
	// The program is back at its prompt (its row opens as the baseline's did), or the
	// cursor sits on the last line of all: a program waiting for input keeps its cursor
	// where the input goes, so the bottom row it is on is its input row (a prompt the
	// baseline did not show, such as when the baseline was taken after the echo of an
	// Enter moved the cursor to a blank row), never the answer's.
	if ci == n-1 || boxed(chrome, after, ci) || in.prompt != "" && samePrompt(in.prompt, inputText(after, ci, v)) {
		for ci > start && !isBlank(after[ci-1].Text) && chrome.match(after[ci-1].Text) {
			ci--
		}
		if ci >= start {
			return ci, true
		}
	}
	return len(after), false
}

// inputBox reports whether box (an input box's rows from its top rule on, see boxAbove)
// looks like an input box and not like a table an answer ended with: its first row
// inside opens with a prompt, or every row inside is one cell, a side on each end and
// none between.
func inputBox(p Profile, chrome, live *matcher, box []string) bool {
	first := unboxed(box[1])
	if p.echoPrefix(first) > 0 || live.match(first) {
		return true
	}
	for _, row := range box[1:] {
		if !isBlank(row) && chrome.match(row) {
			return true // the bottom rule: every row above it was one cell
		}
		if !boxSide(row) || strings.ContainsFunc(unboxed(row), isBoxSide) {
			return false
		}
	}
	return false
}

// hasBox reports whether an input area as drawn may be a box: it opens with a rule, or
// a row inside a box (a box read half drawn).
func hasBox(chrome *matcher, block []string) bool {
	return len(block) > 0 && (boxSide(block[0]) || !isBlank(block[0]) && chrome.match(block[0]))
}

// boxSide reports whether row opens with the side of a box ("│ > draft │"): a row inside
// an input box, which shows what is typed in it, so the same box drawn again may show
// other words after the same prompt.
func boxSide(row string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(row, " "))
	return isBoxSide(r)
}

// boxed reports whether the line ci (the cursor's) sits in an input box: a chrome line
// (a rule) right above it and right below it. A program draws under its cursor only in
// its live area, so such a line is its input row, whatever the baseline's cursor showed
// (a baseline read while the program was redrawing its box has a half-drawn row there).
func boxed(chrome *matcher, lines []Line, ci int) bool {
	rule := func(i int) bool {
		return i >= 0 && i < len(lines) && !isBlank(lines[i].Text) && chrome.match(lines[i].Text)
	}
	return rule(ci-1) && rule(ci+1)
}

// inputText returns the text of the line the cursor is on (ci, from cursorLine): the
// whole logical line, however many rows a long draft wrapped it over.
func inputText(lines []Line, ci int, v View) string {
	if ci < len(lines) {
		return lines[ci].Text
	}
	return clean(v.Input)
}

// samePrompt reports whether the cursor's row at a turn's end looks like the one at its
// baseline: the program is back at its prompt. The rows must open alike (a prompt's
// glyph or name); a placeholder or hint after it may differ.
func samePrompt(before, now string) bool {
	if before == now {
		return true
	}
	n := commonPrefix(before, now)
	return n > 0 && !isBlank(before[:n])
}

// shows reports whether row holds one of the typed texts (white space aside).
func shows(row string, typed []string) bool {
	c := nonSpace(row)
	for _, t := range typedTargets(typed) {
		if strings.Contains(c, t) {
			return true
		}
	}
	return false
}

// textAt returns the text of the line of lines that starts at absolute row n, "" if none.
func textAt(lines []Line, n int64) string {
	i := sort.Search(len(lines), func(i int) bool { return lines[i].N >= n })
	if i < len(lines) && lines[i].N == n {
		return lines[i].Text
	}
	return ""
}

// cleanLines returns lines with their text cleaned (see clean), in a new slice.
func cleanLines(lines []Line) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		out[i] = Line{N: l.N, Text: clean(l.Text)}
	}
	return out
}
