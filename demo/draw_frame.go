package demo

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// frameDraw draws a full-screen program (the Alt, Full and Clear styles): on the alternate
// screen, the whole screen is composed from the agent's state at every change, a header at
// the top, the transcript's last rows in the middle (the mouse wheel scrolls it) and the
// input and status rows at the bottom, and written as one frame, each row at its absolute
// position. What the rows are and how a frame is written are the style's (frameLook).
type frameDraw struct {
	look frameLook
	last []string // the rows of the frame before, for a look that rewrites only the changed ones
}

// frameLook is what one full-screen style shows.
type frameLook interface {
	// modes are the terminal modes it enters at start; leave leaves them (and may say
	// goodbye on the main screen).
	modes(a *agent) string
	leave(a *agent) string
	// header is the rows at the top of the screen (left out on a screen too small).
	header(a *agent) []string
	// entryRows are the rows of a transcript entry, wrapped to the screen.
	entryRows(a *agent, e entry) []string
	// bottom is the rows at the bottom of the screen, with the cursor's position relative
	// to the first of them.
	bottom(a *agent) (rows []string, cx, cy int)
	// paint is how a frame is written.
	paint(a *agent) paint
	title(a *agent) string
	tickEvery() time.Duration
	corpusRows(a *agent) (banner, prompt string)
	fits() bool
}

// paint is how a full-screen program writes a frame.
type paint struct {
	sync  bool // inside synchronized output (CSI ? 2026 h … l)
	hide  bool // with the cursor hidden while it draws
	clear bool // clearing the whole screen first (else each row is erased as it is drawn)
	// changed writes only the rows that differ from the frame before (each run of rows
	// the terminal wraps whole, see softRow).
	changed bool
}

func (d *frameDraw) begin(a *agent) { a.out.WriteString(d.look.modes(a)) }

func (d *frameDraw) frame(a *agent) {
	if a.done {
		return
	}
	rows, cx, cy := d.compose(a)
	p := d.look.paint(a)
	if p.sync {
		a.out.WriteString(syncOn)
	}
	if p.hide {
		a.out.WriteString(hideCursor)
	}
	if p.clear {
		a.out.WriteString("\x1b[H\x1b[2J")
	}
	for i := 0; i < len(rows); {
		// A run: a row and the rows that continue it (softRow), written in one go.
		j := i + 1
		for j < len(rows) && strings.HasPrefix(rows[j], softRow) {
			j++
		}
		if p.changed && len(d.last) == len(rows) && slices.Equal(d.last[i:j], rows[i:j]) {
			i = j
			continue
		}
		if !p.clear {
			// Erase first: erasing after a full-width row would hit its last cell.
			for k := i; k < j; k++ {
				fmt.Fprintf(&a.out, cursorPosFmt, k+1, 1)
				a.out.WriteString("\x1b[2K")
			}
		}
		fmt.Fprintf(&a.out, cursorPosFmt, i+1, 1)
		for k := i; k < j; k++ {
			a.out.WriteString(strings.TrimPrefix(rows[k], softRow))
		}
		i = j
	}
	d.last = rows
	fmt.Fprintf(&a.out, cursorPosFmt, cy+1, cx+1)
	if p.hide {
		a.out.WriteString(showCursor)
	}
	if p.sync {
		a.out.WriteString(syncOff)
	}
}

// compose lays out the screen: exactly a.rows styled rows and the cursor position.
func (d *frameDraw) compose(a *agent) (rows []string, cx, cy int) {
	bottom, cx, cy := d.look.bottom(a)
	header := d.look.header(a)
	if len(header)+len(bottom)+1 > a.rows {
		header = nil
	}
	avail := max(a.rows-len(header)-len(bottom), 0)
	var lines []string
	for _, e := range a.history {
		lines = append(lines, d.look.entryRows(a, e)...)
	}
	a.scroll = min(a.scroll, max(len(lines)-avail, 0)) // only the view knows how far back is the top
	end := len(lines) - a.scroll
	view := lines[max(end-avail, 0):end]

	rows = append(rows, header...)
	rows = append(rows, view...)
	for len(rows) < a.rows-len(bottom) {
		rows = append(rows, "")
	}
	top := len(rows)
	rows = append(rows, bottom...)
	if len(rows) > a.rows { // a tiny screen: keep the composer end
		cut := len(rows) - a.rows
		rows, top = rows[cut:], top-cut
	}
	return rows, cx, max(top+cy, 0)
}

func (d *frameDraw) resized(*agent) { d.last = nil }

func (d *frameDraw) raw(a *agent, p []byte) { a.out.Write(p); d.last = nil }

func (d *frameDraw) end(a *agent) { a.out.WriteString(d.look.leave(a)) }

func (d *frameDraw) title(a *agent) string                       { return d.look.title(a) }
func (d *frameDraw) tickEvery() time.Duration                    { return d.look.tickEvery() }
func (d *frameDraw) corpusRows(a *agent) (banner, prompt string) { return d.look.corpusRows(a) }
func (d *frameDraw) fits() bool                                  { return d.look.fits() }
