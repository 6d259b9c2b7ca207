package demo

import (
	"strings"
	"time"
)

// lineDraw draws a line REPL (the Plain and Line styles): a banner, a prompt, plain
// answers on their own lines (an answer given in steps a few lines at a time), nothing
// while busy, no title and no cursor movement beyond backspacing on the current row. In
// Plain the terminal is in raw mode, so the agent echoes the typed keys as they come (keys
// typed while busy are shown after the next prompt): a "> " prompt, no bracketed paste. In
// Line (cooked) the terminal's line discipline echoes them and hands the agent whole lines:
// "NAME ready.", a "NAME> " prompt, bracketed paste with --readline.
type lineDraw struct {
	cooked   bool   // the terminal echoes (Line); else the agent does (Plain)
	printed  int    // transcript entries printed whole
	partRows int    // rows of the entry after them already printed (an answer coming in)
	prompt   bool   // a prompt line is open at the bottom
	echoed   string // the draft as echoed after the prompt
	armShown bool   // the Ctrl+C hint is on screen
	queries  string // the query summary last printed
}

// plainPrompt is the Plain style's prompt.
const plainPrompt = "> "

// promptText is the prompt the REPL prints.
func (d *lineDraw) promptText(a *agent) string {
	if d.cooked {
		return a.cfg.Name + "> "
	}
	return plainPrompt
}

// banner is the REPL's first row.
func (d *lineDraw) banner(a *agent) string {
	if d.cooked {
		return a.cfg.Name + " ready."
	}
	return a.cfg.Name + " (simulated agent). Type a message and press Enter; Ctrl+D exits."
}

// readline reports whether the REPL takes bracketed pastes.
func (d *lineDraw) readline(a *agent) bool { return d.cooked && a.cfg.Readline }

func (d *lineDraw) begin(a *agent) {
	if d.readline(a) {
		a.out.WriteString(pasteOn)
	}
	a.out.WriteString(d.banner(a) + "\r\n")
}

func (d *lineDraw) frame(a *agent) {
	for d.printed < len(a.history) {
		e := a.history[d.printed]
		if d.partRows == 0 {
			switch {
			case e.kind == entryUser && d.cooked: // the terminal echoed it, and its newline
				d.prompt, d.echoed = false, ""
			case e.kind == entryUser: // keys typed with the Enter in one read were not echoed yet
				d.openPrompt(a)
				d.echo(a, e.text)
			}
			d.closePrompt(a)
		}
		switch e.kind {
		case entryReply:
			rows := strings.Split(e.text, "\n")
			for _, r := range rows[min(d.partRows, len(rows)):] {
				a.out.WriteString(r + "\r\n")
			}
			if !e.done && d.printed == len(a.history)-1 {
				d.partRows = len(rows) // the rest comes with the next step
				return
			}
		case entryNote:
			a.out.WriteString("[" + e.text + "]\r\n")
		}
		d.printed, d.partRows = d.printed+1, 0
	}
	if a.armed && !d.armShown {
		a.out.WriteString("^C")
		d.closePrompt(a)
		a.out.WriteString("(press Ctrl+C again to exit)\r\n")
	}
	d.armShown = a.armed
	if a.cfg.queries && a.queries.sent {
		if q := a.queries.String(); q != d.queries {
			d.closePrompt(a)
			a.out.WriteString(q + "\r\n")
			d.queries = q
		}
	}
	if a.busy || a.done {
		return
	}
	d.openPrompt(a)
	if !d.cooked {
		d.echo(a, a.draft)
	}
}

// openPrompt prints the prompt unless one is open.
func (d *lineDraw) openPrompt(a *agent) {
	if !d.prompt {
		a.out.WriteString(d.promptText(a))
		d.prompt, d.echoed = true, ""
	}
}

// echo brings the echoed text on the prompt line up to draft: it appends what was typed,
// backspaces over what was deleted on the current row, and otherwise reprints the draft
// on a new prompt.
func (d *lineDraw) echo(a *agent, draft string) {
	switch {
	case draft == d.echoed:
	case strings.HasPrefix(draft, d.echoed):
		a.out.WriteString(crlf(draft[len(d.echoed):]))
	case strings.HasPrefix(d.echoed, draft) && d.canBackspace(a, d.echoed[len(draft):]):
		w := width(d.echoed[len(draft):])
		a.out.WriteString(strings.Repeat("\b", w) + strings.Repeat(" ", w) + strings.Repeat("\b", w))
	default:
		a.out.WriteString("\r\n" + plainPrompt + crlf(draft))
	}
	d.echoed = draft
}

// canBackspace reports whether removed (the end of the echoed draft) sits on the current
// row, away from the last column, so backspaces erase it exactly.
func (d *lineDraw) canBackspace(a *agent, removed string) bool {
	if strings.Contains(removed, "\n") {
		return false
	}
	row := d.echoed
	if i := strings.LastIndex(row, "\n"); i >= 0 {
		row = row[i+1:]
	} else {
		row = plainPrompt + row
	}
	return width(row) < a.cols
}

// closePrompt ends the open prompt line.
func (d *lineDraw) closePrompt(a *agent) {
	if d.prompt {
		a.out.WriteString("\r\n")
		d.prompt, d.echoed = false, ""
	}
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func (d *lineDraw) resized(*agent) {}

func (d *lineDraw) raw(a *agent, p []byte) {
	if d.prompt {
		a.out.WriteString("\r" + eraseLine)
		d.prompt, d.echoed = false, ""
	}
	a.out.Write(p)
}

func (d *lineDraw) end(a *agent) {
	d.closePrompt(a)
	if d.readline(a) {
		a.out.WriteString(pasteOff)
	}
}

func (d *lineDraw) title(*agent) string { return "" }

func (d *lineDraw) tickEvery() time.Duration { return 0 }

func (d *lineDraw) corpusRows(a *agent) (banner, prompt string) {
	return d.banner(a), d.promptText(a)
}

func (d *lineDraw) fits() bool { return false }
