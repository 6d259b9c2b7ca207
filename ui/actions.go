package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
)

// This file is the prefix-key state machine and what its commands do. Everything that is
// not the prefix or a command goes to the focused pane untouched.

// handleKey runs one key through the state machine.
func (m *model) handleKey(k keys.Key) tea.Cmd {
	if k.Event == keys.KeyRelease {
		// The outer terminal is asked for disambiguation only (kitty flag 1), never for
		// release events: a stray one has nowhere meaningful to go.
		return nil
	}
	if esc, rest, ok := keys.SplitEscape(k); ok && !m.prefix.Matches(k) && m.prefix.Matches(rest) {
		// Esc and the prefix typed together read as Alt+prefix (ESC, then the prefix's
		// byte): take them as the two presses they are.
		return tea.Batch(m.handleKey(esc), m.handleKey(rest))
	}
	switch m.mode {
	case modeConfirm:
		return m.answerConfirm(k)
	case modeHelp:
		m.mode = modeNormal
		m.frameOK = false
		if m.prefix.Matches(k) {
			m.mode = modePrefix
		}
		return nil
	case modePrefix:
		m.mode = modeNormal
		m.frameOK = false
		return m.runCommand(k)
	case modeLink:
		m.mode = modeNormal
		m.frameOK = false
		if n, ok := digitKey(k); ok {
			return m.linkWith(n)
		}
		m.setStatus("link cancelled")
		return nil
	}
	if m.status != "" {
		m.setStatus("")
	}
	if m.prefix.Matches(k) {
		m.mode = modePrefix
		m.frameOK = false
		return nil
	}
	if m.logv.open {
		m.logKey(k)
		return nil
	}
	if v := m.views[m.focus]; v != nil && v.scroll != nil {
		m.scrollKey(v, k)
		return nil
	}
	return m.forwardKey(k)
}

// forwardKey sends k to the focused pane, encoded for the modes its program set now,
// and tells the relay a person typed there (its draft holds deliveries into the pane).
func (m *model) forwardKey(k keys.Key) tea.Cmd {
	p := m.focusedPane()
	if p == nil {
		return nil
	}
	if p.Exited {
		m.setStatus(fmt.Sprintf("pane %d has exited: %s x closes it", p.ID, prefixLabel(m.cfg.PrefixSpec)))
		return nil
	}
	md := p.Term.Snapshot().Modes
	mode := keys.Mode{AppCursor: md.AppCursor, AppKeypad: md.AppKeypad}
	if m.host.KittyKeyboard() {
		mode.KittyFlags = md.KittyFlags
	}
	m.toPane(p.ID, keys.Encode(k, mode))
	echo := m.expectEcho(p.ID)
	m.rl.key(p.ID, k, m.now())
	return tea.Batch(echo, m.afterRelay())
}

// toPane writes what the person sends to pane id (keys, pastes, mouse and focus reports)
// through the relay wire's input gate, so it never lands inside a delivery the relay has
// typed but not yet submitted.
func (m *model) toPane(id int, b []byte) { m.rl.input(id, b) }

// handlePaste delivers a paste to the focused pane as one bracketed paste when its
// program enabled mode 2004, as plain bytes otherwise. A pending prefix, question or
// help is cancelled first: a paste is never swallowed by a prompt.
func (m *model) handlePaste(ev keys.Paste) tea.Cmd {
	if m.mode != modeNormal {
		m.mode, m.confirm = modeNormal, nil
		m.frameOK = false
	}
	p := m.focusedPane()
	if p == nil || p.Exited {
		return nil
	}
	if v := m.views[p.ID]; v != nil && v.scroll != nil {
		m.leaveScroll(v)
	}
	if m.logv.open {
		m.toggleLog() // the paste goes to the pane, whose input row the log covered
	}
	m.toPane(p.ID, keys.EncodePaste(ev.Text, p.Term.Snapshot().Modes.BracketedPaste))
	echo := m.expectEcho(p.ID)
	m.rl.paste(p.ID, ev.Text, m.now())
	return tea.Batch(echo, m.afterRelay())
}

// handleFocus forwards the outer terminal's focus change to every pane whose program
// asked for focus events (they are all on screen; moving between panes sends nothing).
func (m *model) handleFocus(ev keys.Focus) {
	for _, p := range m.host.Panes() {
		if !p.Exited && p.Term.Snapshot().Modes.FocusEvents {
			m.toPane(p.ID, keys.EncodeFocus(ev.In))
		}
	}
}

// handleReply applies an answer from the outer terminal: its default colours go to every
// emulator, and a kitty keyboard answer turns on kitty encoding for panes that push it.
func (m *model) handleReply(ev keys.Reply) {
	r := parseReply(ev.Raw)
	switch r.kind {
	case replyFG, replyBG:
		c := m.host.colors
		if r.kind == replyFG {
			c.FG = r.color
		} else {
			c.BG = r.color
		}
		m.host.SetColors(c)
	case replyKitty:
		if !m.host.KittyKeyboard() {
			m.host.SetKittyKeyboard(true)
		}
	}
}

// runCommand runs the command bound to k after the prefix.
func (m *model) runCommand(k keys.Key) tea.Cmd {
	act, arg, ok := lookup(k, m.prefix)
	if !ok {
		m.setStatus(fmt.Sprintf("no command on that key: %s ? lists them", prefixLabel(m.cfg.PrefixSpec)))
		return nil
	}
	switch act {
	case actFocusN:
		if m.host.Pane(arg) == nil {
			m.setStatus(fmt.Sprintf("no pane %d", arg))
			return nil
		}
		m.setFocus(arg)
	case actFocusDir:
		area := rect{0, 0, m.width, max(m.height-1, 0)}
		if to := neighbor(m.tree.rects(area), m.focus, direction(arg)); to != m.focus {
			m.unzoom()
			m.setFocus(to)
		}
	case actFocusNext:
		m.focusNext()
	case actLink:
		m.mode = modeLink
		m.setStatus("link with pane: 1..9")
	case actLinkAll:
		return m.linkAll()
	case actUnlink:
		return m.unlink()
	case actHold:
		return m.toggleHold()
	case actRelayLog:
		m.toggleLog()
	case actZoom:
		m.zoomed = !m.zoomed && len(m.host.Panes()) > 1
		m.relayout()
	case actScroll:
		if v := m.views[m.focus]; v != nil {
			m.enterScroll(v)
		}
	case actHelp:
		m.mode = modeHelp
	case actClose:
		if p := m.focusedPane(); p != nil {
			id := p.ID
			m.ask(fmt.Sprintf("close pane %d %s? (y/n)", p.ID, p.Name), func() tea.Cmd { return m.closePane(id) })
		}
	case actQuit:
		m.ask("quit agentmux? (y/n)", m.quit)
	case actSendPrefix:
		return m.forwardKey(k)
	}
	return nil
}

// focusNext moves the focus to the next pane by number, wrapping around.
func (m *model) focusNext() {
	panes := m.host.Panes()
	for i, p := range panes {
		if p.ID == m.focus {
			m.setFocus(panes[(i+1)%len(panes)].ID)
			return
		}
	}
}

// unzoom leaves zoom, if on.
func (m *model) unzoom() {
	if m.zoomed {
		m.zoomed = false
		m.relayout()
	}
}

// ask puts a y/n question on the status line; yes runs on "y".
func (m *model) ask(prompt string, yes func() tea.Cmd) {
	m.mode = modeConfirm
	m.confirm = &confirmation{prompt: prompt, yes: yes}
	m.frameOK = false
}

// answerConfirm runs the pending question's action on y/Y; any other key cancels it.
func (m *model) answerConfirm(k keys.Key) tea.Cmd {
	c := m.confirm
	m.mode, m.confirm = modeNormal, nil
	m.frameOK = false
	if r, ok := plainRune(k); ok && (r == 'y' || r == 'Y') && c != nil {
		return c.yes()
	}
	return nil
}

// closePane removes pane id, ends its process group in the background and re-lays out
// the rest; closing the last pane quits.
func (m *model) closePane(id int) tea.Cmd {
	panes := m.host.Panes()
	next := 0
	for i, p := range panes {
		if p.ID == id && len(panes) > 1 {
			next = panes[(i+1)%len(panes)].ID
		}
	}
	p := m.host.Remove(id)
	if p == nil {
		return nil
	}
	delete(m.views, id)
	m.zoomed = false
	if m.mouseDown == id {
		m.mouseDown = 0
	}
	if m.focus == id {
		m.focus = 0
		if next != 0 {
			m.focus = next
			m.views[next].stale = true
		}
	}
	m.relayout()
	m.rl.exit(p.ID, m.now())
	wake := m.afterRelay()
	m.setStatus(fmt.Sprintf("closed pane %d %s", p.ID, p.Name))
	cmd := tea.Batch(endProcess(p.ID, p.Proc), wake)
	if len(m.host.Panes()) == 0 {
		return tea.Sequence(cmd, m.quit())
	}
	return cmd
}
