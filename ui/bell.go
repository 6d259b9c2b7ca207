package ui

import "github.com/agentmux/agentmux/session"

// This file flags panes that rang the bell or sent a desktop notification (BEL, OSC 9,
// OSC 777; the session reports them as Alert events) while not focused, as tmux flags a
// window that rang; focusing the pane clears the flag. A notification's text goes to the
// status line.

// bellMark is what a pane's border shows after it rang while not focused.
const bellMark = "🔔"

// handleAlert flags the pane unless it is focused, and shows a notification's text.
func (m *model) handleAlert(ev session.Alert) {
	v := m.views[ev.Pane]
	if v == nil || ev.Pane == m.focus {
		return
	}
	if !v.bell {
		v.bell = true
		m.fr.invalidate()
	}
	if ev.Text != "" {
		m.setStatus(v.member.Name + ": " + ev.Text)
	}
}
