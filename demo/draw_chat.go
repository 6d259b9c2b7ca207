package demo

import (
	"fmt"
	"strings"
	"time"
)

// The looks of the chat programs no built-in profile knows (Bare and Boxed, drawn by
// mainDraw; Full and Clear, drawn by frameDraw): no colours, static spinners, the draft
// shown as its last line's tail on a one-row input.

// chatMain is what the main-screen chat looks have in common: bracketed paste, no title,
// no animation.
type chatMain struct{}

func (chatMain) modes(*agent) string      { return pasteOn }
func (chatMain) leave(*agent) string      { return pasteOff }
func (chatMain) title(*agent) string      { return "" }
func (chatMain) tickEvery() time.Duration { return 0 }

// chatFrame is what the full-screen chat looks have in common: the alternate screen and
// bracketed paste, answers cut to the width, no title, no animation.
type chatFrame struct{ chatMain }

func (chatFrame) modes(*agent) string { return altOn + pasteOn }
func (chatFrame) leave(*agent) string { return pasteOff + altOff }
func (chatFrame) fits() bool          { return true }

// echoLines are the lines of a message as the plain styles echo it: lead before its
// first line, blanks as wide before the others.
func echoLines(lead, text string) []string {
	var rows []string
	for i, l := range strings.Split(text, "\n") {
		if i == 0 {
			rows = append(rows, lead+l)
		} else {
			rows = append(rows, strings.Repeat(" ", width(lead))+l)
		}
	}
	return rows
}

// wrapRows wraps each of rows to w columns.
func wrapRows(rows []string, w int) []string {
	var out []string
	for _, r := range rows {
		out = append(out, wrap(r, w)...)
	}
	return out
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
type bareLook struct{ chatMain }

func (bareLook) banner(a *agent) string {
	return bareBanner(a) + "\r\n   /help for help, esc to go back\r\n\r\n"
}

func bareBanner(a *agent) string { return "✻ Welcome to " + a.cfg.Name + " chat" }

func (bareLook) entryRows(_ *agent, e entry) []string {
	if e.kind == entryUser {
		return append(echoLines("❯ ", e.text), "") // unwrapped: the terminal wraps them
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

func (bareLook) corpusRows(a *agent) (banner, prompt string) { return bareBanner(a), "❯ " }

// boxedLook is the Boxed style (Ink-like): a banner, the transcript, and under it an
// input box with round corners showing a label and the draft's tail (or dots for a masked
// field), and a hint row; the cursor parked at the start of the row under them, never in
// the box; a static spinner row above the box while busy.
type boxedLook struct{ chatMain }

func (boxedLook) banner(a *agent) string { return boxedBanner(a) + "\r\n\r\n" }

func boxedBanner(a *agent) string { return "* " + a.cfg.Name + " code · mock-model" }

func (boxedLook) entryRows(_ *agent, e entry) []string {
	if e.kind == entryUser {
		return append(echoLines("> ", e.text), "")
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

// fullLook is the Full style: a header row, the transcript ("> " echoes, answers as they
// are), a status row (a static spinner while busy) and a "> " input row showing the
// draft's tail at the bottom, with the cursor after the draft; synchronized frames.
type fullLook struct{ chatFrame }

func (fullLook) header(a *agent) []string                    { return []string{fullBanner(a)} }
func fullBanner(a *agent) string                             { return a.cfg.Name + " · ready" }
func (fullLook) paint(*agent) paint                          { return paint{sync: true} }
func (fullLook) corpusRows(a *agent) (banner, prompt string) { return fullBanner(a), "> " }

func (fullLook) entryRows(a *agent, e entry) []string {
	if e.kind != entryUser {
		return plainRows(e)
	}
	return wrapRows(echoLines("> ", e.text), a.cols)
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
type clearLook struct{ chatFrame }

func (clearLook) header(a *agent) []string                    { return []string{clearBanner(a), ""} }
func clearBanner(a *agent) string                             { return a.cfg.Name + " ── chat" }
func (clearLook) paint(*agent) paint                          { return paint{clear: true} }
func (clearLook) corpusRows(a *agent) (banner, prompt string) { return clearBanner(a), "> " }

func (clearLook) entryRows(a *agent, e entry) []string {
	if e.kind != entryUser {
		return wrapRows(plainRows(e), a.cols)
	}
	return append(wrapRows(echoLines("you: ", e.text), a.cols), "")
}

func (clearLook) bottom(a *agent) (rows []string, cx, cy int) {
	status := fmt.Sprintf("mock-model · %d messages", len(a.inputs))
	if a.busy {
		status = "⠋ thinking… (esc to interrupt)"
	}
	draft := shownDraft(a, a.cols-3)
	return []string{"> " + draft, status}, 2 + width(draft), 0
}
