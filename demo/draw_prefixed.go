package demo

import (
	"fmt"
	"strings"
	"time"
)

// prefixedLook is the Prefixed style (drawn by frameDraw): a header row with the agent's
// status (a spinner and the seconds it has worked, redrawn ten times a second while
// busy), the transcript's tail (each message as the echo form shows it and a blank row,
// then the answer), a rule and a "› " input row with the cursor after the draft. No
// synchronized output: a frame clears the whole screen, or rewrites the rows that
// changed. Rows wider than the screen are word-wrapped by the program, or cut into
// screen-wide pieces the terminal wraps (SoftWrap; see softRow).
type prefixedLook struct{ chatFrame }

func (prefixedLook) tickEvery() time.Duration { return 100 * time.Millisecond }

func (prefixedLook) paint(a *agent) paint {
	return paint{clear: !a.cfg.RowUpdates, changed: a.cfg.RowUpdates}
}

func (prefixedLook) header(a *agent) []string {
	if a.busy {
		return fitRows([]string{fmt.Sprintf("%s %s · working (%ds · esc to interrupt)", brailleSpinner[a.spin%len(brailleSpinner)], a.cfg.Name, a.busySeconds())}, a.cols)
	}
	return fitRows([]string{prefixedBanner(a)}, a.cols)
}

func prefixedBanner(a *agent) string { return a.cfg.Name + " · ready" }

func (prefixedLook) corpusRows(a *agent) (banner, prompt string) { return prefixedBanner(a), "› " }

// echoPrefix is the prefix the agent shows before an echoed message.
func echoPrefix(a *agent) string {
	if a.cfg.EchoPrefix == "" {
		return "you: "
	}
	return a.cfg.EchoPrefix
}

func (prefixedLook) entryRows(a *agent, e entry) []string {
	if e.kind != entryUser {
		return layRows(a, plainRows(e))
	}
	pre := echoPrefix(a)
	var rows []string
	switch a.cfg.Echo {
	case EchoNone:
		return nil
	case EchoEach:
		for _, l := range strings.Split(e.text, "\n") {
			rows = append(rows, pre+l)
		}
	case EchoFirst:
		rows = echoLines(pre, e.text)
	case EchoBox:
		inner := max(a.cols-4, 1)
		rows = append(rows, "╭"+strings.Repeat("─", inner+2)+"╮")
		for _, r := range wrap(e.text, inner) {
			rows = append(rows, "│ "+padRight(r, inner)+" │")
		}
		rows = append(rows, "╰"+strings.Repeat("─", inner+2)+"╯")
		return append(fitRows(rows, a.cols), "")
	}
	return append(layRows(a, rows), "")
}

// layRows lays rows out on the screen's width: word-wrapped, or (SoftWrap) cut into
// pieces as wide as the screen for the terminal to wrap.
func layRows(a *agent, rows []string) []string {
	if !a.cfg.SoftWrap {
		return wrapRows(rows, a.cols)
	}
	var out []string
	for _, r := range rows {
		for i, piece := range cutWidth(r, a.cols) {
			if i > 0 {
				piece = softRow + piece
			}
			out = append(out, piece)
		}
	}
	return out
}

// softRow opens a composed row that continues the one above it: frameDraw writes it
// right after that row, with no cursor move, so the terminal wraps into it.
const softRow = "\x00"

// cutWidth cuts plain text into pieces of w columns (the last one shorter); a wide
// character that would straddle the edge opens the next piece, as a terminal wraps it.
func cutWidth(s string, w int) []string {
	w = max(w, 2)
	var out []string
	var b strings.Builder
	n := 0
	for _, r := range s {
		rw := widths.RuneWidth(r)
		if n+rw > w {
			out = append(out, b.String())
			b.Reset()
			n = 0
		}
		b.WriteRune(r)
		n += rw
	}
	return append(out, b.String())
}

func (prefixedLook) bottom(a *agent) (rows []string, cx, cy int) {
	draft := shownDraft(a, a.cols-3)
	return []string{strings.Repeat("─", a.cols), "› " + draft}, 2 + width(draft), 1
}
