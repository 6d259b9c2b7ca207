package demo

import (
	"fmt"
	"strings"
	"time"
)

// inlineLook is the Inline style, Claude Code's classic renderer (drawn by mainDraw): a
// banner, the transcript with "❯ " echoes on a grey band and "● " answers, and the live
// region (spinner row, input box, footer). The hardware cursor stays hidden, on the live
// region's last row; the input position is a reverse-video cell.
type inlineLook struct{}

// spinGlyphs is Claude Code's busy spinner.
var spinGlyphs = []string{"·", "✢", "*", "✶", "✻", "✽"}

func (inlineLook) modes(a *agent) string {
	a.kittyAsked = true // Claude Code asks, and pushes flags when the terminal knows them
	return hideCursor + pasteOn + focusOn + kittyQuery
}

func (inlineLook) leave(*agent) string { return focusOff + pasteOff + showCursor }

func (inlineLook) banner(a *agent) string {
	var b strings.Builder
	rows := []string{
		color(colorAccent, " ╭─────╮") + "   " + bold(a.cfg.Name) + color(colorGrey, " · simulated agent"),
		color(colorAccent, " │ o o │") + "   " + color(colorGrey, "agentmux demo · no model, no network"),
		color(colorAccent, " ╰─────╯") + "   " + color(colorGrey, "type a message and press Enter"),
	}
	plain := []string{
		" ╭─────╮   " + a.cfg.Name + " · simulated agent",
		" │ o o │   agentmux demo · no model, no network",
		" ╰─────╯   type a message and press Enter",
	}
	for i, r := range rows {
		if width(plain[i]) > a.cols {
			r = truncate(plain[i], a.cols)
		}
		b.WriteString(r + "\r\n")
	}
	return b.String() + "\r\n"
}

// entryRows renders one transcript entry as rows followed by a blank row.
func (inlineLook) entryRows(a *agent, e entry) []string {
	cols := a.cols
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
	if e.kind == entryReply && !e.done {
		return rows
	}
	return append(rows, "")
}

// live renders the live region: the spinner row while busy, the input box between two
// rules, the footer and, with -queries, the answers to the start-up queries. It never has
// more rows than the screen, so the relative moves that erase it stay exact.
func (l inlineLook) live(a *agent) liveRegion {
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
	bottom := []string{color(colorGrey, truncate(l.footer(a), a.cols))}
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
	return liveRegion{rows: rows, cursorRow: len(rows) - 1, cursorCol: -1}
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

func (inlineLook) footer(a *agent) string {
	switch {
	case a.armed:
		return "  Press Ctrl-C again to exit"
	case a.busy:
		return "  ⏵⏵ demo mode · esc to interrupt"
	}
	if !a.kittyPushed {
		// The terminal has not said it reports shift+enter apart from enter (its
		// answer to the kitty keyboard query): a newline is ctrl+j or alt+enter.
		return "  ⏵⏵ demo mode · ctrl+j for newline"
	}
	return "  ⏵⏵ demo mode · shift+enter for newline"
}

func (inlineLook) title(a *agent) string {
	if !a.busy {
		return "✳ " + a.cfg.Name
	}
	if (a.spin/8)%2 == 0 { // about once a second, like Claude Code
		return "◐ " + a.cfg.Name
	}
	return "◑ " + a.cfg.Name
}

func (inlineLook) tickEvery() time.Duration { return 120 * time.Millisecond }

func (inlineLook) corpusRows(a *agent) (banner, prompt string) {
	return " ╭─────╮   " + a.cfg.Name + " · simulated agent", "❯"
}
