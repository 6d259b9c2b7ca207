package demo

import (
	"fmt"
	"strings"
	"time"
)

// altDraw draws like Codex: on the alternate screen, the whole screen is composed from the
// agent's state and written in one synchronized-output frame (CSI ? 2026 h … l) at every
// change. A header box at the top, the transcript's last rows in the middle (the mouse
// wheel scrolls it), and at the bottom the busy row, the "› " composer with the visible
// cursor in it, and a status row. It pushes kitty keyboard flags (CSI > 7 u) as Codex does.
type altDraw struct{}

// brailleSpinner is the busy spinner Codex shows in its title.
var brailleSpinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (d *altDraw) begin(a *agent) {
	a.out.WriteString(altOn + kittyPush7 + pasteOn + focusOn + mouseOn + hideCursor)
	a.kittyPushed = true
}

func (d *altDraw) frame(a *agent) {
	if a.done {
		return
	}
	rows, cx, cy := d.compose(a)
	a.out.WriteString(syncOn + hideCursor)
	for i, r := range rows {
		// Erase first: erasing after a full-width row would hit its last cell.
		fmt.Fprintf(&a.out, cursorPosFmt+"\x1b[2K%s", i+1, 1, r)
	}
	fmt.Fprintf(&a.out, cursorPosFmt, cy+1, cx+1)
	a.out.WriteString(showCursor + syncOff)
}

// compose lays out the screen: exactly a.rows styled rows and the cursor position.
func (d *altDraw) compose(a *agent) (rows []string, cx, cy int) {
	bottom, cx, cy := d.bottom(a)
	header := d.header(a)
	if len(header)+len(bottom)+1 > a.rows {
		header = nil
	}
	avail := max(a.rows-len(header)-len(bottom), 0)
	lines := d.transcript(a)
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

// header is the boxed title at the top of the screen.
func (d *altDraw) header(a *agent) []string {
	lines := []string{
		">_ " + a.cfg.name + " (simulated agent)",
		"",
		"model: demo    directory: agentmux demo",
	}
	inner := 0
	for _, l := range lines {
		inner = max(inner, width(l))
	}
	inner = min(inner+2, max(a.cols-2, 0))
	rows := []string{"", color(colorGrey, "╭"+strings.Repeat("─", inner)+"╮")}
	for i, l := range lines {
		text := padRight(" "+l, inner)
		if i == 0 {
			text = bold(text)
		}
		rows = append(rows, color(colorGrey, "│")+text+color(colorGrey, "│"))
	}
	return append(rows, color(colorGrey, "╰"+strings.Repeat("─", inner)+"╯"), "")
}

// transcript renders every entry: "› " for messages, "• " for answers, "■ " for notes,
// each followed by a blank row.
func (d *altDraw) transcript(a *agent) []string {
	var rows []string
	for _, e := range a.history {
		lead := map[entryKind]string{entryUser: "› ", entryReply: "• ", entryNote: "■ "}[e.kind]
		for i, t := range wrap(e.text, max(a.cols-2, 1)) {
			l := "  "
			if i == 0 {
				l = lead
			}
			switch e.kind {
			case entryUser:
				rows = append(rows, color(colorGrey, l)+t)
			case entryReply:
				rows = append(rows, color(colorCodex, l)+t)
			default:
				rows = append(rows, color(colorError, l+t))
			}
		}
		rows = append(rows, "")
	}
	return rows
}

// bottom renders the busy row, the composer and the status rows, with the cursor position
// relative to the first of them.
func (d *altDraw) bottom(a *agent) (rows []string, cx, cy int) {
	if a.busy {
		busy := fmt.Sprintf("• Working (%ds • esc to interrupt)", a.busySeconds())
		rows = append(rows, color(colorCodex, truncate(busy, a.cols)))
	}
	rows = append(rows, queuedRows(a)...)
	rows = append(rows, "")
	draft := wrap(a.draft, max(a.cols-3, 1))
	if limit := max(a.rows/3, 1); len(draft) > limit {
		draft = draft[len(draft)-limit:]
	}
	for i, t := range draft {
		lead := "  "
		if i == 0 {
			lead = color(colorCodex, "› ")
		}
		rows = append(rows, lead+t)
	}
	cy = len(rows) - 1
	cx = min(2+width(draft[len(draft)-1]), a.cols-1)
	if a.draft == "" {
		rows[cy] += dim(truncate("Ask "+a.cfg.name+" to do anything", max(a.cols-2, 0)))
	}
	rows = append(rows, "")
	if a.cfg.queries {
		rows = append(rows, color(colorGrey, truncate("  "+a.queries.String(), a.cols)))
	}
	status := "  " + a.cfg.name + " · simulated · ? for shortcuts"
	if a.armed {
		status = "  ctrl + c again to quit"
	}
	rows = append(rows, color(colorGrey, truncate(status, a.cols)))
	return rows, cx, cy
}

func (d *altDraw) resized(*agent) {}

func (d *altDraw) raw(a *agent, p []byte) { a.out.Write(p) }

func (d *altDraw) end(a *agent) {
	if a.kittyPushed { // the kitty flag stack belongs to the alternate screen: pop it there
		a.out.WriteString(kittyPop)
		a.kittyPushed = false
	}
	a.out.WriteString(mouseOff + focusOff + pasteOff + altOff + showCursor)
	fmt.Fprintf(&a.out, "%s: %d answers, bye.\r\n", a.cfg.name, a.answers)
}

func (d *altDraw) title(a *agent) string {
	if a.busy {
		return brailleSpinner[a.spin%len(brailleSpinner)] + " " + a.cfg.name
	}
	return a.cfg.name
}

func (d *altDraw) tickEvery() time.Duration { return 100 * time.Millisecond }
