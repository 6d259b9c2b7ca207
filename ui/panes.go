package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// This file is panes coming and going while the ui runs: a new pane (prefix c, or one
// another client started), a respawn (prefix R), a rename (prefix ,), the layout cycled
// (prefix space), panes swapped (prefix { and }), and synchronized typing (prefix S).

// linePrompt is a line of text being typed on the status line (modePrompt): a new
// pane's command, a pane's new name.
type linePrompt struct {
	label string
	buf   []rune
	// history is the lines entered before at this prompt, oldest first; at is the one
	// shown (len(history): the line being typed).
	history *[]string
	at      int
	draft   []rune // the line being typed, while ↑ shows older ones
	done    func(text string) tea.Cmd
	// err is why the line last entered was refused (refuse): shown beside it until the
	// line changes; the prompt stays open, so the next Esc cancels it and reaches no pane.
	err string
}

// openPrompt puts a prompt on the status line with text already typed.
func (m *model) openPrompt(label, text string, history *[]string, done func(string) tea.Cmd) *linePrompt {
	p := &linePrompt{label: label, buf: []rune(text), history: history, done: done}
	if history != nil {
		p.at = len(*history)
	}
	m.prompt = p
	m.mode = modePrompt
	m.setStatus("") // the hint that led here (link with pane: …) is the prompt's now
	return p
}

// refuse keeps prompt p open with the line it took and why it was refused, for the
// person to fix or cancel.
func (m *model) refuse(p *linePrompt, why string) {
	p.err = why
	m.prompt, m.mode = p, modePrompt
	m.fr.invalidate()
}

// promptKey edits the prompt's line: Enter takes it, Esc cancels, ↑/↓ walk its history.
func (m *model) promptKey(k keys.Key) tea.Cmd {
	p := m.prompt
	m.fr.invalidate()
	if p != nil && !(k.Code == keys.KeyEnter && k.Mod == 0) {
		p.err = "" // the line changes, or the prompt goes
	}
	switch {
	case p == nil:
		m.mode = modeNormal
	case isEscape(k), k.Code == keys.KeyRune && k.Mod == keys.ModCtrl && (k.Rune == 'c' || k.Rune == 'g'):
		m.mode, m.prompt = modeNormal, nil
		m.setStatus("")
	case k.Code == keys.KeyEnter && k.Mod == 0:
		m.mode, m.prompt = modeNormal, nil
		text := string(p.buf)
		if p.history != nil && text != "" && (len(*p.history) == 0 || (*p.history)[len(*p.history)-1] != text) {
			*p.history = append(*p.history, text)
		}
		return p.done(text)
	case k.Code == keys.KeyBackspace:
		if len(p.buf) > 0 {
			p.buf = p.buf[:len(p.buf)-1]
		}
	case k.Code == keys.KeyRune && k.Mod == keys.ModCtrl && k.Rune == 'u':
		p.buf = nil
	case k.Code == keys.KeyUp && p.history != nil && p.at > 0:
		if p.at == len(*p.history) {
			p.draft = p.buf
		}
		p.at--
		p.buf = []rune((*p.history)[p.at])
	case k.Code == keys.KeyDown && p.history != nil && p.at < len(*p.history):
		p.at++
		if p.at == len(*p.history) {
			p.buf = p.draft
		} else {
			p.buf = []rune((*p.history)[p.at])
		}
	default:
		if r, ok := plainRune(k); ok && unicode.IsPrint(r) {
			p.buf = append(slices.Clone(p.buf), r)
		}
	}
	return nil
}

// promptPaste adds a paste's first line to the prompt.
func (m *model) promptPaste(text string) {
	for _, r := range text {
		if r == '\n' || r == '\r' {
			break
		}
		if unicode.IsPrint(r) {
			m.prompt.buf = append(m.prompt.buf, r)
		}
	}
	m.fr.invalidate()
}

// promptLine is the prompt as the status line shows it.
func (pi *promptInput) promptLine() string {
	if pi.prompt == nil {
		return ""
	}
	if p := pi.prompt; p.err != "" {
		// The error first, where a narrow status line still shows it; the line after.
		name, _, _ := strings.Cut(strings.TrimSuffix(strings.TrimSpace(p.label), ":"), " (")
		return " " + name + ": " + p.err + " · Esc cancels │ " + string(p.buf) + "▏"
	}
	return " " + pi.prompt.label + string(pi.prompt.buf) + "▏ Enter · Esc cancels"
}

// newPanePrompt asks for a new pane's command line (prefix c).
func (m *model) newPanePrompt() {
	var p *linePrompt
	p = m.openPrompt("new pane ([--worktree] [--cwd DIR] NAME=COMMAND): ", "", &m.newHistory, func(line string) tea.Cmd {
		if line == "" {
			return nil
		}
		if m.cfg.ParsePane == nil {
			m.setStatus("new pane: this session cannot read a command line")
			return nil
		}
		spec, err := m.cfg.ParsePane(line)
		if err != nil {
			m.refuse(p, err.Error())
			return nil
		}
		id, err := m.s.Add(spec)
		if err != nil {
			m.refuse(p, err.Error())
			if spec.Tree != nil && m.cfg.Closed != nil { // its worktree goes back (git: off this goroutine)
				closed := m.cfg.Closed
				return func() tea.Msg { closed(spec); return nil }
			}
			return nil
		}
		if mb, ok := m.s.Member(id); ok {
			m.addView(mb)
		}
		m.unzoom()
		m.setFocus(id)
		if m.cfg.Notice != nil {
			if n := m.cfg.Notice(); n != "" { // a kept worktree taken back
				m.setStatus(n)
			}
		}
		return nil
	})
}

// addView gives a pane the ui has not seen (started by prefix c, or by another client)
// a view and a place in the layout.
func (m *model) addView(mb session.Member) {
	if mb.External || m.views[mb.Pane] != nil {
		return
	}
	sc := m.s.Screen(mb.Pane)
	if sc == nil {
		return // closed meanwhile
	}
	m.views[mb.Pane] = &paneView{member: mb, screen: sc, snap: sc.Snapshot(), stale: true, dirty: true}
	m.order = append(m.order, mb.Pane)
	slices.Sort(m.order)
	if m.focus == 0 {
		m.focus = mb.Pane
	}
	m.relayout()
}

// respawnFocused starts the focused pane's program again (prefix R), asking first when
// it still runs. A pane of a restored session whose command resumes its agent's
// conversation (or stands for a program that could not start) asks either way: y
// starts that command again, f starts the program fresh, on a new conversation.
func (m *model) respawnFocused() tea.Cmd {
	v := m.focused()
	if v == nil {
		return nil
	}
	id := m.focus
	do := func(kill, fresh bool) tea.Cmd {
		respawn, how := m.s.Respawn, "respawned"
		if fresh {
			respawn, how = m.s.RespawnFresh, "started fresh"
		}
		if err := respawn(id, kill); err != nil {
			m.setStatus(err.Error())
			return nil
		}
		v.dirty, v.stale = true, true
		if mb, ok := m.s.Member(id); ok {
			v.member = mb
		}
		m.setStatus(fmt.Sprintf("pane %d %s %s", id, v.member.Name, how))
		m.handleOutput(id, false)
		return nil
	}
	kill := !v.exited()
	if v.member.Resumes {
		what := "has exited"
		if kill {
			what = "still runs (it ends first)"
		}
		m.confirm = &confirmation{
			prompt: fmt.Sprintf("pane %d %s %s: y: resume its conversation again, f: start it fresh (a new conversation), n: cancel", id, v.member.Name, what),
			yes:    func() tea.Cmd { return do(kill, false) },
			fresh:  func() tea.Cmd { return do(kill, true) },
		}
		m.mode = modeConfirm
		m.fr.invalidate()
		return nil
	}
	if !kill {
		return do(false, false)
	}
	m.ask(fmt.Sprintf("pane %d %s still runs: end it and start it again? (y/n)", id, v.member.Name), func() tea.Cmd { return do(true, false) })
	return nil
}

// renamePrompt asks for the focused pane's new name (prefix ,).
func (m *model) renamePrompt() {
	v := m.focused()
	if v == nil {
		return
	}
	id := m.focus
	var p *linePrompt
	p = m.openPrompt(fmt.Sprintf("rename pane %d: ", id), v.member.Name, nil, func(name string) tea.Cmd {
		if name == "" || name == v.member.Name {
			return nil
		}
		if err := m.s.Rename(id, name); err != nil {
			m.refuse(p, err.Error()) // open still: a retry goes to the prompt, not the agent
			return nil
		}
		if mb, ok := m.s.Member(id); ok {
			v.member = mb
		}
		m.fr.invalidate()
		return nil
	})
}

// layoutCycle is the order prefix space walks the layouts in.
var layoutCycle = []LayoutKind{LayoutAuto, LayoutColumns, LayoutRows, LayoutTiled}

// nextLayout switches to the next layout (prefix space).
func (m *model) nextLayout() {
	i := slices.Index(layoutCycle, m.cfg.Layout)
	m.cfg.Layout = layoutCycle[(i+1)%len(layoutCycle)]
	m.zoomed = false
	m.relayout()
	m.setStatus("layout: " + m.cfg.Layout.String())
}

// placed returns the panes in the order the layout places them: by number, except
// where prefix { or } swapped them.
func (l *paneLayout) placed() []int {
	out := slices.DeleteFunc(slices.Clone(l.slots), func(id int) bool { return l.views[id] == nil })
	for _, id := range l.order {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	l.slots = out
	return out
}

// swapFocused swaps the focused pane's place with its previous (d -1) or next (d 1)
// neighbour's, wrapping around (prefix { and }).
func (m *model) swapFocused(d int) {
	order := m.placed()
	i := slices.Index(order, m.focus)
	if i < 0 || len(order) < 2 {
		return
	}
	j := (i + d + len(order)) % len(order)
	order[i], order[j] = order[j], order[i]
	m.slots = order
	m.relayout()
}

// toggleSync turns synchronized typing on or off (prefix S): with it on, what the
// person types goes to every running pane.
func (m *model) toggleSync() {
	m.sync = !m.sync
	m.fr.invalidate()
	for _, v := range m.views {
		v.borderKey = borderKey{} // every border says it
	}
	if m.sync {
		m.setStatus("synchronized typing on: keys go to every pane (prefix S turns it off)")
	} else {
		m.setStatus("synchronized typing off")
	}
}

// syncTargets are the panes a key goes to: every running pane while synchronized
// typing is on, else none (the focused pane alone).
func (m *model) syncTargets() []int {
	if !m.sync {
		return nil
	}
	var ids []int
	for _, id := range m.order {
		if v := m.views[id]; v != nil && !v.exited() {
			ids = append(ids, id)
		}
	}
	return ids
}
