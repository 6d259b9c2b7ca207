package demo

import (
	"fmt"
	"strings"
	"time"
)

// inlineDraw draws like Claude Code's classic renderer: on the main screen, the transcript
// is printed once and scrolls up into the terminal's history, while the live region below
// it (spinner row, input box, footer) is erased and redrawn in place with relative cursor
// moves. The hardware cursor stays hidden; the input position is a reverse-video cell. On a
// resize it clears the screen and history and reprints everything, as Claude Code does.
type inlineDraw struct {
	printed  int // transcript entries already printed above the live region
	liveRows int // rows of the live region on screen; the cursor is on its last row
}

// spinGlyphs is Claude Code's busy spinner.
var spinGlyphs = []string{"·", "✢", "*", "✶", "✻", "✽"}

func (d *inlineDraw) begin(a *agent) {
	a.out.WriteString(hideCursor + pasteOn + focusOn)
	d.banner(a)
	a.kittyAsked = true // Claude Code asks, and pushes flags when the terminal knows them
	a.out.WriteString(kittyQuery)
}

func (d *inlineDraw) banner(a *agent) {
	rows := []string{
		color(colorAccent, " ╭─────╮") + "   " + bold(a.cfg.name) + color(colorGrey, " · simulated agent"),
		color(colorAccent, " │ o o │") + "   " + color(colorGrey, "agentmux demo · no model, no network"),
		color(colorAccent, " ╰─────╯") + "   " + color(colorGrey, "type a message and press Enter"),
	}
	plain := []string{
		" ╭─────╮   " + a.cfg.name + " · simulated agent",
		" │ o o │   agentmux demo · no model, no network",
		" ╰─────╯   type a message and press Enter",
	}
	for i, r := range rows {
		if width(plain[i]) > a.cols {
			r = truncate(plain[i], a.cols)
		}
		a.out.WriteString(r + "\r\n")
	}
	a.out.WriteString("\r\n")
}

func (d *inlineDraw) frame(a *agent) {
	d.eraseLive(a)
	for ; d.printed < len(a.history); d.printed++ {
		for _, row := range inlineEntry(a.history[d.printed], a.cols) {
			a.out.WriteString(row + "\r\n")
		}
	}
	if a.done { // leaving: the transcript stays, the input box goes
		return
	}
	rows := d.live(a)
	a.out.WriteString(strings.Join(rows, "\r\n"))
	d.liveRows = len(rows)
}

// eraseLive moves to the first row of the live region and erases it to the end of the
// screen, so what is printed next takes its place.
func (d *inlineDraw) eraseLive(a *agent) {
	if d.liveRows == 0 {
		return
	}
	a.out.WriteString("\r")
	if d.liveRows > 1 {
		fmt.Fprintf(&a.out, cursorUpFmt, d.liveRows-1)
	}
	a.out.WriteString(eraseBelow)
	d.liveRows = 0
}

// inlineEntry renders one transcript entry as rows followed by a blank row.
func inlineEntry(e entry, cols int) []string {
	var rows []string
	text := wrap(e.text, max(cols-2, 1))
	for i, t := range text {
		switch e.kind {
		case entryUser: // the echo of the prompt, on a grey band across the row
			lead := "  "
			if i == 0 {
				lead = color(colorGrey, "❯ ")
			}
			rows = append(rows, bgColor(colorEchoBG, lead+padRight(t, max(cols-2, 0))))
		case entryReply:
			lead := "  "
			if i == 0 {
				lead = "● "
			}
			rows = append(rows, lead+t)
		default:
			rows = append(rows, color(colorError, truncate("  ⎿  "+t, cols)))
		}
	}
	return append(rows, "")
}

// live renders the live region: the spinner row while busy, the input box between two
// rules, the footer and, with -queries, the answers to the start-up queries. It never has
// more rows than the screen, so the relative moves that erase it stay exact.
func (d *inlineDraw) live(a *agent) []string {
	var top []string
	if a.busy {
		glyph := spinGlyphs[a.spin%len(spinGlyphs)]
		plain := fmt.Sprintf("%s Thinking… (%ds · esc to interrupt)", glyph, a.busySeconds())
		top = append(top, color(colorAccent, truncate(plain, a.cols)), "")
	}
	top = append(top, queuedRows(a)...)
	rule := color(colorRule, strings.Repeat("─", a.cols))
	var input []string
	for i, t := range wrap(a.draft, max(a.cols-3, 1)) { // one column kept for the cursor cell
		lead := "  "
		if i == 0 {
			lead = "❯ "
		}
		input = append(input, truncate(lead+t, a.cols))
	}
	if last := len(input) - 1; width(input[last]) < a.cols {
		input[last] += reverse(" ")
	}
	bottom := []string{color(colorGrey, truncate(d.footer(a), a.cols))}
	if a.cfg.queries {
		bottom = append(bottom, color(colorGrey, truncate("  "+a.queries.String(), a.cols)))
	}
	if extra := len(top) + len(input) + 2 + len(bottom) - a.rows; extra > 0 {
		input = input[min(extra, len(input)-1):] // keep the end of a long draft in view
	}
	rows := append(append(append(top, rule), input...), rule)
	rows = append(rows, bottom...)
	if len(rows) > a.rows {
		rows = rows[len(rows)-a.rows:]
	}
	return rows
}

// queuedRows shows the messages waiting for the current turn to end, one row each.
func queuedRows(a *agent) []string {
	var rows []string
	for _, q := range a.queued {
		first, _, _ := strings.Cut(q, "\n")
		rows = append(rows, color(colorGrey, truncate("  ↳ queued: "+first, a.cols)))
	}
	return rows
}

func (d *inlineDraw) footer(a *agent) string {
	switch {
	case a.armed:
		return "  Press Ctrl-C again to exit"
	case a.busy:
		return "  ⏵⏵ demo mode · esc to interrupt"
	}
	return "  ⏵⏵ demo mode · shift+enter for newline"
}

func (d *inlineDraw) resized(a *agent) {
	a.out.WriteString(clearAll)
	d.printed, d.liveRows = 0, 0
	d.banner(a)
}

func (d *inlineDraw) raw(a *agent, p []byte) {
	d.eraseLive(a)
	a.out.Write(p)
}

func (d *inlineDraw) end(a *agent) {
	d.eraseLive(a)
	a.out.WriteString(focusOff + pasteOff + showCursor)
}

func (d *inlineDraw) title(a *agent) string {
	if !a.busy {
		return "✳ " + a.cfg.name
	}
	if (a.spin/8)%2 == 0 { // about once a second, like Claude Code
		return "◐ " + a.cfg.name
	}
	return "◑ " + a.cfg.name
}

func (d *inlineDraw) tickEvery() time.Duration { return 120 * time.Millisecond }
