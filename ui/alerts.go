package ui

import (
	"sync/atomic"

	"github.com/agentmux/agentmux/vterm"
)

// This file carries a pane's bells and desktop notifications (BEL, OSC 9, OSC 777) from
// its emulator to the ui. The emulator reports them inside Write, on the pane's reader
// goroutine, with its lock held: paneAlerts only counts them and keeps the newest
// notification's text, never blocking. The ui reads the count when the pane's output
// message arrives (a bell is output too, so it always wakes the ui) and flags the pane
// in its border while it is not focused, as tmux flags a window that rang; focusing the
// pane clears the flag.

// paneAlerts counts a pane's bells and notifications. Written by the pane's reader
// goroutine (through vterm's OnEvent), read by the ui.
type paneAlerts struct {
	n    atomic.Uint64
	note atomic.Pointer[string] // the newest notification's text
}

// record takes one emulator event; titles are not alerts (snapshots carry them).
func (a *paneAlerts) record(ev vterm.Event) {
	switch ev.Kind {
	case vterm.EventBell:
		a.n.Add(1)
	case vterm.EventNotify:
		text := ev.Text
		a.note.Store(&text)
		a.n.Add(1)
	}
}

// count is how many alerts the pane has raised; notice is the newest notification's
// text ("" if none).
func (a *paneAlerts) count() uint64 { return a.n.Load() }

func (a *paneAlerts) notice() string {
	if p := a.note.Load(); p != nil {
		return *p
	}
	return ""
}

// bellMark is what a pane's border shows after it rang while not focused.
const bellMark = "🔔"

// checkAlerts flags pane p when it raised an alert since the ui last looked and is not
// the focused pane; a notification's text also goes to the status line.
func (m *model) checkAlerts(p *Pane, v *paneView) {
	n := p.alerts.count()
	if n == v.alertsSeen {
		return
	}
	v.alertsSeen = n
	if p.ID == m.focus {
		return
	}
	if !v.bell {
		v.bell = true
		m.frameOK = false
	}
	if note := p.alerts.notice(); note != "" && note != v.noteSeen {
		v.noteSeen = note
		m.setStatus(p.Name + ": " + note)
	}
}
