package session

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/vterm"
)

// styledRow is a row's text with its styles as SGR sequences, trailing default blanks
// trimmed; it starts and ends in the default style.
func styledRow(l *vterm.Line) string {
	if l == nil {
		return ""
	}
	cells := l.Cells
	for len(cells) > 0 {
		c := cells[len(cells)-1]
		if (c.Rune != 0 && c.Rune != ' ') || c.Style != (vterm.Style{}) {
			break
		}
		cells = cells[:len(cells)-1]
	}
	var b strings.Builder
	cur := vterm.Style{}
	for _, c := range cells {
		if c.Width == 0 {
			continue
		}
		if st := c.Style; st != cur {
			b.WriteString(sgrOf(st))
			cur = st
		}
		b.WriteString(c.String())
	}
	if cur != (vterm.Style{}) {
		b.WriteString(ansi.ResetStyle)
	}
	return b.String()
}

// sgrOf is one SGR sequence that sets st from the default style: a reset, then
// vterm.Style.AppendSGR's parameters (hyperlinks are left out of a capture).
func sgrOf(st vterm.Style) string {
	b := st.AppendSGR([]byte("\x1b[0;"))
	if len(b) == len("\x1b[0;") {
		return "\x1b[0m"
	}
	return string(append(b, 'm'))
}
