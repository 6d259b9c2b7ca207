package ui

import (
	"fmt"
	"strings"

	"github.com/agentmux/agentmux/session"
)

// This file tells the person's terminal that a pane began to need them, as a desktop
// notification the terminal shows (OSC 9: iTerm2, kitty, WezTerm, Ghostty; OSC 777:
// foot, urxvt and others; or the bell), never for the pane in front of them: this
// terminal's focused pane. Panes that begin to need the person in one batch of the
// session's events make one notification.

// The terminal notification modes (Config.NotifyTerminal; "" is NotifyOSC9).
const (
	NotifyOSC9   = "osc9"
	NotifyOSC777 = "osc777"
	NotifyBell   = "bell"
	NotifyOff    = "off"
)

// noteNeedsYou records that pane id began to need the person (was is its state before
// ev), unless it is the focused pane; flushNeedsYou sends what was recorded.
func (m *model) noteNeedsYou(was session.State, mb session.Member) {
	if mb.State != session.NeedsYou || was == session.NeedsYou || mb.Pane == m.focus || m.cfg.NotifyTerminal == NotifyOff {
		return
	}
	m.askedBatch = append(m.askedBatch, mb)
}

// flushNeedsYou sends one desktop notification for the panes recorded since the last.
func (m *model) flushNeedsYou() {
	batch := m.askedBatch
	m.askedBatch = nil
	if len(batch) == 0 || m.scr == nil {
		return
	}
	m.scr.Send(terminalNote(m.cfg.NotifyTerminal, batch))
}

// terminalNote is the sequence that notifies of batch in mode.
func terminalNote(mode string, batch []session.Member) string {
	title := fmt.Sprintf("%s (%d) needs you", batch[0].Name, batch[0].Pane)
	body := batch[0].Asks.Short()
	if len(batch) > 1 {
		names := make([]string, len(batch))
		for i, mb := range batch {
			names[i] = mb.Name
		}
		title = fmt.Sprintf("%d panes need you", len(batch))
		body = strings.Join(names, ", ")
	}
	title, body = oscText(title), oscText(body)
	switch mode {
	case NotifyBell:
		return "\a"
	case NotifyOSC777:
		return "\x1b]777;notify;" + title + ";" + body + "\x1b\\"
	}
	if body != "" {
		title += ": " + body
	}
	return "\x1b]9;" + title + "\x1b\\"
}

// oscText makes s safe inside an OSC string: nothing invisible (a pane's program chose
// the words on its screen), no ";" (OSC 777's separator), bounded.
func oscText(s string) string {
	s = strings.Map(func(r rune) rune {
		if Invisible(r) || r == ';' {
			return ' '
		}
		return r
	}, s)
	return clipRunes(s, 120)
}
