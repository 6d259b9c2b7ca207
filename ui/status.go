package ui

// A status-line message either stands until the next key (setStatus) or speaks of
// something that lasts, and then shows only while that holds (setHint): a mode's
// reminder goes with the mode, however it was left (a key, the mouse wheel, a pane
// that exited), and "typed once it is idle" goes once it was typed.

// statusScope is what a status message speaks of.
type statusScope uint8

const (
	scopeOnce   statusScope = iota // until the next key or message
	scopeScroll                    // while pane statusPane is in scroll mode
	scopeLog                       // while the relay log's list is shown
	scopeDetail                    // while a relay log entry is open whole
	scopeBrief                     // until pane statusPane's brief has been typed
)

// statusMsg is the message on the status line and what it speaks of.
type statusMsg struct {
	text  string
	scope statusScope
	pane  int
}

// setHint shows s while what scope names holds (pane: the pane it speaks of).
func (m *model) setHint(s string, scope statusScope, pane int) {
	m.status = statusMsg{text: s, scope: scope, pane: pane}
	m.fr.invalidate()
}

// statusText is the message to show now: "" once what it speaks of has ended.
func (m *model) statusText() string {
	st := m.status
	switch st.scope {
	case scopeScroll:
		if v := m.views[st.pane]; v == nil || v.scroll == nil {
			return ""
		}
	case scopeLog:
		if !m.logv.open || m.logv.detail != nil {
			return ""
		}
	case scopeDetail:
		if !m.logv.open || m.logv.detail == nil {
			return ""
		}
	}
	return st.text
}

// briefTyped ends a brief's "typed once it is idle" message once the brief for pane
// is typed.
func (m *model) briefTyped(pane int) {
	if m.status.scope == scopeBrief && m.status.pane == pane {
		m.setStatus("")
	}
}
