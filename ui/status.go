package ui

import (
	"strings"
	"time"
)

// A status-line message either stands until the next key (setStatus) or speaks of
// something that lasts, and then shows only while that holds (setHint): a mode's
// reminder goes with the mode, however it was left (a key, the mouse wheel, a pane
// that exited), and "typed once it is idle" goes once it was typed.

// statusScope is what a status message speaks of.
type statusScope uint8

const (
	scopeOnce    statusScope = iota // until the next key or message
	scopeScroll                     // while pane statusPane is in scroll mode
	scopeLog                        // while the relay log's list is shown
	scopeDetail                     // while a relay log entry is open whole
	scopeBrief                      // until pane statusPane's brief has been typed
	scopeDropped                    // a read-only terminal's typing goes nowhere: until the prefix
)

// statusMsg is the message on the status line and what it speaks of; a relay notice's
// rank and when it was shown (notice).
type statusMsg struct {
	text  string
	scope statusScope
	pane  int
	rank  noticeRank
	at    time.Time
}

// noticeRank orders the relay's notices on the status line: a link that ended or a
// budget spent outranks the notices of deliveries under way (a cross-session turn
// sent, a phase), which come often and say less.
type noticeRank uint8

const (
	rankRoutine noticeRank = iota
	rankEnd                // a link or group ended, a budget spent: the person must know
)

// noticeHold is how long a notice of a higher rank stays on the status line against
// notices of a lower one (a key, or the person's own action, still replaces it).
const noticeHold = 5 * time.Second

// rankOf is a relay notice's rank, read from its words as the relay writes them (the
// relay log's colour follows the same words: needsAttention).
func rankOf(note string) noticeRank {
	if needsAttention(note) || strings.Contains(note, " severed") || strings.Contains(note, " ended: ") {
		return rankEnd
	}
	return rankRoutine
}

// needsAttention reports whether a relay notice says something was not sent, a
// budget is spent, or a pane left its group as it came to run a shell.
func needsAttention(note string) bool {
	return strings.Contains(note, "budget spent") || strings.Contains(note, "not sent") || strings.Contains(note, " now runs a shell ")
}

// notice shows a relay notice, unless a notice of a higher rank has shown for less
// than noticeHold (the lower one is in the relay log).
func (m *model) notice(note string) {
	now := m.now()
	if cur := m.status; cur.rank > rankOf(note) && m.statusText() != "" && now.Sub(cur.at) < noticeHold {
		return
	}
	m.status = statusMsg{text: note, scope: scopeOnce, rank: rankOf(note), at: now}
	m.fr.invalidate()
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
