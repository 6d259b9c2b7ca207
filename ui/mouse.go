package ui

import (
	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/vterm"
)

// This file routes the outer terminal's mouse events: a press focuses the pane under
// it; the wheel scrolls that pane's history, or sends arrow keys to a program on the
// alternate screen; a program that enabled mouse reporting gets its events in
// pane-local coordinates instead.

// paneAt returns the visible pane whose rectangle holds (x, y), or 0.
func (l *paneLayout) paneAt(x, y int) int {
	for _, pr := range l.rects {
		if pr.R.contains(x, y) {
			return pr.Pane
		}
	}
	return 0
}

// handleMouse handles one mouse event.
func (m *model) handleMouse(ev keys.Mouse) {
	if m.mode == modeHelp {
		switch {
		case ev.Button == keys.WheelUp:
			m.scrollHelp(-wheelLines)
		case ev.Button == keys.WheelDown:
			m.scrollHelp(wheelLines)
		case ev.Action == keys.MousePress:
			m.mode = modeNormal
			m.fr.invalidate()
		}
		return
	}
	// A drag over a pane that does not take the mouse selects (copy.go).
	if ev.Action != keys.MousePress && m.drag != nil && m.copyMouse(ev) {
		return
	}
	// A drag or release belongs to the pane that received the press.
	if ev.Action != keys.MousePress && m.mouseDown != 0 {
		id := m.mouseDown
		if ev.Action == keys.MouseRelease {
			m.mouseDown = 0
		}
		m.forwardMouse(id, ev, true)
		return
	}
	if m.logMouse(ev) {
		return // over the relay log: the wheel scrolls it, clicks do nothing
	}
	id := m.paneAt(ev.X, ev.Y)
	v := m.views[id]
	if v == nil {
		return
	}
	snap := v.screen.Snapshot()
	// A watching terminal's mouse reaches no program: it focuses and scrolls history.
	wants := !m.att.readOnly && !v.exited() && v.scroll == nil && snap.Modes.Mouse != vterm.MouseNone &&
		v.content.contains(ev.X, ev.Y)
	if ev.Button == keys.WheelUp || ev.Button == keys.WheelDown {
		up := ev.Button == keys.WheelUp
		switch {
		case wants:
			m.forwardMouse(id, ev, false)
		case !m.att.readOnly && v.scroll == nil && !v.exited() && snap.AltScreen:
			// On the alternate screen of a program that does not report the mouse
			// (less, man, vim without mouse=a) the wheel becomes arrow keys, three a
			// notch, as tmux and most terminals do (xterm's alternateScroll, always on
			// here: the alternate screen has no history to scroll).
			arrow := keys.Key{Code: keys.KeyDown}
			if up {
				arrow.Code = keys.KeyUp
			}
			b := keys.Encode(arrow, keys.Mode{AppCursor: snap.Modes.AppCursor})
			for range wheelLines {
				m.s.Input(id, b)
			}
		default:
			m.wheel(v, up)
		}
		return
	}
	switch ev.Action {
	case keys.MousePress:
		m.setFocus(id)
		m.drag = nil
		if wants {
			m.mouseDown = id
			m.forwardMouse(id, ev, false)
		} else {
			m.copyMouse(ev)
		}
	default:
		if wants {
			m.forwardMouse(id, ev, false)
		}
	}
}

// forwardMouse sends ev to pane id in its local coordinates (clamped into the content
// area when clamp is set, for drags that leave the pane); the session encodes it as its
// program asked (nothing for events the program's mode does not report).
func (m *model) forwardMouse(id int, ev keys.Mouse, clamp bool) {
	v := m.views[id]
	if v == nil || v.exited() {
		return
	}
	x, y := ev.X-v.content.X, ev.Y-v.content.Y
	if clamp {
		x = min(max(x, 0), max(v.content.W-1, 0))
		y = min(max(y, 0), max(v.content.H-1, 0))
	}
	m.s.Mouse(id, ev, x, y)
}
