package demo

import (
	"fmt"
	"strings"
	"time"
)

// frameDraw draws a full-screen program (the Alt, Full and Clear styles): on the alternate
// screen, the whole screen is composed from the agent's state at every change, a header at
// the top, the transcript's last rows in the middle (the mouse wheel scrolls it) and the
// input and status rows at the bottom, and written as one frame, each row at its absolute
// position. What the rows are and how a frame is written are the style's (frameLook).
type frameDraw struct{ look frameLook }

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
	paint() paint
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
}

func (d *frameDraw) begin(a *agent) { a.out.WriteString(d.look.modes(a)) }

func (d *frameDraw) frame(a *agent) {
	if a.done {
		return
	}
	rows, cx, cy := d.compose(a)
	p := d.look.paint()
	if p.sync {
		a.out.WriteString(syncOn)
	}
	if p.hide {
		a.out.WriteString(hideCursor)
	}
	if p.clear {
		a.out.WriteString("\x1b[H\x1b[2J")
	}
	for i, r := range rows {
		fmt.Fprintf(&a.out, cursorPosFmt, i+1, 1)
		if !p.clear {
			// Erase first: erasing after a full-width row would hit its last cell.
			a.out.WriteString("\x1b[2K")
		}
		a.out.WriteString(r)
	}
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

func (d *frameDraw) resized(*agent) {}

func (d *frameDraw) raw(a *agent, p []byte) { a.out.Write(p) }

func (d *frameDraw) end(a *agent) { a.out.WriteString(d.look.leave(a)) }

func (d *frameDraw) title(a *agent) string                       { return d.look.title(a) }
func (d *frameDraw) tickEvery() time.Duration                    { return d.look.tickEvery() }
func (d *frameDraw) corpusRows(a *agent) (banner, prompt string) { return d.look.corpusRows(a) }
func (d *frameDraw) fits() bool                                  { return d.look.fits() }

// fullLook is the Full style: a header row, the transcript ("> " echoes, answers as they
// are), a status row (a static spinner while busy) and a "> " input row showing the
// draft's tail at the bottom, with the cursor after the draft; synchronized frames.
type fullLook struct{}

func (fullLook) modes(*agent) string                         { return altOn + pasteOn }
func (fullLook) leave(*agent) string                         { return pasteOff + altOff }
func (fullLook) header(a *agent) []string                    { return []string{fullBanner(a)} }
func fullBanner(a *agent) string                             { return a.cfg.Name + " · ready" }
func (fullLook) paint() paint                                { return paint{sync: true} }
func (fullLook) title(*agent) string                         { return "" }
func (fullLook) tickEvery() time.Duration                    { return 0 }
func (fullLook) fits() bool                                  { return true }
func (fullLook) corpusRows(a *agent) (banner, prompt string) { return fullBanner(a), "> " }

func (fullLook) entryRows(a *agent, e entry) []string {
	if e.kind != entryUser {
		return plainRows(e)
	}
	var rows []string
	for i, l := range strings.Split(e.text, "\n") {
		lead := "  "
		if i == 0 {
			lead = "> "
		}
		rows = append(rows, wrap(lead+l, a.cols)...)
	}
	return rows
}

func (fullLook) bottom(a *agent) (rows []string, cx, cy int) {
	status := ""
	if a.busy {
		status = "⠋ thinking… (esc to interrupt)"
	}
	draft := shownDraft(a, a.cols-3)
	return []string{status, "> " + draft}, 2 + width(draft), 1
}

// clearLook is the Clear style: a header row and a blank, the transcript (each message
// as "you: …" rows and a blank, answers cut to the screen), the "> " input row and a
// status row naming its model (a static spinner while busy); every frame clears the
// screen first, with no synchronized output.
type clearLook struct{}

func (clearLook) modes(*agent) string                         { return altOn + pasteOn }
func (clearLook) leave(*agent) string                         { return pasteOff + altOff }
func (clearLook) header(a *agent) []string                    { return []string{clearBanner(a), ""} }
func clearBanner(a *agent) string                             { return a.cfg.Name + " ── chat" }
func (clearLook) paint() paint                                { return paint{clear: true} }
func (clearLook) title(*agent) string                         { return "" }
func (clearLook) tickEvery() time.Duration                    { return 0 }
func (clearLook) fits() bool                                  { return true }
func (clearLook) corpusRows(a *agent) (banner, prompt string) { return clearBanner(a), "> " }

func (clearLook) entryRows(a *agent, e entry) []string {
	if e.kind != entryUser {
		var rows []string
		for _, r := range plainRows(e) {
			rows = append(rows, wrap(r, a.cols)...)
		}
		return rows
	}
	var rows []string
	for i, l := range strings.Split(e.text, "\n") {
		lead := "     "
		if i == 0 {
			lead = "you: "
		}
		rows = append(rows, wrap(lead+l, a.cols)...)
	}
	return append(rows, "")
}

func (clearLook) bottom(a *agent) (rows []string, cx, cy int) {
	status := fmt.Sprintf("mock-model · %d messages", len(a.inputs))
	if a.busy {
		status = "⠋ thinking… (esc to interrupt)"
	}
	draft := shownDraft(a, a.cols-3)
	return []string{"> " + draft, status}, 2 + width(draft), 0
}
