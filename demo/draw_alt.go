package demo

import (
	"fmt"
	"strings"
	"time"
)

// altLook is the Alt style, Codex (drawn by frameDraw): a header box at the top, the
// transcript ("› " messages, "• " answers), and at the bottom the busy row, the "› "
// composer with the visible cursor in it, and a status row; each frame synchronized
// (CSI ? 2026 h … l) with the cursor hidden while it draws. It pushes kitty keyboard flags
// (CSI > 7 u) as Codex does and reports the mouse wheel.
type altLook struct{}

// brailleSpinner is the busy spinner Codex shows in its title.
var brailleSpinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (altLook) modes(a *agent) string {
	a.kittyPushed = true
	return altOn + kittyPush7 + pasteOn + focusOn + mouseOn + hideCursor
}

func (altLook) paint(*agent) paint { return paint{sync: true, hide: true} }

// header is the boxed title at the top of the screen.
func (altLook) header(a *agent) []string {
	lines := []string{
		">_ " + a.cfg.Name + " (simulated agent)",
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

// entryRows renders an entry: "› " for messages, "• " for answers, "■ " for notes,
// followed by a blank row (an answer once it is whole).
func (altLook) entryRows(a *agent, e entry) []string {
	var rows []string
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
	if e.kind == entryReply && !e.done {
		return rows
	}
	return append(rows, "")
}

// bottom renders the busy row, the composer and the status rows, with the cursor position
// relative to the first of them.
func (altLook) bottom(a *agent) (rows []string, cx, cy int) {
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
		rows[cy] += dim(truncate("Ask "+a.cfg.Name+" to do anything", max(a.cols-2, 0)))
	}
	rows = append(rows, "")
	if a.cfg.queries {
		rows = append(rows, color(colorGrey, truncate("  "+a.queries.String(), a.cols)))
	}
	status := "  " + a.cfg.Name + " · simulated · ? for shortcuts"
	if a.armed {
		status = "  ctrl + c again to quit"
	}
	rows = append(rows, color(colorGrey, truncate(status, a.cols)))
	return rows, cx, cy
}

func (altLook) leave(a *agent) string {
	pop := ""
	if a.kittyPushed { // the kitty flag stack belongs to the alternate screen: pop it there
		pop = kittyPop
		a.kittyPushed = false
	}
	return pop + mouseOff + focusOff + pasteOff + altOff + showCursor +
		fmt.Sprintf("%s: %d answers, bye.\r\n", a.cfg.Name, a.answers)
}

func (altLook) title(a *agent) string {
	if a.busy {
		return brailleSpinner[a.spin%len(brailleSpinner)] + " " + a.cfg.Name
	}
	return a.cfg.Name
}

func (altLook) tickEvery() time.Duration { return 100 * time.Millisecond }

func (altLook) fits() bool { return false }

func (altLook) corpusRows(a *agent) (banner, prompt string) {
	return ">_ " + a.cfg.Name + " (simulated agent)", "›"
}
