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
