package parser

import "strings"

// A person may type into a program before it finished starting: the terminal echoes
// the keys at once, wherever the cursor is (after half a banner, inside a prompt being
// printed), and the program prints the rest of its banner and its first prompt after
// the echo, then reads the line and answers. The rows after the baseline (taken at the
// person's Enter) then open with the end of its start-up: the rest of the banner up to
// the prompt, or the rest of a prompt cut by the echo. The prompt is known from where
// the turn's output stops (the cursor's row at its end, region.next): the start-up ends
// with the first prompt printed.

// cutStartup removes from the rows of rg the end of the program's start-up output that
// came after the baseline. bl is the baseline's lines (cleaned), base the cursor's line
// then, typed what was typed. Nothing is removed when the prompt is not known, or when
// the baseline already showed the whole prompt.
func cutStartup(chrome *matcher, rg *region, bl []Line, base string, typed []string) {
	prompt := rg.next
	if prompt == "" || len(rg.rows) == 0 {
		return
	}
	// What the cursor's line showed before the echo of the typed text: the part of
	// the prompt printed before the person typed, if any.
	before, echoed := "", false
	for i := len(typed) - 1; i >= 0 && !echoed; i-- {
		if t := strings.TrimSpace(typed[i]); t != "" && strings.HasSuffix(base, t) {
			before, echoed = base[:len(base)-len(t)], true
		}
	}
	shown := clean(before)
	if echoed && shown != before && strings.HasSuffix(shown, prompt) {
		return // the whole prompt, its trailing space included, came before the echo
	}
	if echoed && shown != "" && strings.HasPrefix(prompt, shown) {
		// The prompt was cut by the echo: its rest (and its trailing space, which the
		// trimmed prompt lost) opens the first row.
		i := firstContent(rg.rows)
		if rest := prompt[len(shown):]; i >= 0 && strings.HasPrefix(rg.rows[i], rest) {
			rg.rows[i] = afterPrompt(rg.rows[i], rest)
			rg.isChrome[i] = !isBlank(rg.rows[i]) && chrome.match(rg.rows[i])
			return
		}
	}
	for _, l := range bl {
		if strings.HasPrefix(l.Text, prompt) {
			return // its first prompt came before the Enter
		}
	}
	// Nothing of the prompt before the echo (or a banner's start that opens like it):
	// the rows up to the first that opens with the prompt are the rest of the
	// start-up, and the prompt on that row too.
	for i, row := range rg.rows {
		if strings.HasPrefix(row, prompt) {
			rg.rows, rg.isChrome = rg.rows[i:], rg.isChrome[i:]
			rg.rows[0] = afterPrompt(row, prompt)
			rg.isChrome[0] = !isBlank(rg.rows[0]) && chrome.match(rg.rows[0])
			return
		}
	}
}

// afterPrompt returns row without prompt (which it opens with) and the one space a
// prompt ends with.
func afterPrompt(row, prompt string) string {
	return strings.TrimPrefix(row[len(prompt):], " ")
}

// firstContent returns the index of the first row that is not blank, -1 when none is.
func firstContent(rows []string) int {
	for i, r := range rows {
		if !isBlank(r) {
			return i
		}
	}
	return -1
}
