package demo

import (
	"strings"
	"time"
)

// plainDraw draws a line REPL: a "> " prompt, the typed keys echoed as they come (the
// terminal is in raw mode, so the agent echoes), plain answers on their own lines, nothing
// while busy, no title, no bracketed paste and no cursor movement beyond backspacing on the
// current row. Keys typed while busy are shown after the next prompt.
type plainDraw struct {
	printed  int    // transcript entries already printed
	prompt   bool   // a prompt line is open at the bottom
	echoed   string // the draft as echoed after the prompt
	armShown bool   // the Ctrl+C hint is on screen
	queries  string // the query summary last printed
}

const plainPrompt = "> "

func (d *plainDraw) begin(a *agent) {
	a.out.WriteString(a.cfg.name + " (simulated agent). Type a message and press Enter; Ctrl+D exits.\r\n")
}

func (d *plainDraw) frame(a *agent) {
	for ; d.printed < len(a.history); d.printed++ {
		e := a.history[d.printed]
		if e.kind == entryUser { // keys typed with the Enter in one read were not echoed yet
			d.openPrompt(a)
			d.echo(a, e.text)
		}
		d.closePrompt(a)
		switch e.kind {
		case entryReply:
			a.out.WriteString(strings.ReplaceAll(e.text, "\n", "\r\n") + "\r\n")
		case entryNote:
			a.out.WriteString("[" + e.text + "]\r\n")
		}
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
	d.echo(a, a.draft)
}

// openPrompt prints the prompt unless one is open.
func (d *plainDraw) openPrompt(a *agent) {
	if !d.prompt {
		a.out.WriteString(plainPrompt)
		d.prompt, d.echoed = true, ""
	}
}

// echo brings the echoed text on the prompt line up to draft: it appends what was typed,
// backspaces over what was deleted on the current row, and otherwise reprints the draft
// on a new prompt.
func (d *plainDraw) echo(a *agent, draft string) {
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
func (d *plainDraw) canBackspace(a *agent, removed string) bool {
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
func (d *plainDraw) closePrompt(a *agent) {
	if d.prompt {
		a.out.WriteString("\r\n")
		d.prompt, d.echoed = false, ""
	}
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func (d *plainDraw) resized(*agent) {}

func (d *plainDraw) raw(a *agent, p []byte) {
	if d.prompt {
		a.out.WriteString("\r" + eraseLine)
		d.prompt, d.echoed = false, ""
	}
	a.out.Write(p)
}

func (d *plainDraw) end(a *agent) { d.closePrompt(a) }

func (d *plainDraw) title(*agent) string { return "" }

func (d *plainDraw) tickEvery() time.Duration { return 0 }
