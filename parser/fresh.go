package parser

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fresh finds where new output starts. before holds the rows a program showed when its
// baseline was taken (its screen, top to bottom), lines what the program shows now from
// that point on (the main screen's rows from the old screen top, through history, or the
// transcript accumulated from a full-screen program's frames with Merge). Fresh returns
// the index in lines of the first row that is not a repeat of before.
//
// Rows that are blank or chrome never count. The rows of before's trailing live block (the
// input box, footers) are ignored: they are redrawn anyway. Two rules skip old rows:
//   - a reprint: when the last rows before held (up to tailRows, with enough text to be
//     distinctive) appear again, in order and together, everything up to their last
//     appearance is old (Ink programs clear the screen and reprint the whole transcript).
//     The same holds for the last streamChars of their text compared without white
//     space, so a reprint at another width, wrapped differently, is found too;
//   - rows of lines (after any reprint) that appear in before in the same order are old:
//     the part of the screen that stayed, even if rows between them were erased or the
//     screen scrolled. Up to maxRedrawn rows that are not in before but lie between old
//     rows are old too (redrawn differently: a header's animation frame, a changed
//     notice); new output starts at the first row not in before after the last old one.
func Fresh(p Profile, before, lines []string) int {
	chrome := newMatcher(p.Chrome)
	lines = cleanAll(lines)
	return fresh(p, chrome, cleanAll(before), lines, chromeRows(chrome, lines))
}

// fresh is Fresh on cleaned rows with a matcher for p.Chrome.
func fresh(p Profile, chrome *matcher, before, lines []string, isChrome []bool) int {
	before = before[:liveStart(p, chrome, before)]
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
	newAt, gap := -1, 0 // the first significant row since the last old one that is not old
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
			if newAt < 0 {
				newAt = i
			}
			if gap++; gap > maxRedrawn {
				break
			}
			continue
		}
		ptr, newAt, gap = next+1, -1, 0
	}
	if newAt < 0 {
		return len(lines)
	}
	return newAt
}

// maxRedrawn is how many significant rows that are not in before may sit between rows
// that are, and still count as old: rows the program redrew differently above content
// that stayed (a logo's animation frame, a banner or notice that changed), which must
// neither count as new nor make the old rows after them look new. A new answer comes
// after all the old rows, so only a run of old rows after it could be taken for such a
// redraw; the bound keeps rows far into new output from ever matching a stale row.
const maxRedrawn = 12

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

// maxMerged bounds the transcript Merge keeps: past it by a quarter, the oldest rows
// are dropped down to maxMerged.
const maxMerged = 20000

// mergeBack is how many rows beyond twice a frame's height Merge looks back to align it.
const mergeBack = 200

// Merge adds one frame of a full-screen program to the transcript accumulated from its
// earlier frames, so text that scrolled off the top stays. screen holds the frame's
// content rows (top to bottom, the trailing live block already cut, see LiveStart). The
// frame is aligned with the transcript's end where the most rows agree (a shift means the
// content scrolled); the transcript keeps what scrolled away and takes the frame for the
// rest, since the newest frame is the truest. A frame that aligns nowhere is appended.
// Like append, Merge may reuse acc's storage: use only the returned slice afterwards.
func Merge(acc, screen []string) []string {
	screen = trimBlankEnd(screen)
	if len(screen) == 0 {
		return acc
	}
	at := len(acc) // where the frame goes: appended unless it aligns
	bestScore := 0
	// The previous frame is the end of acc, and may have been much taller than this one
	// (a logo that went away), so look back further than this frame's height.
	lo := max(0, len(acc)-2*len(screen)-mergeBack)
	for s := len(acc); s >= lo; s-- {
		eq, neq := 0, 0
		n := min(len(screen), len(acc)-s)
		for i := 0; i < n; i++ {
			a, b := acc[s+i], screen[i]
			if isBlank(a) || isBlank(b) {
				continue
			}
			if a == b {
				eq++
			} else {
				neq++
			}
		}
		if eq > 0 && eq > neq && eq-neq > bestScore {
			at, bestScore = s, eq-neq
		}
	}
	out := append(acc[:at], screen...)
	if len(out) > maxMerged+maxMerged/4 {
		out = append([]string(nil), out[len(out)-maxMerged:]...)
	}
	return out
}

// trimBlankEnd returns rows without its trailing blank rows.
func trimBlankEnd(rows []string) []string {
	n := len(rows)
	for n > 0 && isBlank(rows[n-1]) {
		n--
	}
	return rows[:n]
}
