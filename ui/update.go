package ui

import (
	"errors"
	"fmt"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"
)

// syncTimeout bounds how long a pane in synchronized output (mode 2026) may hold back
// its frame, as terminals do, so a program that never ends its update cannot freeze it.
const syncTimeout = 200 * time.Millisecond

// Update routes each message to its handler, then hands the frame to the screen writer
// if it changed. Every handler runs on bubbletea's event loop, the single owner of the
// model.
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
	case sessionMsg:
		return m.handleSession(msg)
	case frameMsg:
		return m.handleFrame(msg)
	case tea.WindowSizeMsg:
		return m.handleWindowSize(msg)
	case controlMsg:
		m.relayout() // this terminal now sets the panes' sizes
		return nil
	case fatalMsg:
		return m.handleFatal(msg)
	case digitTimeoutMsg:
		return m.handleDigitTimeout(msg)
	case treeStateMsg:
		m.handleTreeState(msg)
		return nil
	case diffMsg:
		m.handleDiff(msg)
		return nil
	}
	return nil
}

// handleInput handles one read's worth of outer-terminal events, in order, then re-arms
// the input wait.
func (m *model) handleInput(msg inputMsg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(msg.Events)+1)
	for _, ev := range msg.Events {
		switch ev.(type) {
		case keys.Key, keys.Paste, keys.Mouse:
			if m.att.active != nil && !m.att.readOnly {
				m.att.active()
			}
		}
		switch ev := ev.(type) {
		case keys.Key:
			cmds = append(cmds, m.handleKey(ev))
		case keys.Paste:
			cmds = append(cmds, m.handlePaste(ev))
		case keys.Mouse:
			m.handleMouse(ev)
		case keys.Focus:
			if !m.att.readOnly { // a watching terminal's focus is none of the programs'
				m.s.FocusReport(ev.In)
			}
		case keys.Reply:
			m.handleReply(ev)
		}
	}
	switch {
	case msg.Err != nil && (errors.Is(msg.Err, io.EOF) || errors.Is(msg.Err, errInputClosed)):
		m.log.Info("terminal input ended")
		return tea.Batch(append(cmds, m.end(EndGone))...)
	case msg.Err != nil:
		m.err = fmt.Errorf("read terminal input: %w", msg.Err)
		return tea.Batch(append(cmds, m.quit())...)
	}
	return tea.Batch(cmds...)
}

// handleReply applies an answer from the outer terminal that came after the start-up
// probe: new default colours go to every emulator, kitty support turns on kitty keys.
func (m *model) handleReply(r keys.Reply) {
	before := m.probed
	m.probed.Apply(r)
	if m.probed.Colors != before.Colors {
		m.s.SetColors(m.probed.Colors)
	}
	if m.probed.Kitty && !before.Kitty {
		m.s.SetKittyKeyboard(true)
	}
}

// handleSession handles the session's events, in order, then re-arms the wait.
func (m *model) handleSession(msg sessionMsg) tea.Cmd {
	if msg.Err != nil {
		m.err = fmt.Errorf("session: %w", msg.Err)
		return m.quit()
	}
	var cmds []tea.Cmd
	for _, ev := range msg.Events {
		switch ev := ev.(type) {
		case session.Output:
			m.handleOutput(ev.Pane, ev.Quiet)
		case session.MemberChanged:
			if v := m.views[ev.Member.Pane]; v != nil {
				m.noteNeedsYou(v.member.State, ev.Member)
				reshare := v.member.Share != ev.Member.Share
				if treeChanged(v.member, ev.Member) {
					v.member = ev.Member
					cmds = append(cmds, readTree(v))
				}
				v.member = ev.Member
				m.fr.invalidate()
				if reshare {
					m.relayout() // another terminal (or agentmux resize) changed its share
				}
			} else {
				m.addView(ev.Member) // another client started it
			}
		case session.Exit:
			m.handleExit(ev)
		case session.Closed:
			if ev.Done && ev.Err != nil {
				m.log.Warn("close pane", "pane", ev.Pane, "err", ev.Err)
			}
			if ev.Done && ev.Note != "" { // a worktree kept with the agent's work
				m.setStatus(ev.Note)
			}
			if !ev.Done && m.views[ev.Pane] != nil { // another terminal closed it
				m.dropView(ev.Pane)
				m.setStatus(fmt.Sprintf("pane %d was closed from another terminal", ev.Pane))
			}
		case session.Alert:
			m.handleAlert(ev)
		case session.Clipboard:
			m.handleClipboard(ev)
		case session.StatusChanged:
			m.relaySum = ev.Status.Summary
			m.fr.invalidate()
		case session.Notice:
			m.notice(ev.Entry.Note)
		case session.Delivery:
			if e := ev.Entry; e.Note == "brief" && e.Phase != session.Waiting {
				m.briefTyped(e.To)
			}
			if m.logv.open {
				m.fr.invalidate()
			}
		}
	}
	m.flushNeedsYou()
	return tea.Batch(cmds...)
}

// handleOutput marks a pane dirty and makes sure a frame is coming (the session already
// paces each pane's output; frames are paced across panes here).
func (m *model) handleOutput(id int, quiet bool) {
	v := m.views[id]
	if v == nil {
		return
	}
	v.dirty = true
	now := m.now()
	wasArmed := m.pace.armed
	drawNow, at, arm := m.pace.output(id, now, quiet)
	switch {
	case drawNow:
		if wasArmed && !m.pace.armed && m.ticks != nil {
			m.ticks.stop() // drawn at a pause: the tick for the held output is not needed
		}
		m.takeFrame(m.pace.echoFrame(now))
	case arm:
		m.armFrame(at.Sub(now))
	}
}

// armFrame arms the frame timer to fire in d (none in tests without a program: they
// deliver the frame themselves when the pacer's time comes).
func (m *model) armFrame(d time.Duration) {
	if m.ticks != nil {
		m.ticks.arm(d)
	}
}

// handleFrame is the frame timer's firing.
func (m *model) handleFrame(frameMsg) tea.Cmd {
	now := m.now()
	if !m.pace.tick(now) {
		return nil // armed again for later since it fired
	}
	m.takeFrame(m.pace.echoFrame(now))
	return nil
}

// takeFrame snapshots every dirty pane, or with echo set (an echo's early frame) only
// that pane: the others' output, a flood say, waits for the next full frame so the
// echo's frame stays small and cheap to compose and write. A pane in the middle of a
// synchronized update keeps its previous picture until the update ends (or syncTimeout
// passes).
func (m *model) takeFrame(echo int) {
	now := m.now()
	if echo != 0 {
		m.pace.tookEcho(now)
	} else {
		m.pace.took(now)
	}
	var retry time.Time
	for _, id := range m.order {
		v := m.views[id]
		if v == nil || !v.dirty {
			continue
		}
		if echo != 0 && id != echo {
			// left for the next full frame, which a tick brings
			if due := m.pace.lastFull.Add(m.pace.interval); retry.IsZero() || due.Before(retry) {
				retry = due
			}
			continue
		}
		snap := v.screen.Snapshot()
		if snap.Modes.SyncOutput && !v.exited() {
			if v.syncSince.IsZero() {
				v.syncSince = now
			}
			if end := v.syncSince.Add(syncTimeout); end.After(now) {
				if retry.IsZero() || end.Before(retry) {
					retry = end
				}
				continue
			}
		}
		v.syncSince = time.Time{}
		v.dirty = false
		if v.snap == nil || snap.Seq != v.snap.Seq {
			v.snap = snap
			v.stale = true
			m.fr.invalidate()
		}
	}
	if !retry.IsZero() && m.pace.arm(retry) {
		m.armFrame(retry.Sub(now))
	}
}

// handleExit keeps the pane on screen with its exit code until it is closed.
func (m *model) handleExit(ev session.Exit) {
	v := m.views[ev.Pane]
	if v == nil {
		return
	}
	v.member.State, v.member.Code = session.Exited, ev.Code
	v.dirty, v.stale = true, true
	m.setStatus(fmt.Sprintf("pane %d %s %s: %s R restarts it, %s x closes it", ev.Pane, v.member.Name, session.ExitText(ev.Code), prefixLabel(m.cfg.PrefixSpec), prefixLabel(m.cfg.PrefixSpec)))
	m.handleOutput(ev.Pane, true) // an exit ends the output: drawn at once, as a pause
}

// handleWindowSize re-lays out every pane for the outer terminal's new size, and has the
// next frame drawn whole.
// maxWidth and maxHeight bound the size the ui draws at (tty.MaxCols, tty.MaxRows).
const maxWidth, maxHeight = tty.MaxCols, tty.MaxRows

func (m *model) handleWindowSize(msg tea.WindowSizeMsg) tea.Cmd {
	if r, ok := m.scr.(interface{ Repaint() }); ok {
		// Every resize report redraws whole, also one that ends at the size already
		// drawn (reports coalesce): the terminal may have cut its picture meanwhile.
		r.Repaint()
	}
	w, h := min(max(msg.Width, 1), maxWidth), min(max(msg.Height, 1), maxHeight)
	if w == m.width && h == m.height {
		return nil
	}
	m.width, m.height = w, h
	m.relayout()
	return nil
}

// handleFatal ends the program with the error (a panic caught in a goroutine).
func (m *model) handleFatal(msg fatalMsg) tea.Cmd {
	m.err = msg.Err
	return m.quit()
}
