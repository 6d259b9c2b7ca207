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
		"Everything else goes to the focused pane, except in scroll mode",
		"and while the relay log is shown: they take the keys until closed.",
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
