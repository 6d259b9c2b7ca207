package ui

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/relay"
)

// This file drives the relay from the event loop: every relay call is followed by
// afterRelay, which re-arms the one wake-up timer the relay asks for and refreshes what
// the screen shows about it (borders, status line, log overlay, notices).

// relayWakeMsg is the relay's wake-up tick. Gen is the generation it was armed with:
// a tick of any other generation is stale and ignored.
type relayWakeMsg struct{ gen uint64 }

// relayEvent hands the relay an event that happened now.
func (m *model) relayEvent(ev relay.Event) tea.Cmd {
	m.rl.handle(ev, m.now())
	return m.afterRelay()
}

// handleRelayWake is the relay's timer: a current tick advances the relay's clock.
func (m *model) handleRelayWake(msg relayWakeMsg) tea.Cmd {
	if !m.wakeArmed || msg.gen != m.wakeGen {
		return nil // superseded by an earlier wake-up, or nothing is pending any more
	}
	m.wakeArmed = false
	m.rl.tick(m.now())
	return m.afterRelay()
}

// afterRelay refreshes the screen's relay parts and re-arms the wake-up.
func (m *model) afterRelay() tea.Cmd {
	if note := m.rl.news(); note != "" {
		m.setStatus(note)
	}
	if s := m.rl.r.Status().String(); s != m.relaySum {
		m.relaySum = s
		m.frameOK = false
	}
	if m.logv.open {
		m.frameOK = false
	}
	for _, pr := range m.rects {
		v, p := m.views[pr.Pane], m.host.Pane(pr.Pane)
		if v == nil || p == nil {
			continue
		}
		if st, kind := m.rl.borderState(p); st != v.borderKey.state || kind != v.borderKey.kind {
			m.frameOK = false
		}
	}
	return m.armWake()
}

// armWake keeps one timer for the relay's next wake-up. An armed tick that comes no
// later than the one asked for is kept (it re-arms when it fires); an earlier wake-up
// gets a new generation, which makes the armed tick stale; with nothing pending there
// is no timer at all.
func (m *model) armWake() tea.Cmd {
	at, ok := m.rl.r.NextWake()
	if !ok {
		if m.wakeArmed {
			m.wakeArmed = false
			m.wakeGen++
		}
		return nil
	}
	if m.wakeArmed && !m.wakeAt.After(at) {
		return nil
	}
	m.wakeGen++
	m.wakeArmed, m.wakeAt = true, at
	gen := m.wakeGen
	return tea.Tick(max(at.Sub(m.now()), 0), func(time.Time) tea.Msg { return relayWakeMsg{gen: gen} })
}

// linkWith links the focused pane with pane n (prefix l then N).
func (m *model) linkWith(n int) tea.Cmd {
	switch {
	case m.host.Pane(n) == nil:
		m.setStatus(fmt.Sprintf("no pane %d", n))
		return nil
	case n == m.focus:
		m.setStatus("a pane cannot be linked with itself: prefix l then another pane's number")
		return nil
	}
	return m.relayEvent(relay.Link{Pane: m.focus, With: n})
}

// linkAll links every live pane into one group (prefix L).
func (m *model) linkAll() tea.Cmd {
	var ids []int
	for _, p := range m.host.Panes() {
		if !p.Exited {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) < 2 {
		m.setStatus("linking needs two running panes")
		return nil
	}
	return m.relayEvent(relay.LinkAll{Panes: ids})
}

// unlink takes the focused pane out of its group (prefix u).
func (m *model) unlink() tea.Cmd {
	if ps, ok := m.rl.r.Pane(m.focus); !ok || ps.Group == 0 {
		m.setStatus(fmt.Sprintf("pane %d is not linked", m.focus))
		return nil
	}
	return m.relayEvent(relay.Unlink{Pane: m.focus})
}

// toggleHold holds or releases deliveries into the focused pane (prefix p).
func (m *model) toggleHold() tea.Cmd {
	ps, ok := m.rl.r.Pane(m.focus)
	if !ok || ps.Exited {
		return nil
	}
	return m.relayEvent(relay.Hold{Pane: m.focus, On: !ps.Held})
}
