package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/vterm"
)

// This file routes the outer terminal's mouse events: a press focuses the pane under
// it; the wheel scrolls that pane's history; a program that enabled mouse reporting gets
// its events in pane-local coordinates instead.

// paneAt returns the visible pane whose rectangle holds (x, y), or 0.
func (m *model) paneAt(x, y int) int {
	for _, pr := range m.rects {
		if pr.R.contains(x, y) {
			return pr.Pane
		}
	}
	return 0
}

// handleMouse handles one mouse event.
func (m *model) handleMouse(ev keys.Mouse) tea.Cmd {
	if m.mode == modeHelp {
		if ev.Action == keys.MousePress {
			m.mode = modeNormal
			m.frameOK = false
		}
		return nil
	}
	// A drag or release belongs to the pane that received the press.
	if ev.Action != keys.MousePress && m.mouseDown != 0 {
		id := m.mouseDown
		if ev.Action == keys.MouseRelease {
			m.mouseDown = 0
		}
		m.forwardMouse(id, ev, true)
		return nil
	}
	if m.logMouse(ev) {
		return nil // over the relay log: the wheel scrolls it, clicks do nothing
	}
	id := m.paneAt(ev.X, ev.Y)
	p, v := m.host.Pane(id), m.views[id]
	if p == nil || v == nil {
		return nil
	}
	snap := p.Term.Snapshot()
	wants := !p.Exited && v.scroll == nil && snap.Modes.Mouse != vterm.MouseNone &&
		v.content.contains(ev.X, ev.Y)
	if ev.Button == keys.WheelUp || ev.Button == keys.WheelDown {
		up := ev.Button == keys.WheelUp
		switch {
		case wants:
			m.forwardMouse(id, ev, false)
		case v.scroll == nil && !p.Exited && snap.AltScreen && snap.Modes.AltScroll:
			// xterm's alternate scroll mode: the wheel becomes arrow keys on the
			// alternate screen of a program that does not report the mouse.
			arrow := keys.Key{Code: keys.KeyDown}
			if up {
				arrow.Code = keys.KeyUp
			}
			b := keys.Encode(arrow, keys.Mode{AppCursor: snap.Modes.AppCursor})
			for range wheelLines {
				m.toPane(id, b)
			}
		default:
			m.wheel(p, v, up)
		}
		return nil
	}
	switch ev.Action {
	case keys.MousePress:
		m.setFocus(id)
		if wants {
			m.mouseDown = id
			m.forwardMouse(id, ev, false)
		}
	default:
		if wants {
			m.forwardMouse(id, ev, false)
		}
	}
	return nil
}

// forwardMouse sends ev to pane id in its local coordinates (clamped into the content
// area when clamp is set, for drags that leave the pane), encoded as its program asked;
// EncodeMouse returns nothing for events the program's mode does not report.
func (m *model) forwardMouse(id int, ev keys.Mouse, clamp bool) {
	p, v := m.host.Pane(id), m.views[id]
	if p == nil || v == nil || p.Exited {
		return
	}
	x, y := ev.X-v.content.X, ev.Y-v.content.Y
	if clamp {
		x = min(max(x, 0), max(v.content.W-1, 0))
		y = min(max(y, 0), max(v.content.H-1, 0))
	}
	md := p.Term.Snapshot().Modes
	m.toPane(id, keys.EncodeMouse(ev, x, y, keys.MouseMode(md.Mouse), keys.MouseEncoding(md.MouseEnc)))
}
