package ui

import (
	"errors"
	"fmt"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/relay"
)

// errInputClosed says the outer terminal's input ended.
var errInputClosed = errors.New("terminal input closed")

// syncTimeout bounds how long a pane in synchronized output (mode 2026) may hold back
// its frame, as terminals do, so a program that never ends its update cannot freeze it.
const syncTimeout = 200 * time.Millisecond

// Update routes each message to its handler, then hands the frame to the screen writer
// if it changed. Every handler runs on bubbletea's event loop, the single owner of the
// model and the Host.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.dispatch(msg)
	m.present()
	return m, cmd
}

// dispatch calls the message's handler.
func (m *model) dispatch(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case inputMsg:
		return m.handleInput(msg)
	case paneOutputMsg:
		return m.handlePaneOutput(msg)
	case frameMsg:
		return m.handleFrame(msg)
	case paneExitedMsg:
		return m.handlePaneExited(msg)
	case paneClosedMsg:
		return m.handlePaneClosed(msg)
	case tea.WindowSizeMsg:
		return m.handleWindowSize(msg)
	case relayWakeMsg:
		return m.handleRelayWake(msg)
	case fatalMsg:
		return m.handleFatal(msg)
	}
	return nil
}

// handleInput handles one read's worth of outer-terminal events, in order, then re-arms
// the input wait.
func (m *model) handleInput(msg inputMsg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(msg.Events)+1)
	for _, ev := range msg.Events {
		switch ev := ev.(type) {
		case keys.Key:
			cmds = append(cmds, m.handleKey(ev))
		case keys.Paste:
			cmds = append(cmds, m.handlePaste(ev))
		case keys.Mouse:
			cmds = append(cmds, m.handleMouse(ev))
		case keys.Focus:
			m.handleFocus(ev)
		case keys.Reply:
			m.handleReply(ev)
		}
	}
	switch {
	case msg.Err != nil && (errors.Is(msg.Err, io.EOF) || errors.Is(msg.Err, errInputClosed)):
		m.log.Info("terminal input ended; quitting")
		return tea.Batch(append(cmds, m.quit())...)
	case msg.Err != nil:
		m.err = fmt.Errorf("read terminal input: %w", msg.Err)
		return tea.Batch(append(cmds, m.quit())...)
	case !msg.replay && m.input != nil:
		cmds = append(cmds, waitForInput(m.input))
	}
	return tea.Batch(cmds...)
}

// handlePaneOutput marks a pane dirty and makes sure a frame is coming. Output is
// coalesced to the frame rate: the pane's wait is re-armed only when its snapshot is
// taken, so a flood costs one message per pane per frame.
//
// It is also the moment the relay hears that the pane printed (its quiet deadline's
// reset point, and where a turn's alternate-screen frames are gathered).
func (m *model) handlePaneOutput(msg paneOutputMsg) tea.Cmd {
	v := m.views[msg.ID]
	if v == nil {
		return nil
	}
	v.dirty, v.waiting = true, false
	if p := m.host.Pane(msg.ID); p != nil {
		m.checkAlerts(p, v)
	}
	if m.echoPane == msg.ID && !m.now().After(m.echoBy) {
		return tea.Batch(m.relayEvent(relay.Output{Pane: msg.ID}), m.scheduleEcho())
	}
	return tea.Batch(m.relayEvent(relay.Output{Pane: msg.ID}), m.scheduleFrame())
}

// scheduleFrame draws now when the last frame is at least a frame interval old, and
// otherwise makes sure one tick comes at the end of the interval.
func (m *model) scheduleFrame() tea.Cmd {
	now := m.now()
	due := m.lastFrame.Add(frameInterval)
	if !due.After(now) {
		return m.takeFrame()
	}
	return m.armFrame(due, now)
}

// scheduleEcho is scheduleFrame for the first output of the pane a key was just sent
// to (its echo, most likely): the frame comes as soon as echoGap has passed since the
// last one, not a whole frame interval. Each forwarded key or paste grants one such
// frame (takeFrame spends it), so a flood still draws at most frameInterval apart
// unless a person types, and then at most once per key.
func (m *model) scheduleEcho() tea.Cmd {
	now := m.now()
	due := m.lastFrame.Add(echoGap)
	if !due.After(now) {
		return m.takeFrame()
	}
	return m.armFrame(due, now)
}

// expectEcho grants pane id one early frame for output arriving within echoWindow: a
// key or paste was just written to it. A pane already marked dirty for the next frame
// has no output wait outstanding (waits are re-armed when its snapshot is taken), so
// its wait is re-armed now, or the echo would only be seen at the next frame tick.
func (m *model) expectEcho(id int) tea.Cmd {
	m.echoPane, m.echoBy = id, m.now().Add(echoWindow)
	p, v := m.host.Pane(id), m.views[id]
	if p == nil || v == nil {
		return nil
	}
	return m.armOutput(p, v)
}

// armFrame arms a frame tick at due unless one no later than that is already coming.
func (m *model) armFrame(due, now time.Time) tea.Cmd {
	if m.frameArmed && !m.frameAt.After(due) {
		return nil
	}
	m.frameArmed, m.frameAt = true, due
	return frameAfter(due.Sub(now), due)
}

// handleFrame is the frame tick.
func (m *model) handleFrame(msg frameMsg) tea.Cmd {
	if msg.at.Equal(m.frameAt) {
		m.frameArmed = false
	}
	return m.takeFrame()
}

// takeFrame snapshots every dirty pane and re-arms its output wait. A pane in the middle
// of a synchronized update keeps its previous picture until the update ends (or
// syncTimeout passes).
func (m *model) takeFrame() tea.Cmd {
	now := m.now()
	m.lastFrame = now
	m.echoPane = 0 // the echo credit is spent by any frame
	var cmds []tea.Cmd
	var retry time.Time
	for _, p := range m.host.Panes() {
		v := m.views[p.ID]
		if v == nil || !v.dirty {
			continue
		}
		snap := p.Term.Snapshot()
		if snap.Modes.SyncOutput && !p.Exited {
			if v.syncSince.IsZero() {
				v.syncSince = now
			}
			if end := v.syncSince.Add(syncTimeout); end.After(now) {
				if retry.IsZero() || end.Before(retry) {
					retry = end
				}
				cmds = append(cmds, m.armOutput(p, v))
				continue
			}
		}
		v.syncSince = time.Time{}
		v.dirty = false
		if v.snap == nil || snap.Seq != v.snap.Seq {
			v.snap = snap
			v.stale = true
			m.frameOK = false
		}
		cmds = append(cmds, m.armOutput(p, v))
	}
	if !retry.IsZero() {
		cmds = append(cmds, m.armFrame(retry, now))
	}
	return tea.Batch(cmds...)
}

// armOutput re-arms pane p's output wait unless one is outstanding or the pane is done.
func (m *model) armOutput(p *Pane, v *paneView) tea.Cmd {
	if v.waiting || p.Exited {
		return nil
	}
	v.waiting = true
	return waitForOutput(p.ID, p.Proc.Updates(), p.Proc.Done())
}

// handlePaneExited keeps the pane on screen with its exit code until it is closed.
func (m *model) handlePaneExited(msg paneExitedMsg) tea.Cmd {
	p := m.host.Pane(msg.ID)
	v := m.views[msg.ID]
	if p == nil || v == nil {
		return nil
	}
	m.host.MarkExited(msg.ID, msg.Code)
	v.dirty, v.stale = true, true
	m.frameOK = false
	m.rl.exit(msg.ID, m.now())
	wake := m.afterRelay()
	m.setStatus(fmt.Sprintf("pane %d %s %s: %s x closes it", p.ID, p.Name, ptyhost.ExitStatus(msg.Code), prefixLabel(m.cfg.PrefixSpec)))
	return tea.Batch(wake, m.scheduleFrame())
}

// handlePaneClosed logs how a closed pane's process group ended.
func (m *model) handlePaneClosed(msg paneClosedMsg) tea.Cmd {
	if msg.Err != nil {
		m.log.Warn("close pane", "pane", msg.ID, "err", msg.Err)
	}
	return nil
}

// handleWindowSize re-lays out every pane for the outer terminal's new size.
func (m *model) handleWindowSize(msg tea.WindowSizeMsg) tea.Cmd {
	if msg.Width == m.width && msg.Height == m.height {
		return nil
	}
	m.width, m.height = max(msg.Width, 1), max(msg.Height, 1)
	m.relayout()
	return nil
}

// handleFatal ends the program with the error (a panic caught in a goroutine).
func (m *model) handleFatal(msg fatalMsg) tea.Cmd {
	m.err = msg.Err
	return m.quit()
}
