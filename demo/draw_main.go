package demo

import (
	"fmt"
	"strings"
	"time"
)

// mainDraw draws a main-screen program (the Inline, Bare and Boxed styles): the transcript
// is printed once and scrolls up into the terminal's history, while the live region under
// it (a spinner row, the input, a footer) is erased and redrawn in place with relative
// cursor moves. An answer given in steps is printed a few rows at a time as it comes. On a
// resize it clears the screen and history and reprints everything. What the rows are is
// the style's (mainLook).
type mainDraw struct {
	look     mainLook
	printed  int  // transcript entries printed whole above the live region
	partRows int  // rows of the entry after them already printed (an answer coming in)
	drawn    bool // a live region is on screen
	above    int  // its rows above the cursor's row
}

// mainLook is what one main-screen style shows.
type mainLook interface {
	// modes are the terminal modes it enters at start; leave leaves them.
	modes(a *agent) string
	leave(a *agent) string
	// banner is what it prints first, and again after a resize: whole rows, each
	// ending in CR LF.
	banner(a *agent) string
	// entryRows are the rows of a transcript entry: those of an answer still coming in
	// are the first rows of the whole answer's.
	entryRows(a *agent, e entry) []string
	// live is the live region for the agent's state.
	live(a *agent) liveRegion
	title(a *agent) string
	tickEvery() time.Duration
	corpusRows(a *agent) (banner, prompt string)
}

// liveRegion is the rows redrawn in place under the transcript, and where the cursor is
// left: on row cursorRow, at column cursorCol (-1: where that row's text ends, which must
// then be the last row).
type liveRegion struct {
	rows      []string
	cursorRow int
	cursorCol int
}

func (d *mainDraw) begin(a *agent) { a.out.WriteString(d.look.modes(a) + d.look.banner(a)) }

func (d *mainDraw) frame(a *agent) {
	d.eraseLive(a)
	for d.printed < len(a.history) {
		e := a.history[d.printed]
		rows := d.look.entryRows(a, e)
		for _, r := range rows[min(d.partRows, len(rows)):] {
			a.out.WriteString(r + "\r\n")
		}
		if e.kind == entryReply && !e.done && d.printed == len(a.history)-1 {
			d.partRows = len(rows) // the rest comes with the next step
			break
		}
		d.printed, d.partRows = d.printed+1, 0
	}
	if a.done { // leaving: the transcript stays, the input goes
		return
	}
	live := d.live(a)
	a.out.WriteString(strings.Join(live.rows, "\r\n"))
	if up := len(live.rows) - 1 - live.cursorRow; up > 0 {
		fmt.Fprintf(&a.out, cursorUpFmt, up)
	}
	if live.cursorCol >= 0 {
		a.out.WriteString("\r")
		if live.cursorCol > 0 {
			fmt.Fprintf(&a.out, cursorRightFmt, live.cursorCol)
		}
	}
	d.drawn, d.above = true, live.cursorRow
}

// live is the style's live region, its top rows cut when it has more rows than the
// screen: the relative moves that erase it stay exact.
func (d *mainDraw) live(a *agent) liveRegion {
	live := d.look.live(a)
	if extra := len(live.rows) - a.rows; extra > 0 {
		live.rows, live.cursorRow = live.rows[extra:], max(live.cursorRow-extra, 0)
	}
	return live
}

// eraseLive moves to the first row of the live region and erases it to the end of the
// screen, so what is printed next takes its place.
func (d *mainDraw) eraseLive(a *agent) {
	if !d.drawn {
		return
	}
	a.out.WriteString("\r")
	if d.above > 0 {
		fmt.Fprintf(&a.out, cursorUpFmt, d.above)
	}
	a.out.WriteString(eraseBelow)
	d.drawn = false
}

func (d *mainDraw) resized(a *agent) {
	a.out.WriteString(clearAll)
	d.printed, d.partRows, d.drawn = 0, 0, false
	a.out.WriteString(d.look.banner(a))
}

func (d *mainDraw) raw(a *agent, p []byte) {
	d.eraseLive(a)
	a.out.Write(p)
}

func (d *mainDraw) end(a *agent) {
	d.eraseLive(a)
	a.out.WriteString(d.look.leave(a))
}

func (d *mainDraw) title(a *agent) string                       { return d.look.title(a) }
func (d *mainDraw) tickEvery() time.Duration                    { return d.look.tickEvery() }
func (d *mainDraw) corpusRows(a *agent) (banner, prompt string) { return d.look.corpusRows(a) }
func (d *mainDraw) fits() bool                                  { return false }

// echoRows are the rows of a message as a plain main-screen style echoes it: lead before
// its first line, blanks as wide before the others, unwrapped (the terminal wraps them),
// then a blank row.
func echoRows(lead, text string) []string {
	var rows []string
	for i, l := range strings.Split(text, "\n") {
		if i == 0 {
			rows = append(rows, lead+l)
		} else {
			rows = append(rows, strings.Repeat(" ", width(lead))+l)
		}
	}
	return append(rows, "")
}

// plainRows are the rows of an answer or a note as the plain styles show them: an
// answer's lines as they are, a blank row after it once it is whole; a note in brackets.
func plainRows(e entry) []string {
	if e.kind == entryNote {
		return []string{"[" + e.text + "]", ""}
	}
	rows := strings.Split(e.text, "\n")
	if e.done {
		rows = append(rows, "")
	}
	return rows
}

// bareLook is the Bare style: a banner and a hint, the transcript, and under it an input
// box (rules around a "❯ " row showing the draft's tail) with a footer; the cursor after
// the draft; a static spinner row above the box while busy.
type bareLook struct{}

func (bareLook) modes(*agent) string { return pasteOn }
func (bareLook) leave(*agent) string { return pasteOff }
func (bareLook) banner(a *agent) string {
	return bareBanner(a) + "\r\n   /help for help, esc to go back\r\n\r\n"
}

func bareBanner(a *agent) string { return "✻ Welcome to " + a.cfg.Name + " chat" }

func (bareLook) entryRows(_ *agent, e entry) []string {
	if e.kind == entryUser {
		return echoRows("❯ ", e.text)
	}
	return plainRows(e)
}

func (bareLook) live(a *agent) liveRegion {
	rule := strings.Repeat("─", a.cols)
	var rows []string
	if a.busy {
		rows = append(rows, "✻ Thinking… (esc to interrupt)")
	}
	draft := shownDraft(a, a.cols-3)
	rows = append(rows, rule, "❯ "+draft, rule, "  ? for shortcuts")
	return liveRegion{rows: fitRows(rows, a.cols), cursorRow: len(rows) - 3, cursorCol: min(2+width(draft), a.cols-1)}
}

func (bareLook) title(*agent) string                         { return "" }
func (bareLook) tickEvery() time.Duration                    { return 0 }
func (bareLook) corpusRows(a *agent) (banner, prompt string) { return bareBanner(a), "❯ " }

// boxedLook is the Boxed style (Ink-like): a banner, the transcript, and under it an
// input box with round corners showing a label and the draft's tail (or dots for a masked
// field), and a hint row; the cursor parked at the start of the row under them, never in
// the box; a static spinner row above the box while busy.
type boxedLook struct{}

func (boxedLook) modes(*agent) string    { return pasteOn }
func (boxedLook) leave(*agent) string    { return pasteOff }
func (boxedLook) banner(a *agent) string { return boxedBanner(a) + "\r\n\r\n" }

func boxedBanner(a *agent) string { return "* " + a.cfg.Name + " code · mock-model" }

func (boxedLook) entryRows(_ *agent, e entry) []string {
	if e.kind == entryUser {
		return echoRows("> ", e.text)
	}
	return plainRows(e)
}

func (l boxedLook) live(a *agent) liveRegion {
	rule := strings.Repeat("─", max(a.cols-2, 0))
	var rows []string
	if a.busy {
		rows = append(rows, "⠋ Working… (esc to interrupt)")
	}
	draft := shownDraft(a, a.cols-4-width(l.label(a)))
	if a.cfg.Masked {
		draft = strings.Repeat("•", len([]rune(draft)))
	}
	rows = append(rows, "╭"+rule+"╮", l.row(a, l.label(a)+draft), "╰"+rule+"╯", "  enter send · ctrl+j newline", "")
	return liveRegion{rows: fitRows(rows, a.cols), cursorRow: len(rows) - 1, cursorCol: -1}
}

// label is what the input row shows before the draft.
func (boxedLook) label(a *agent) string {
	if a.cfg.Label == "" {
		return "> "
	}
	return a.cfg.Label
}

// row is the input row showing text: "│ " text, padded, " │".
func (boxedLook) row(a *agent, text string) string {
	return "│ " + text + strings.Repeat(" ", max(0, a.cols-4-width(text))) + " │"
}

func (boxedLook) title(*agent) string      { return "" }
func (boxedLook) tickEvery() time.Duration { return 0 }
func (l boxedLook) corpusRows(a *agent) (banner, prompt string) {
	return boxedBanner(a), l.row(a, l.label(a)) // an answer may repeat the empty box's row
}

// fitRows cuts plain rows to w columns: a live row that wrapped would throw the relative
// moves out.
func fitRows(rows []string, w int) []string {
	for i, r := range rows {
		rows[i] = truncate(r, w)
	}
	return rows
}

// shownDraft is the draft as a one-row input shows it: its last line's tail, to fit room
// columns, after "[N lines] " when it has more than one.
func shownDraft(a *agent, room int) string {
	d := a.draft
	if i := strings.LastIndexByte(d, '\n'); i >= 0 {
		d = fmt.Sprintf("[%d lines] %s", strings.Count(d, "\n")+1, d[i+1:])
	}
	r := []rune(d)
	for len(r) > 0 && width(string(r)) > max(room, 0) {
		r = r[1:]
	}
	return string(r)
}
