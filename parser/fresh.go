package parser

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fresh finds where new output starts by comparing text, for when rows cannot be told
// by their place (see MainTurn): the screen was cleared and reprinted, or rows moved.
// before holds the baseline's rows above its input (cleaned), lines what the program
// shows now from the same point on (cleaned, isChrome telling its chrome rows). fresh
// returns the index in lines of the first row that is not a repeat of before.
//
// Rows that are blank or chrome never count. Two rules skip old rows:
//   - a reprint: when the last rows before held (up to tailRows, with enough text to be
//     distinctive) appear again, in order and together, everything up to their last
//     appearance is old (Ink programs clear the screen and reprint the whole transcript).
//     The same holds for the last streamChars of their text compared without white
//     space, so a reprint at another width, wrapped differently, is found too;
//   - the rows at the start of lines (after any reprint) that appear in before in the
//     same order are old: the part of the screen that stayed, even if rows between them
//     were erased or the screen scrolled. New output starts at the first row that is not
//     in before: a row redrawn differently is taken as new rather than risk taking an
//     answer for old.
func fresh(chrome *matcher, before, lines []string, isChrome []bool) int {
	var sigB []string
	for _, b := range before {
		if k := sigKey(chrome, b); k != "" {
			sigB = append(sigB, k)
		}
	}
	if len(sigB) == 0 {
		return 0
	}
	keys := make([]string, len(lines))
	for i, l := range lines {
		if !isChrome[i] && !isBlank(l) {
			keys[i] = l
		}
	}
	start, ptr := 0, 0
	if at := max(lastRun(keys, tail(sigB)), lastReflowed(keys, sigB)); at >= 0 {
		start, ptr = at, len(sigB)
	}
	// Positions of each row of before, for in-order lookups.
	pos := make(map[string][]int, len(sigB))
	for i, k := range sigB {
		pos[k] = append(pos[k], i)
	}
	for i := start; i < len(lines); i++ {
		k := keys[i]
		if k == "" {
			continue
		}
		next := -1
		for _, j := range pos[k] {
			if j >= ptr {
				next = j
				break
			}
		}
		if next < 0 {
			return i
		}
		ptr = next + 1
	}
	return len(lines)
}

// tailRows is how many of before's last significant rows make up the reprint anchor:
// enough that only a reprint repeats them all in order (an agent's habitual sign-off of a
// few rows must not look like one), tailMin the fewest it may have, and tailChars how
// much text they need to hold to be trusted.
const (
	tailRows  = 12
	tailMin   = 3
	tailChars = 40
)

// tail returns the reprint anchor: the last significant rows of sig, or nil when they
// are too few or too short to be distinctive.
func tail(sig []string) []string {
	t := sig[max(0, len(sig)-tailRows):]
	if len(t) < tailMin {
		return nil
	}
	n := 0
	for _, s := range t {
		n += len(s)
	}
	if n < tailChars {
		return nil
	}
	return t
}

// streamChars is how much of before's last text, white space removed, anchors a reprint
// at another width.
const streamChars = 400

// lastReflowed returns the index just after the last row of lines where the text of
// before's last significant rows ends, compared without white space so that rows wrapped
// at another width still match; the text must end exactly at a row's end. -1 if nowhere
// or the text is too short to be distinctive.
func lastReflowed(keys, sigB []string) int {
	var parts []string
	n := 0
	for i := len(sigB) - 1; i >= 0 && n < streamChars; i-- {
		s := nonSpace(sigB[i])
		parts = append(parts, s)
		n += len(s)
	}
	slices.Reverse(parts)
	anchor := strings.Join(parts, "")
	for len(anchor) > streamChars {
		_, size := utf8.DecodeRuneInString(anchor)
		anchor = anchor[size:]
	}
	if utf8.RuneCountInString(anchor) < tailChars {
		return -1
	}
	end, _ := utf8.DecodeLastRuneInString(anchor)
	budget := reflowBudget
	for i := len(keys) - 1; i >= 0 && budget > 0; i-- {
		// Keys are trimmed: their last rune is the last rune of their text.
		if last, _ := utf8.DecodeLastRuneInString(keys[i]); keys[i] != "" && last == end && endsWith(keys, i, anchor, &budget) {
			return i + 1
		}
	}
	return -1
}

// reflowBudget bounds the characters lastReflowed compares, so very repetitive output
// (the same rows in every answer) cannot make it slow; past it no reprint is found.
const reflowBudget = 20000

// endsWith reports whether the significant rows of keys up to and including row i,
// joined without white space, end with anchor, counting the characters it compares off
// budget. It allocates nothing.
func endsWith(keys []string, i int, anchor string, budget *int) bool {
	k := len(anchor)
	for j := i; j >= 0 && k > 0; j-- {
		row := keys[j]
		for m := len(row); m > 0 && k > 0; *budget-- {
			r, n := utf8.DecodeLastRuneInString(row[:m])
			m -= n
			if unicode.IsSpace(r) {
				continue
			}
			a, an := utf8.DecodeLastRuneInString(anchor[:k])
			if a != r {
				return false
			}
			k -= an
		}
	}
	return k == 0
}

// lastRun returns the index just after the last row of the last place where the
// significant rows of keys spell run, in order and with nothing significant between
// them; -1 if nowhere or run is empty.
func lastRun(keys []string, run []string) int {
	if len(run) == 0 {
		return -1
	}
	// Walk backwards matching run from its end.
	for i := len(keys) - 1; i >= 0; i-- {
		if keys[i] != run[len(run)-1] {
			continue
		}
		j, k := i, len(run)-1
		for k >= 0 && j >= 0 {
			if keys[j] == "" {
				j--
				continue
			}
			if keys[j] != run[k] {
				break
			}
			j--
			k--
		}
		if k < 0 {
			return i + 1
		}
	}
	return -1
}

// sigKey returns the comparison key of a cleaned row: the row itself, or "" for a row
// that is blank or chrome and so never counts.
func sigKey(chrome *matcher, row string) string {
	if isBlank(row) || chrome.match(row) {
		return ""
	}
	return row
}
