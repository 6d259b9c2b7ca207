package ui

import (
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/session"
)

// This file is the relay's prefix commands (l, L, u, p, a, b) and what a pane's border says
// about its member. The relay itself lives in the session; its notices, summary and
// member states arrive as events (update.go handleSession).

// linkWith links the focused pane with pane n (prefix l then N).
func (m *model) linkWith(n int) tea.Cmd {
	switch err := m.s.Link(m.focus, n); {
	case errors.Is(err, session.ErrShell):
		// A shell runs what it is typed: linked, an agent's answer becomes commands.
		// Only the person, asked by name, links one.
		focus := m.focus
		shell := focus
		if v := m.views[n]; v != nil && session.IsShell(v.member.Argv) {
			shell = n
		}
		name := ""
		if v := m.views[shell]; v != nil {
			name = v.member.Name
		}
		m.ask(fmt.Sprintf("pane %d %s runs a shell: linked, it runs agents' answers as commands. link it? (y/n)", shell, name), func() tea.Cmd {
			if err := m.s.LinkShell(focus, n); err != nil {
				m.setStatus(err.Error())
			}
			return nil
		})
	case errors.Is(err, session.ErrSelf):
		m.setStatus("a pane cannot be linked with itself: prefix l then another pane's number")
	case errors.Is(err, session.ErrNoPane):
		m.setStatus(fmt.Sprintf("no pane %d", n))
	case err != nil:
		m.setStatus(err.Error())
	}
	return nil
}

// linkNamePrompt asks on the status line for NAME@SESSION, a member of another session
// to link the focused pane with (prefix l then a letter, first, the prompt's first
// letter); in a session that joined no mesh it says so instead.
func (m *model) linkNamePrompt(first rune) tea.Cmd {
	if !m.s.Meshed() {
		m.setStatus("link with a member of another session: " + session.ErrNoMesh.Error() + "; prefix l then a number links a pane of this one")
		return nil
	}
	focus := m.focus
	label := fmt.Sprintf("link %d with: ", focus)
	if v := m.views[focus]; v != nil {
		label = fmt.Sprintf("link %d %s with: ", focus, v.member.Name)
	}
	m.openPrompt(label, string(first), &m.linkHistory, func(addr string) tea.Cmd {
		return m.linkAcross(focus, strings.TrimSpace(addr))
	})
	return nil
}

// linkBudgetPrompt asks on the status line for the spend budget of the focused pane's
// link (prefix l then $; the link prefix l or L made): tokens (300k, 1.5M) or dollars
// ($2), as --link-budget takes them. A bad one keeps the prompt open with the right
// forms; a budget under what the link spent severs it, as the relay log then says.
func (m *model) linkBudgetPrompt() tea.Cmd {
	focus := m.focus
	v := m.views[focus]
	if v == nil || v.member.Group == 0 {
		m.setStatus(fmt.Sprintf("pane %d is not linked: prefix l then a number links it, then prefix l $ sets the link's spend budget", focus))
		return nil
	}
	label := fmt.Sprintf("spend budget of %d %s's link (300k tokens or $2): ", focus, v.member.Name)
	var p *linePrompt
	p = m.openPrompt(label, "$", nil, func(text string) tea.Cmd {
		text = strings.TrimSpace(text)
		if text == "" || text == "$" {
			m.setStatus("budget unchanged")
			return nil
		}
		switch err := m.s.SetLinkBudget(focus, 0, text); {
		case errors.Is(err, session.ErrBudget):
			m.refuse(p, fmt.Sprintf("%q is no budget: tokens like 300k or dollars like $2", text))
		case errors.Is(err, session.ErrNotLinked):
			m.setStatus(fmt.Sprintf("pane %d is no longer linked: budget not set", focus))
		case err != nil:
			m.setStatus(err.Error())
		}
		return nil
	})
	return nil
}

// linkAcross links pane with addr, NAME@SESSION, a member of another session, as
// `agentmux link` does; a shell only once the person says y. The other side's answer
// (no such member there, refused) comes later, as a relay notice.
func (m *model) linkAcross(pane int, addr string) tea.Cmd {
	if addr == "" {
		m.setStatus("link cancelled")
		return nil
	}
	at := strings.LastIndexByte(addr, '@')
	switch {
	case at <= 0 || at == len(addr)-1:
		m.setStatus(fmt.Sprintf("link with %s: a member of another session is NAME@SESSION (prefix l then a number links a pane of this one)", addr))
		return nil
	case m.cfg.Session != "" && addr[at+1:] == m.cfg.Session:
		m.setStatus(fmt.Sprintf("link with %s: that is this session (prefix l then a number links a pane of this one)", addr))
		return nil
	}
	switch err := m.s.LinkAcross(pane, addr, false); {
	case errors.Is(err, session.ErrShell):
		name := ""
		if v := m.views[pane]; v != nil {
			name = v.member.Name
		}
		m.ask(fmt.Sprintf("pane %d %s runs a shell: linked, it runs %s's answers as commands. link it? (y/n)", pane, name, addr), func() tea.Cmd {
			if err := m.s.LinkAcross(pane, addr, true); err != nil {
				m.setStatus(err.Error())
			}
			return nil
		})
	case errors.Is(err, session.ErrNoPane):
		m.setStatus(fmt.Sprintf("link with %s: pane %d has exited", addr, pane))
	case err != nil:
		m.setStatus(err.Error())
	}
	return nil
}

// linkAll links every live pane but the shells into one group (prefix L); the relay's
// notice names the shells left out.
func (m *model) linkAll() tea.Cmd {
	if err := m.s.LinkAll(); err != nil {
		msg := "linking needs two running panes"
		if left := m.shellPanes(); left != "" {
			msg = "linking needs two running panes that are no shells (left out: " + left + ")"
		}
		m.setStatus(msg)
	}
	return nil
}

// shellPanes names the live panes that run a shell ("" when none): linking every pane
// leaves them out.
func (m *model) shellPanes() string {
	var out []string
	for _, id := range m.order {
		if v := m.views[id]; v != nil && !v.exited() && session.IsShell(v.member.Argv) {
			out = append(out, fmt.Sprintf("%d %s", id, v.member.Name))
		}
	}
	return strings.Join(out, ", ")
}

// unlink takes the focused pane out of its group (prefix u).
func (m *model) unlink() tea.Cmd {
	if err := m.s.Unlink(m.focus); err != nil {
		m.setStatus(fmt.Sprintf("pane %d is not linked", m.focus))
	}
	return nil
}

// toggleHold holds or releases deliveries into the focused pane (prefix p).
func (m *model) toggleHold() tea.Cmd {
	v := m.focused()
	if v == nil || v.exited() {
		return nil
	}
	mb, ok := m.s.Member(m.focus) // the session's word, not the mirror's: it may lag
	if !ok {
		return nil
	}
	var err error
	if mb.Held {
		err = m.s.Release(m.focus)
	} else {
		err = m.s.Hold(m.focus)
	}
	if err != nil {
		m.setStatus(err.Error())
	}
	return nil
}

// toggleAddress turns the focused pane's own addressing switch on or off (prefix a):
// with it on, its relay commands may reach panes it is not linked with.
func (m *model) toggleAddress() tea.Cmd {
	v := m.focused()
	if v == nil || v.exited() {
		return nil
	}
	if m.s.AddressAll() {
		m.setStatus("--address is on: every pane may address any pane")
		return nil
	}
	mb, ok := m.s.Member(m.focus) // the session's word, not the mirror's: it may lag
	if !ok {
		return nil
	}
	if err := m.s.Address(m.focus, !mb.Addressing); err != nil {
		m.setStatus(err.Error())
	}
	return nil
}

// rebrief queues the brief for the focused pane again (prefix b).
func (m *model) rebrief() tea.Cmd {
	v := m.focused()
	if v == nil || v.exited() {
		return nil
	}
	if err := m.s.Brief(m.focus); err != nil {
		m.setStatus(err.Error())
		return nil
	}
	m.setHint(fmt.Sprintf("brief for pane %d %s: typed once it is idle", m.focus, v.member.Name), scopeBrief, m.focus)
	return nil
}

// borderState is what a pane's border says about its member: running, idle, busy,
// needs you or exited (code), and whether it is linked, held, has deliveries waiting or
// its own addressing switch on, then what it spent (sessionAddress: --address, on for every pane, is not
// repeated on each border).
func borderState(mb session.Member, sessionAddress bool) (string, stateKind) {
	if mb.State == session.Exited {
		s := session.ExitText(mb.Code)
		if mb.Code != 0 {
			return s, kindExitedBad
		}
		return s, kindExited
	}
	word, kind := "running", kindRunning
	switch mb.State {
	case session.NeedsYou:
		word, kind = "needs you", kindNeedsYou
	case session.Busy:
		word, kind = "busy", kindBusy
	case session.Idle:
		word, kind = "idle", kindIdle
	}
	parts := []string{word}
	if mb.Group != 0 {
		parts = append(parts, "linked")
	}
	if mb.Held {
		parts = append(parts, "held")
	}
	if mb.Waiting > 0 {
		parts = append(parts, fmt.Sprintf("%d waiting", mb.Waiting))
	}
	if mb.Addressing && !sessionAddress {
		parts = append(parts, "addressing")
	}
	if sp := mb.Spend.Short(); sp != "" { // what it spent: "$0.42", "120k tok"
		parts = append(parts, sanitize(sp))
	}
	// What it asks comes last: a border too narrow for it keeps the rest (topBorder).
	// It is the program's text (its screen, or what its hook said): shown, never obeyed.
	if short := sanitize(mb.Asks.Short()); mb.State == session.NeedsYou && short != "" {
		parts = append(parts, clipRunes(short, maxAskTitle))
	}
	return strings.Join(parts, " · "), kind
}

// maxAskTitle bounds what a border says of a pane's question (the title is cut to
// the border's width besides: topBorder shows as much as fits, minAskShown at least).
const (
	maxAskTitle = 160
	minAskShown = 12
)

// clipRunes is s cut to n runes, "…" ending it when cut.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
