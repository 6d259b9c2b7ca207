package parser

import (
	"slices"
	"strings"
)

// Transcript gathers what a full-screen (alternate-screen) program showed from a
// baseline on, frame by frame, so an answer longer than the screen stays whole. It is
// seeded with the baseline's frame, so a transcript row's index is its place the way an
// absolute row number is on the main screen: the turn's words are found as MainTurn finds
// them, whatever the program redrew above (a header, a logo's animation frame) and
// whatever the new rows repeat (the banner, the prompt row, an earlier answer's line).
// The frames' input area (the rows from the input row down: prompt, draft, footer) is
// cut before merging. A Transcript is not safe for concurrent use.
type Transcript struct {
	rows   []string
	base   []string // the baseline frame's content rows: rows[i] held base[i] then
	old    int      // len(base): rows[:old] were on the screen at the baseline
	prompt string   // the cursor's row at the baseline ("" when not known)
	block  []string // the baseline frame's input area, trailing blank rows trimmed
	last   []string // the content rows of the last frame merged, as on the screen
	// inTop is the screen row where the baseline frame's input area began (-1: not
	// known), height the frame's height: a full-screen program keeps its input area at
	// the same place from frame to frame.
	inTop, height int
	// gap is set when the last frame merged had blank rows above its input area.
	gap bool
	// head is how many rows at the frames' top are a header that changes (a spinner, a
	// clock): learnt from a frame in which they alone changed (see animatedTop).
	head int
	// tops are where frames merged before head was learnt went into rows whole, their
	// header with them: once it is learnt, those header rows are taken out.
	tops []top
	// jumps are where the rows of frames that aligned nowhere went into rows (see
	// mergeHead): what the program drew between the frame before and such a frame
	// scrolled by more than a screenful, and the rows right above a jump may be missing
	// (a long echo drawn at once shows only its tail).
	jumps []int
	// early holds, for the baseline and each frame merged after it while the transcript
	// had no new row of words yet, what its input area showed and whether a busy marker
	// stood on it; news is set once a frame brought a new row of words. Words tells by
	// them whether the program drew no echo (see quietAfterSubmit).
	early []earlyFrame
	news  bool
}

// earlyFrame is what a transcript keeps of a frame merged before the first new row of
// words: its input area's text, white space removed and cut to maxInputKept, and whether
// the frame showed one of the profile's busy markers.
type earlyFrame struct {
	input string
	busy  bool
}

// maxInputKept bounds the input-area text a transcript keeps per frame, and
// maxInputFrames the frames it keeps it for (the last ones).
const (
	maxInputKept   = 4096
	maxInputFrames = 64
)

// keepEarly notes a frame (rows, its input area from cut on) merged while no new row of
// words came (see Transcript.early).
func (t *Transcript) keepEarly(p Profile, rows []string, cut int) {
	in := nonSpace(strings.Join(rows[cut:], ""))
	if len(in) > maxInputKept {
		in = in[len(in)-maxInputKept:]
	}
	if len(t.early) == maxInputFrames {
		t.early = append(t.early[:0], t.early[1:]...)
	}
	t.early = append(t.early, earlyFrame{input: in, busy: anyRowMatches(p.BusyMarkers, rows)})
}

// top is where a frame merged whole went into a transcript's rows, and its first row.
// appended is set when the frame went after every row the transcript had then: none of
// its rows is the baseline's, even where the transcript had shrunk below the baseline's
// length (a frame that showed the rows under its top erased).
type top struct {
	at       int
	row      string
	appended bool
}

// dropTops takes the header rows of the frames at t.tops out of t.rows, where they still
// are: they were merged whole before the header was known to change.
func (t *Transcript) dropTops() {
	slices.SortFunc(t.tops, func(a, b top) int { return a.at - b.at })
	for i := len(t.tops) - 1; i >= 0; i-- {
		at := t.tops[i].at
		if i+1 < len(t.tops) && t.tops[i+1].at == at {
			continue
		}
		n := min(t.head, len(t.rows)-at)
		if at < t.old && !t.tops[i].appended || n <= 0 || t.rows[at] != t.tops[i].row {
			continue
		}
		t.rows = slices.Delete(t.rows, at, at+n)
		for k, j := range t.jumps {
			switch {
			case j >= at+n:
				t.jumps[k] = j - n
			case j > at:
				t.jumps[k] = at
			}
		}
	}
	t.tops = nil
}

// NewTranscript starts a transcript at a baseline: screen is the frame shown then (nil
// when the program was not on the alternate screen), cursor the row the cursor was on,
// -1 when not known.
func NewTranscript(p Profile, screen []string, cursor int) *Transcript {
	t := &Transcript{inTop: -1, height: len(screen)}
	rows := dropScrollbar(cleanAll(screen))
	cut := liveStart(p, p.liveMatcher(), rows)
	if cursor >= 0 && cursor < len(rows) {
		t.prompt = rows[cursor]
		cut = inputTop(p, newMatcher(p.Chrome), p.liveMatcher(), rows, cursor)
		t.inTop = cut
	}
	t.block = trimBlankEnd(rows[cut:])
	t.keepEarly(p, rows, cut)
	t.rows = merge(nil, rows[:cut], nil)
	t.base = append([]string(nil), t.rows...)
	t.last = t.base
	t.old = len(t.rows)
	return t
}

// Add merges a frame drawn during the turn. cursor is the row its cursor is on when the
// program is known to be waiting at its prompt (the turn's last frame), -1 otherwise.
func (t *Transcript) Add(p Profile, screen []string, cursor int) {
	rows := dropScrollbar(cleanAll(screen))
	n := len(trimBlankEnd(rows))
	if t.inTop >= 0 && len(rows) == t.height && n <= t.inTop && !isBlank(t.prompt) {
		// The input area, drawn at the baseline, is not on the screen: a program that
		// clears its screen and draws it again from the top is half way through a
		// frame. Its rows may be cut short: the next frame is read instead.
		return
	}
	cut := -1
	if k := len(t.block); k > 0 && n >= k {
		cut = n - k
		for i, b := range t.block {
			if rows[cut+i] != b {
				cut = -1
				break
			}
		}
	}
	if cut < 0 && cursor >= 0 && cursor < len(rows) && t.prompt != "" && samePrompt(t.prompt, rows[cursor]) {
		cut = inputTop(p, newMatcher(p.Chrome), p.liveMatcher(), rows, cursor)
	}
	if cut < 0 {
		cut = liveStart(p, p.liveMatcher(), rows)
		if t.inTop >= 0 && len(rows) == t.height {
			// Mid-turn, the input area is where it was at the baseline, whatever it
			// shows now (what is being typed, a status row that changed): rows from
			// there down are never the answer's.
			cut = min(cut, t.inTop)
		}
		if cursor >= 0 && cursor < len(rows) && t.prompt == "" {
			// The baseline did not say where the input is (its frame was read half
			// drawn, the cursor on a blank row, or not at all);
			// the turn's last frame, drawn at the prompt, does: the rows around the
			// cursor. A row above them that looks like a prompt is the answer's.
			cut = max(cut, inputTop(p, newMatcher(p.Chrome), p.liveMatcher(), rows, cursor))
		}
	}
	chrome := newMatcher(p.Chrome)
	for cut > 0 && (isBlank(rows[cut-1]) || chrome.match(rows[cut-1])) {
		cut-- // a spinner or status row right above the input is no content either
	}
	gap := cut < len(rows) && isBlank(rows[cut])
	head := t.head
	if k, held := animatedTop(rows[:cut], t.last); k > 0 {
		// The row was drawn at the baseline too: the program redraws its top row in
		// place, whatever stood under it.
		atBase := k <= len(t.base) && !isBlank(t.base[k-1])
		if held >= 2 || atBase && held >= 1 {
			t.head = max(t.head, k)
		}
		if atBase {
			head = max(head, k)
		}
	}
	learnt := t.head > 0 && len(t.tops) > 0
	prev := len(t.rows)
	var jump int
	t.rows, jump = mergeHead(t.rows, rows[:cut], t.last, t.gap, head)
	if jump >= 0 && !slices.Contains(t.jumps, jump) {
		t.jumps = append(t.jumps, jump)
	}
	if content := trimBlankEnd(rows[:cut]); head == 0 && len(content) > 0 {
		if at := len(t.rows) - len(content); (at >= t.old || at >= prev) && slices.Equal(t.rows[at:], content) {
			t.tops = append(t.tops, top{at, content[0], at >= prev})
		}
	}
	if learnt {
		t.dropTops()
	}
	if !t.news {
		for _, r := range t.rows[min(t.old, len(t.rows)):] {
			if !isBlank(r) && !chrome.match(r) {
				t.news = true
				break
			}
		}
		if !t.news {
			t.keepEarly(p, rows, cut)
		}
	}
	t.gap = gap
	t.last = append(t.last[:0:0], rows[:cut]...)
	if over := len(t.rows) - maxMerged; over > maxMerged/4 {
		t.tops = nil
		t.rows = append([]string(nil), t.rows[over:]...)
		kept := t.jumps[:0]
		for _, j := range t.jumps {
			if j >= over {
				kept = append(kept, j-over)
			}
		}
		t.jumps = kept
		t.base = t.base[min(over, len(t.base)):]
		t.old = len(t.base)
	}
}

// Words returns the words of the rows that came after the baseline's, by the rule of
// MainTurn with a transcript row's index for its absolute row: rows compared with the
// baseline frame's at the same place, a run of changed rows followed by rows that stayed
// (a header, a logo's frame) taken as redrawn, and the rows compared by their text when
// most of the baseline's moved (a logo or notice that went away, the content moving up
// into its place). The echo of typed text where they start is left out.
func (t *Transcript) Words(p Profile, typed []string) Words {
	chrome := newMatcher(p.Chrome)
	isChrome := chromeRows(chrome, t.rows)
	var w Words
	start, redrawn, trusted := scan(chrome, indexed(t.base), indexed(t.rows), int64(t.old))
	if !trusted {
		start, w.Moved = fresh(chrome, t.base, t.rows, isChrome), true
	}
	w.Redrawn = redrawn && trusted
	rg := region{rows: t.rows[start:], isChrome: isChrome[start:], prompt: t.prompt, clipped: t.clippedAt(start, isChrome),
		noEcho: t.quietAfterSubmit(typed)}
	w.Text, _ = extract(p, chrome, rg, typed)
	return w
}

// quietAfterEcho is how many frames saying the program works, with no new row of words,
// make it one that draws no echo (see quietAfterSubmit).
const quietAfterEcho = 2

// quietAfterSubmit reports whether the program drew no echo of what was typed: after
// the last frame whose input area still showed the text typed (one of typed, its start
// or its end; the baseline when none did), at least quietAfterEcho frames showed one of
// its busy markers with no new row of words above the input before the first new row.
// A program draws its echo when it takes the message, by the time it shows it works on
// it; rows that come after it showed itself working on it with nothing new, however like
// an echo (an answer that opens by quoting the message), are its answer. False for a
// profile without busy markers, and when the first new row came with the work shown.
func (t *Transcript) quietAfterSubmit(typed []string) bool {
	if !t.news || len(typed) == 0 {
		return false
	}
	last := 0
	for i, f := range t.early {
		if showsTyped(f.input, typed) {
			last = i
		}
	}
	n := 0
	for _, f := range t.early[last+1:] {
		if f.busy {
			n++
		}
	}
	return n >= quietAfterEcho
}

// showsTyped reports whether in, an input area's text with white space removed, shows
// one of typed: its first or its last few characters (a long draft scrolls in its box).
func showsTyped(in string, typed []string) bool {
	const piece = 8
	for _, s := range typed {
		r := []rune(nonSpace(s))
		if len(r) == 0 {
			continue
		}
		n := min(piece, len(r))
		if strings.Contains(in, string(r[:n])) || strings.Contains(in, string(r[len(r)-n:])) {
			return true
		}
	}
	return false
}

// clippedAt reports whether the first row of words from start on (chrome and blank rows
// aside) came right after a jump (see Transcript.jumps): the program drew more at once
// than its screen holds, and what stands there may be the end of a longer block, its
// start never shown.
func (t *Transcript) clippedAt(start int, isChrome []bool) bool {
	k := start
	for k < len(t.rows) && (isBlank(t.rows[k]) || isChrome[k]) {
		k++
	}
	for _, j := range t.jumps {
		if j <= k && j >= 0 && allBlank(t.rows[j:k]) {
			return true
		}
	}
	return false
}

// allBlank reports whether every one of rows is blank.
func allBlank(rows []string) bool {
	for _, r := range rows {
		if !isBlank(r) {
			return false
		}
	}
	return true
}

// indexed returns rows as lines numbered by their index.
func indexed(rows []string) []Line {
	out := make([]Line, len(rows))
	for i, r := range rows {
		out[i] = Line{N: int64(i), Text: r}
	}
	return out
}

// maxMerged bounds a transcript: past it by a quarter, the oldest rows are dropped down
// to maxMerged.
const maxMerged = 20000

// mergeBack is how many rows beyond twice a frame's height merge looks back to align it.
const mergeBack = 200

// merge adds one frame of a full-screen program (its content rows, top to bottom, the
// input area already cut) to the transcript accumulated from its earlier frames, so text
// that scrolled off the top stays. The frame is aligned with the transcript's end where
// the most rows agree, counted from the first row that does (a shift means the content
// scrolled; rows above it are a header that stays put or changes); the transcript keeps what
// scrolled away and takes the frame for the rest, since the newest frame is the truest,
// except for the frame's first rows up to the first that agrees: a header drawn over the
// rows that scrolled under it, or redrawn in place, never replaces the transcript's rows.
// A frame that aligns nowhere (its content scrolled by more than a screenful) is
// appended, without its first rows that are the same as those of the frame before
// (last), on the same screen rows: a header that stays put. Like append, merge may reuse
// acc's storage: use only the returned slice afterwards.
func merge(acc, screen, last []string) []string {
	rows, _ := mergeHead(acc, screen, last, false, 0)
	return rows
}

// maxHead is the most rows a header that changes may have.
const maxHead = 2

// animatedTop returns how many rows at the top of screen changed from last in place,
// when they alone changed and none of them grew (a line streamed word by word is the
// answer's): a spinner or a clock in a header. held is how many rows with words under
// them stayed as they were. 0 when the frame is not so.
func animatedTop(screen, last []string) (k, held int) {
	screen, last = trimBlankEnd(screen), trimBlankEnd(last)
	if len(screen) != len(last) {
		return 0, 0
	}
	d := -1
	for i := range screen {
		if screen[i] != last[i] {
			d = i
		}
	}
	if d < 0 || d >= maxHead {
		return 0, 0
	}
	for i := 0; i <= d; i++ {
		if screen[i] != last[i] && (isBlank(screen[i]) || isBlank(last[i]) || strings.HasPrefix(screen[i], last[i])) {
			return 0, 0
		}
	}
	for _, r := range screen[d+1:] {
		if !isBlank(r) {
			held++
		}
	}
	return d + 1, held
}

// mergeHead is merge when gap tells whether the previous frame's rows ended in blank
// rows above its input area (a frame that aligns nowhere scrolled them away, and they
// were the answer's, a blank line, so one is kept between), and head is how many rows
// at the frame's top are a header known to change (see animatedTop): like a header that
// stays put, they never align the frame nor go into the transcript. jump is where the
// frame's rows went when it aligned nowhere and was appended though rows of the frame
// before stood under its header (they scrolled off: see Transcript.jumps), -1
// otherwise.
func mergeHead(acc, screen, last []string, gap bool, head int) (rows []string, jump int) {
	screen = trimBlankEnd(screen)
	if len(screen) == 0 {
		return acc, -1
	}
	if last != nil && slices.Equal(screen, trimBlankEnd(last)) {
		return acc, -1 // the same frame again
	}
	// The rows at the frame's top that are the previous frame's on the same screen rows
	// are a header that stays put (or content that did not move): they never align the
	// frame, whatever rows of the transcript they happen to equal (an answer may repeat
	// the header), and the transcript keeps its own rows there.
	h := 0
	for h < len(screen) && h < len(last) && screen[h] == last[h] {
		h++
	}
	if h < head {
		h = min(head, len(screen))
	}
	at := len(acc) // where the frame goes: appended unless it aligns
	bestScore := 0
	// The previous frame is the end of acc, and may have been much taller than this one
	// (a logo that went away), so look back further than this frame's height. When the
	// previous frame is known, no further than it: the frame continues what was on the
	// screen just before, and rows further back that it repeats (an answer quoting an
	// earlier one, a banner drawn again) must not pull it there.
	lo := max(0, len(acc)-2*len(screen)-mergeBack)
	if last != nil {
		lo = max(0, len(acc)-max(len(last), len(screen)))
	}
	for s := len(acc); s >= lo; s-- {
		eq, neq, blank := 0, 0, 0
		n := min(len(screen), len(acc)-s)
		for i := h; i < n; i++ {
			a, b := acc[s+i], screen[i]
			switch {
			case isBlank(a) && isBlank(b):
			case a == b:
				eq++
			case eq > 0 && (isBlank(a) || isBlank(b)):
				blank++ // a blank row against words: a weaker disagreement
			case eq > 0: // rows before the first that agrees are a header: not counted
				neq++
			}
		}
		// Blank rows count half (doubled scores): enough to tell two shifts apart that
		// the words agree on equally, not enough to outweigh a row of words.
		if score := 2*(eq-neq) - blank; eq > 0 && eq > neq && score > bestScore {
			at, bestScore = s, score
		}
	}
	if at == len(acc) && h == len(screen) {
		// The frame is the top of the one before: the rows under it were erased (a logo
		// that went away).
		if k := len(trimBlankEnd(last)) - h; k > 0 && k <= len(acc) && slices.Equal(acc[len(acc)-k:], trimBlankEnd(last)[h:]) {
			return acc[:len(acc)-k], -1
		}
		return acc, -1
	}
	if at == len(acc) && h < len(last) && h < len(screen) && !isBlank(last[h]) && strings.HasPrefix(screen[h], last[h]) {
		// Nothing moved: the rows from h on were written again in place, the first of
		// them grown (a line streamed word by word).
		if k := len(last) - h; k <= len(acc) && slices.Equal(acc[len(acc)-k:], last[h:]) {
			return append(acc[:len(acc)-k], screen[h:]...), -1
		}
	}
	if at == len(acc) {
		if gap && h < len(last) && len(acc) > 0 && !isBlank(acc[len(acc)-1]) {
			acc = append(acc, "")
		}
		jump = -1
		if h < len(last) && !allBlank(last[h:]) {
			jump = len(acc) // rows of the frame before went away: it scrolled them off
		}
		return append(acc, screen[h:]...), jump
	}
	keep := h // the frame's leading rows that disagree with acc: acc's are kept
	for keep < len(screen) && at+keep < len(acc) && (acc[at+keep] != screen[keep] || isBlank(screen[keep])) {
		keep++
	}
	if at+keep >= len(acc) || keep == len(screen) {
		keep = min(h, len(acc)-at) // nothing agrees after them: the frame is taken whole
	}
	return append(acc[:at+keep], screen[keep:]...), -1
}

// trimBlankEnd returns rows without its trailing blank rows.
func trimBlankEnd(rows []string) []string {
	n := len(rows)
	for n > 0 && isBlank(rows[n-1]) {
		n--
	}
	return rows[:n]
}
