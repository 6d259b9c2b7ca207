package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// helpText renders the help box from the key map, so the help can never disagree with
// what the keys do.
func (m *model) helpText() string {
	pl := prefixLabel(m.cfg.PrefixSpec)
	width := 0
	for _, b := range keymap {
		width = max(width, ansi.StringWidth(b.label))
	}
	rows := []string{
		m.st.helpTitle.Render(fmt.Sprintf("agentmux keys: press %s, then", pl)),
		"",
	}
	for _, b := range keymap {
		label := b.label
		if b.act == actSendPrefix {
			label = pl
		}
		pad := strings.Repeat(" ", max(width-ansi.StringWidth(label), 0))
		rows = append(rows, "  "+m.st.helpKey.Render(label)+pad+"  "+b.desc)
	}
	rows = append(rows, "",
		"Everything else goes to the focused pane.",
		"Mouse: a click focuses a pane; the wheel scrolls its history.",
		"Any key closes this help.")
	return m.st.helpBox.Render(strings.Join(rows, "\n"))
}

// overlayHelp draws the help box over the middle of the pane area. The rows around it
// are redrawn clipped (never cut out of rendered bytes), so nothing of a pane can move
// the cursor into the box.
func (m *model) overlayHelp(lines []string) {
	box := strings.Split(m.helpText(), "\n")
	areaH := m.height - 1
	bw := 0
	for _, l := range box {
		bw = max(bw, ansi.StringWidth(l))
	}
	x0 := max((m.width-bw)/2, 0)
	y0 := max((areaH-len(box))/2, 0)
	var b strings.Builder
	for i, bl := range box {
		y := y0 + i
		if y >= areaH {
			break
		}
		bl = ansi.Truncate(bl, m.width-x0, "")
		end := x0 + ansi.StringWidth(bl)
		b.Reset()
		m.writeSpan(&b, y, 0, x0)
		b.WriteString(bl)
		m.writeSpan(&b, y, end, m.width)
		lines[y] = b.String()
	}
}

// logTitle heads the relay log overlay.
const logTitle = "relay log: time, from → to, size, first words, state (prefix r hides it)"

// overlayLog draws the relay log over the lower part of the pane area: the newest
// entries that fit, oldest at the top. Like the help, the rows beside it are redrawn
// clipped.
func (m *model) overlayLog(lines []string) {
	areaH := m.height - 1
	if areaH < 3 || m.width < 8 {
		return
	}
	innerW := m.width - 4                      // border and one column of padding each side
	n := max(min(areaH-3, max(areaH/2, 6)), 1) // entry rows
	rows := []string{m.st.helpTitle.Render(ansi.Truncate(logTitle, innerW, "…"))}
	entries := m.rl.logRows(n, innerW)
	if len(entries) == 0 {
		entries = []string{"nothing yet: link panes with prefix l then a pane number, or prefix L"}
	}
	for _, e := range entries {
		rows = append(rows, ansi.Truncate(e, innerW, "…"))
	}
	box := strings.Split(m.st.helpBox.Width(innerW+2).Render(strings.Join(rows, "\n")), "\n")
	y0 := max(areaH-len(box), 0)
	var b strings.Builder
	for i, bl := range box {
		y := y0 + i
		if y >= areaH {
			break
		}
		bl = ansi.Truncate(bl, m.width, "")
		b.Reset()
		b.WriteString(bl)
		m.writeSpan(&b, y, ansi.StringWidth(bl), m.width)
		lines[y] = b.String()
	}
}
