package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/keys"
)

// helpRows renders the help's rows from the key map, so the help can never disagree with
// what the keys do. Rows wider than w columns are wrapped (a binding's description
// under itself), so a narrow screen loses nothing.
func (m *model) helpRows(w int) []string {
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
		indent := 2 + width + 2
		desc := strings.Split(ansi.Wrap(b.desc, max(w-indent, 10), ""), "\n")
		rows = append(rows, "  "+m.st.helpKey.Render(label)+pad+"  "+desc[0])
		for _, d := range desc[1:] {
			rows = append(rows, strings.Repeat(" ", indent)+d)
		}
	}
	if len(m.cfg.Bindings) > 0 {
		rows = append(rows, "", "yours (config.toml [ui.keys]), before the above:")
		for _, b := range m.cfg.Bindings {
			rows = append(rows, "  "+m.st.helpKey.Render(sanitize(b.Key.String()))+"  "+b.Action)
		}
	}
	rows = append(rows, "")
	notes := "Everything else goes to the focused pane, except in scroll mode " +
		"and while the relay log is shown: they take the keys until closed. " +
		"Mouse: a click focuses a pane; the wheel scrolls its history " +
		"(arrow keys for less, man and the like); a drag selects and copies " +
		"(OSC 52). Shift+drag selects with the terminal's own selection."
	rows = append(rows, strings.Split(ansi.Wrap(notes, min(max(w, 10), 68), ""), "\n")...)
	return append(rows, "Any other key closes this help.")
}

// helpText renders the help box for a screen with room for areaH rows: the whole help
// when it fits, else the window from m.helpTop (clamped) with a last row saying where
// it is and how to scroll.
func (m *model) helpText(areaH int) string {
	rows := m.helpRows(m.width - 4) // the box's border and padding
	room := areaH - 2               // the box's border
	if len(rows) <= room || room < 2 {
		m.helpTop = 0
		return m.st.helpBox.Render(strings.Join(rows, "\n"))
	}
	n := room - 1 // the position row
	m.helpTop = min(max(m.helpTop, 0), len(rows)-n)
	pos := m.st.helpTitle.Render(fmt.Sprintf("%d-%d of %d · ↑↓ PgUp/PgDn scroll", m.helpTop+1, m.helpTop+n, len(rows)))
	// The box is as wide as the widest row of the whole help, wherever it is scrolled,
	// so it does not narrow and widen under the arrows.
	width := 0
	for _, r := range rows {
		width = max(width, ansi.StringWidth(r))
	}
	pos += strings.Repeat(" ", max(width-ansi.StringWidth(pos), 0))
	shown := append(rows[m.helpTop:m.helpTop+n:m.helpTop+n], pos)
	return m.st.helpBox.Render(strings.Join(shown, "\n"))
}

// helpKey handles a key while the help is shown: arrows, PgUp/PgDn, Home/End scroll it
// when it is taller than the screen; any other key closes it (the prefix opens a
// command at once).
func (m *model) helpKey(k keys.Key) {
	page := max(m.height-5, 1)
	switch {
	case k.Mod&^keys.ModShift != 0:
	case k.Code == keys.KeyUp:
		m.scrollHelp(-1)
		return
	case k.Code == keys.KeyDown:
		m.scrollHelp(1)
		return
	case k.Code == keys.KeyPgUp:
		m.scrollHelp(-page)
		return
	case k.Code == keys.KeyPgDn:
		m.scrollHelp(page)
		return
	case k.Code == keys.KeyHome:
		m.scrollHelp(-len(keymap) - 10)
		return
	case k.Code == keys.KeyEnd:
		m.scrollHelp(len(keymap) + 10)
		return
	}
	m.mode = modeNormal
	m.fr.invalidate()
	if m.prefix.Matches(k) {
		m.mode = modePrefix
	}
}

// scrollHelp moves the help's window by delta rows (helpText clamps it).
func (m *model) scrollHelp(delta int) {
	m.helpTop += delta
	m.fr.invalidate()
}

// overlayHelp draws the help box over the middle of the pane area. The rows around it
// are redrawn clipped (never cut out of rendered bytes), so nothing of a pane can move
// the cursor into the box.
func (m *model) overlayHelp(lines []string) {
	areaH := m.height - 1
	box := strings.Split(m.helpText(areaH), "\n")
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
