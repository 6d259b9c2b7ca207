package ui

import (
	"fmt"
	"slices"
	"unicode"

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
		m.helpKey(k)
		return nil
	case modePrefix:
		m.mode = modeNormal
		m.fr.invalidate()
		return m.runCommand(k)
	case modePrompt:
		if m.prefix.Matches(k) {
			// The prefix leaves the prompt for the key after it, as it leaves a search:
			// never taken as text with the next key typed into the line.
			m.mode, m.prompt = modePrefix, nil
			m.setStatus("")
			return nil
		}
		return m.promptKey(k)
	case modeSearch:
		if m.prefix.Matches(k) {
			m.mode = modePrefix // the prefix cancels the search
			m.fr.invalidate()
			return nil
		}
		m.searchKey(k)
		return nil
	case modeDigit:
		cmd, used := m.secondDigit(k)
		if used {
			return cmd
		}
		return tea.Batch(cmd, m.handleKey(k))
	case modeLink:
		m.mode = modeNormal
		m.fr.invalidate()
		if n, ok := digitKey(k); ok {
			return m.firstDigit(n, true)
		}
		if isEscape(k) {
			m.setStatus("") // cancelled quietly: the prompt goes too
			return nil
		}
		if r, ok := plainRune(k); ok && r == '$' {
			return m.linkBudgetPrompt() // the spend budget of the focused pane's link
		}
		if r, ok := plainRune(k); ok && r != '0' && r != ' ' && unicode.IsPrint(r) {
			return m.linkNamePrompt(r) // a member of another session: NAME@SESSION
		}
		m.setStatus("link cancelled")
		return nil
	}
	if m.status.text != "" && (m.status.scope != scopeDropped || m.prefix.Matches(k)) {
		m.setStatus("") // what typing into nowhere was told stays while it goes on
	}
	if m.prefix.Matches(k) {
		m.mode = modePrefix
		m.fr.invalidate()
		return nil
	}
	if m.diffv != nil {
		m.diffKey(k)
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

// watchable reports whether a read-only terminal may run act: the ones that change only
// this terminal's own view (focus, zoom, scrolling and copy mode, the relay log, help,
// a diff), never the session.
func watchable(act command) bool {
	switch act {
	case actFocusN, actFocusDir, actFocusNext, actZoom, actScroll, actRelayLog, actHelp, actDiff:
		return true
	}
	return false
}

// dropped tells a read-only terminal, once, that what it types reaches no pane.
func (m *model) dropped() {
	if m.att.toldDropped {
		return
	}
	m.att.toldDropped = true
	m.setHint(fmt.Sprintf("read-only: what you type reaches no pane (%s ? what this terminal may do, %s d detaches)",
		prefixLabel(m.cfg.PrefixSpec), prefixLabel(m.cfg.PrefixSpec)), scopeDropped, 0)
}

// forwardKey sends k to the focused pane; the session encodes it for the modes its
// program set and tells the relay a person typed there (a draft holds deliveries).
func (m *model) forwardKey(k keys.Key) tea.Cmd {
	if m.att.readOnly {
		m.dropped()
		return nil
	}
	v := m.focused()
	if v == nil {
		return nil
	}
	if v.exited() {
		m.setStatus(fmt.Sprintf("pane %d has exited: %s R restarts it, %s x closes it", m.focus, prefixLabel(m.cfg.PrefixSpec), prefixLabel(m.cfg.PrefixSpec)))
		return nil
	}
	m.s.Key(m.focus, k)
	m.pace.expectEcho(m.focus, m.now())
	for _, id := range m.syncTargets() {
		if id != m.focus {
			m.s.Key(id, k)
		}
	}
	return nil
}

// handlePaste delivers a paste to the focused pane (the session makes it one bracketed
// paste when its program enabled mode 2004). A pending prefix, question or help is
// cancelled first: a paste is never swallowed by a prompt.
func (m *model) handlePaste(ev keys.Paste) tea.Cmd {
	if m.mode == modePrompt {
		m.promptPaste(ev.Text)
		return nil
	}
	if m.mode != modeNormal {
		m.mode, m.confirm = modeNormal, nil
		m.fr.invalidate()
	}
	if m.att.readOnly {
		m.dropped()
		return nil
	}
	v := m.focused()
	if v == nil || v.exited() {
		return nil
	}
	if v.scroll != nil {
		m.leaveScroll(v)
	}
	if m.logv.open {
		m.toggleLog() // the paste goes to the pane, whose input row the log covered
	}
	m.s.Paste(m.focus, ev.Text)
	m.pace.expectEcho(m.focus, m.now())
	for _, id := range m.syncTargets() {
		if id != m.focus {
			m.s.Paste(id, ev.Text)
		}
	}
	return nil
}

// runCommand runs the command bound to k after the prefix.
func (m *model) runCommand(k keys.Key) tea.Cmd {
	if isEscape(k) {
		return nil // prefix then Esc: cancelled, nothing sent, nothing said
	}
	act, arg, ok := bound(m.cfg.Bindings, k)
	if !ok {
		act, arg, ok = lookup(k, m.prefix)
	}
	if !ok {
		m.setStatus(fmt.Sprintf("no command on that key: %s ? lists them", prefixLabel(m.cfg.PrefixSpec)))
		return nil
	}
	if m.att.readOnly {
		switch {
		case act == actQuit, act == actDetach:
			return m.detach() // a watching terminal ends nothing: it leaves
		case !watchable(act):
			m.setStatus(fmt.Sprintf("read-only: that would change the session; this terminal only looks (%s d detaches)", prefixLabel(m.cfg.PrefixSpec)))
			return nil
		}
	}
	switch act {
	case actFocusN:
		return m.firstDigit(arg, false)
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
		hint := fmt.Sprintf("link with pane: %s", m.paneRange())
		if m.s.Meshed() {
			hint += ", or another session's member: NAME@SESSION"
		}
		if v := m.focused(); v != nil && v.member.Group != 0 {
			hint += "; $ sets its link's spend budget"
		}
		m.setStatus(hint)
	case actLinkAll:
		return m.linkAll()
	case actUnlink:
		return m.unlink()
	case actHold:
		return m.toggleHold()
	case actAddress:
		return m.toggleAddress()
	case actBrief:
		return m.rebrief()
	case actRelayLog:
		m.toggleLog()
	case actNewPane:
		m.newPanePrompt()
	case actRespawn:
		return m.respawnFocused()
	case actRename:
		m.renamePrompt()
	case actLayout:
		m.nextLayout()
	case actSwapPrev:
		m.swapFocused(arg)
	case actSync:
		m.toggleSync()
	case actShare:
		m.changeShare(direction(arg))
	case actDiff:
		return m.openDiff()
	case actZoom:
		m.zoomed = !m.zoomed && len(m.order) > 1
		m.relayout()
	case actScroll:
		if v := m.views[m.focus]; v != nil {
			m.enterScroll(v)
		}
	case actHelp:
		m.mode = modeHelp
		m.helpTop = 0
	case actClose:
		if v := m.focused(); v != nil {
			id := m.focus
			if v.exited() { // nothing runs there to lose: no question
				return m.closePane(id)
			}
			m.ask(fmt.Sprintf("close pane %d %s? (y/n)", id, v.member.Name), func() tea.Cmd { return m.closePane(id) })
		}
	case actQuit:
		if m.att.detachable {
			m.confirm = &confirmation{prompt: fmt.Sprintf("end session %s and every agent? y: end, d: detach, n: cancel", m.att.name), yes: m.quit, detach: m.detach}
			m.mode = modeConfirm
			m.fr.invalidate()
			return nil
		}
		m.ask("quit agentmux? (y/n)", m.quit)
	case actDetach:
		if m.att.detachable {
			return m.detach()
		}
		m.setStatus("this session runs inside this terminal: it cannot detach (prefix q quits)")
	case actSendPrefix:
		return m.forwardKey(k)
	}
	return nil
}

// focusNext moves the focus to the next pane by number, wrapping around.
func (m *model) focusNext() {
	for i, id := range m.order {
		if id == m.focus {
			m.setFocus(m.order[(i+1)%len(m.order)])
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
	m.fr.invalidate()
}

// answerConfirm runs the pending question's action on y/Y; any other key cancels it.
func (m *model) answerConfirm(k keys.Key) tea.Cmd {
	c := m.confirm
	m.mode, m.confirm = modeNormal, nil
	m.setStatus("") // what the line said before the question (link mode's reminder) is over
	m.fr.invalidate()
	r, ok := plainRune(k)
	switch {
	case !ok || c == nil:
	case r == 'y' || r == 'Y':
		return c.yes()
	case (r == 'd' || r == 'D') && c.detach != nil:
		return c.detach()
	case (r == 'f' || r == 'F') && c.fresh != nil:
		return c.fresh()
	}
	return nil
}

// closePane closes pane id in the session (its process group ends in the background)
// and re-lays out the rest; closing the last pane quits.
func (m *model) closePane(id int) tea.Cmd {
	v := m.views[id]
	if v == nil {
		return nil
	}
	if err := m.s.Close(id); err != nil {
		m.setStatus(err.Error())
		return nil
	}
	m.dropView(id)
	m.setStatus(fmt.Sprintf("closed pane %d %s", id, v.member.Name))
	if len(m.order) == 0 {
		return m.end(EndClosed)
	}
	return nil
}

// dropView forgets pane id's view (it was closed, here or by another terminal attached
// to the session), moves the focus on and re-lays out the rest.
func (m *model) dropView(id int) {
	if m.views[id] == nil {
		return
	}
	next := 0
	for i, p := range m.order {
		if p == id && len(m.order) > 1 {
			next = m.order[(i+1)%len(m.order)]
		}
	}
	delete(m.views, id)
	m.order = slices.DeleteFunc(m.order, func(p int) bool { return p == id })
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
}

// isEscape reports whether k is a plain Esc.
func isEscape(k keys.Key) bool { return k.Code == keys.KeyEscape && k.Mod == 0 }

// paneRange says which pane numbers exist, for prompts: "1..3", "1..12".
func (m *model) paneRange() string {
	if len(m.order) == 0 {
		return "none"
	}
	return fmt.Sprintf("%d..%d", m.order[0], m.order[len(m.order)-1])
}
