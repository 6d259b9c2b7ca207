package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// This file is a pane's own working tree on screen: its branch and state on the border
// (read with git off the ui's goroutine when the pane settles), and prefix D's view of
// what its agent changed against the starting commit, scrollable, coloured here (git's
// text is an agent's: it is sanitized, never passed through).

// treeStateMsg carries a pane's tree state as git read it.
type treeStateMsg struct {
	pane int
	text string
}

// readTree reads pane v's tree state in the background (nil without a tree).
func readTree(v *paneView) tea.Cmd {
	ws, id := v.member.Tree, v.member.Pane
	if ws == nil {
		return nil
	}
	return func() tea.Msg {
		st, err := ws.Status()
		if err != nil {
			st = "state unknown"
		}
		return treeStateMsg{pane: id, text: st}
	}
}

// handleTreeState shows a tree's state on its border.
func (m *model) handleTreeState(msg treeStateMsg) {
	if v := m.views[msg.pane]; v != nil && v.treeState != msg.text {
		v.treeState = msg.text
		m.fr.invalidate()
	}
}

// folderLabel is what a pane's border says of its folder: its worktree's branch and
// state, or a folder of its own ("" for the session's).
func folderLabel(v *paneView) string {
	if t := v.member.Tree; t != nil {
		s := "⎇ " + t.Branch()
		if v.treeState != "" {
			s += " " + v.treeState
		}
		return s
	}
	if d := v.member.Dir; d != "" {
		return "in " + d
	}
	return ""
}

// diffView is prefix D's view of a pane's changes.
type diffView struct {
	title string
	lines []string // sanitized text lines
	top   int
}

// diffMsg carries a pane's diff as git gave it.
type diffMsg struct {
	pane int
	text string
	err  error
}

// openDiff asks git for the focused pane's changes (prefix D).
func (m *model) openDiff() tea.Cmd {
	v := m.focused()
	if v == nil {
		return nil
	}
	ws, id := v.member.Tree, m.focus
	if ws == nil {
		m.setStatus(fmt.Sprintf("pane %d has no worktree of its own (start it with --worktree)", id))
		return nil
	}
	m.setStatus("reading the diff…")
	return func() tea.Msg {
		text, err := ws.Diff(false)
		return diffMsg{pane: id, text: text, err: err}
	}
}

// handleDiff opens the diff view.
func (m *model) handleDiff(msg diffMsg) {
	if msg.err != nil {
		m.setStatus("diff: " + msg.err.Error())
		return
	}
	name := ""
	if v := m.views[msg.pane]; v != nil {
		name = v.member.Name
	}
	lines := strings.Split(strings.TrimRight(msg.text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = sanitize(strings.ReplaceAll(l, "\t", "    "))
	}
	m.diffv = &diffView{title: fmt.Sprintf(" diff of pane %d %s: ↑↓ PgUp/PgDn g/G, q/Esc closes ", msg.pane, sanitize(name)), lines: lines}
	m.setStatus("")
	m.fr.invalidate()
}

// diffKey scrolls or closes the diff view.
func (m *model) diffKey(k keys.Key) {
	d := m.diffv
	page := max(m.height-3, 1)
	r, isRune := plainRune(k)
	switch {
	case isEscape(k) || isRune && r == 'q':
		m.diffv = nil
	case k.Code == keys.KeyUp || isRune && r == 'k':
		d.top--
	case k.Code == keys.KeyDown || isRune && r == 'j':
		d.top++
	case k.Code == keys.KeyPgUp:
		d.top -= page
	case k.Code == keys.KeyPgDn || isRune && r == ' ':
		d.top += page
	case isRune && r == 'g':
		d.top = 0
	case isRune && r == 'G':
		d.top = len(d.lines)
	}
	if m.diffv != nil {
		d.top = max(min(d.top, len(d.lines)-page), 0)
	}
	m.fr.invalidate()
}

// overlayDiff draws the diff view over the panes (every row but the status line).
func (m *model) overlayDiff(lines []string) {
	d := m.diffv
	h := m.height - 1
	if h < 1 {
		return
	}
	lines[0] = "\x1b[7m" + pad(ansi.Truncate(d.title, m.width, ""), m.width) + "\x1b[0m"
	for y := 1; y < h; y++ {
		i := d.top + y - 1
		if i >= len(d.lines) {
			lines[y] = strings.Repeat(" ", m.width)
			continue
		}
		l := pad(ansi.Truncate(d.lines[i], m.width, ""), m.width)
		lines[y] = diffColor(d.lines[i]) + l + "\x1b[0m"
	}
}

// pad fills s with spaces to w columns.
func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
}

// diffColor is the colour of a diff line: additions green, removals red, hunks cyan,
// file headers bold.
func diffColor(l string) string {
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "diff --git"):
		return "\x1b[1m"
	case strings.HasPrefix(l, "+"):
		return "\x1b[32m"
	case strings.HasPrefix(l, "-"):
		return "\x1b[31m"
	case strings.HasPrefix(l, "@@"):
		return "\x1b[36m"
	}
	return "\x1b[0m"
}

// treeChanged reports whether a member change calls for reading its tree again: its
// program settled (idle, exited) or it appeared.
func treeChanged(old, now session.Member) bool {
	return now.Tree != nil && old.State != now.State && (now.State == session.Idle || now.State == session.Exited)
}
