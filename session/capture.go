package session

import (
	"strconv"
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

// attrCodes are the SGR parameters of each attribute.
var attrCodes = []struct {
	a    vterm.Attr
	code string
}{
	{vterm.AttrBold, "1"}, {vterm.AttrDim, "2"}, {vterm.AttrItalic, "3"}, {vterm.AttrBlink, "5"},
	{vterm.AttrReverse, "7"}, {vterm.AttrHidden, "8"}, {vterm.AttrStrike, "9"}, {vterm.AttrOverline, "53"},
}

// sgrOf is one SGR sequence that sets st from the default style (hyperlinks and the
// underline colour are left out of a capture).
func sgrOf(st vterm.Style) string {
	ps := []string{"0"}
	for _, ac := range attrCodes {
		if st.Attr&ac.a != 0 {
			ps = append(ps, ac.code)
		}
	}
	if st.Underline != vterm.UnderlineNone {
		ps = append(ps, "4:"+string(rune('0'+st.Underline)))
	}
	ps = appendColor(ps, st.FG, "38", 30, 90)
	ps = appendColor(ps, st.BG, "48", 40, 100)
	return "\x1b[" + strings.Join(ps, ";") + "m"
}

// appendColor adds the parameters of colour c: base+i for the 8 ANSI colours, bright+i
// for the next 8, ext;5;i for the palette and ext;2;r;g;b for RGB.
func appendColor(ps []string, c vterm.Color, ext string, base, bright int) []string {
	if i, ok := c.Index(); ok {
		switch {
		case i < 8:
			return append(ps, itoa(base+int(i)))
		case i < 16:
			return append(ps, itoa(bright+int(i)-8))
		}
		return append(ps, ext, "5", itoa(int(i)))
	}
	if r, g, b, ok := c.RGB(); ok {
		return append(ps, ext, "2", itoa(int(r)), itoa(int(g)), itoa(int(b)))
	}
	return ps
}

func itoa(n int) string { return strconv.Itoa(n) }
