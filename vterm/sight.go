package vterm

import "math"

// What the person can see: the relay reads a pane's text as said only where the person
// could read it on their screen. A cell is unseen when it is concealed (SGR 8) or when
// its foreground and background are as good as one colour (black on black, a palette
// pair that resolves to one colour, the same in reverse video): text drawn that way is
// text the person cannot see.

// minContrast is the contrast ratio (WCAG's, 1 to 21) below which a cell's two colours
// count as one: 1 is the same colour; #0a0a0a on black is about 1.06.
const minContrast = 1.1

// sight resolves cells' colours as the person's screen shows them, for unseen. It
// remembers its last answer: cells in a row mostly share their style.
type sight struct {
	fg, bg  RGBColor // the default colours, as the terminal tells programs (OSC 10, 11)
	palette *[256]RGBColor

	last       Style
	lastUnseen bool
	asked      bool
}

// sight is the terminal's view of its colours; call with the lock held.
func (t *Terminal) sight() *sight {
	return &sight{fg: t.fgColor(), bg: t.bgColor(), palette: &t.palette}
}

// unseen reports whether text drawn in st is text the person cannot see. A default
// colour is the one the terminal tells programs that ask (the host's, or light grey on
// black): a program that draws in the background it was told means it unseen.
func (s *sight) unseen(st Style) bool {
	if s.asked && st == s.last {
		return s.lastUnseen
	}
	s.last, s.lastUnseen, s.asked = st, s.judge(st), true
	return s.lastUnseen
}

// unseenAt is unseen for the style at st, with the memory's check inlined: a row's
// cells mostly repeat the style of the one before.
func (s *sight) unseenAt(st *Style) bool {
	if s.asked && *st == s.last {
		return s.lastUnseen
	}
	return s.unseen(*st)
}

// judge is unseen without the memory.
func (s *sight) judge(st Style) bool {
	if st.Attr&AttrHidden != 0 {
		return true
	}
	if st.FG == st.BG && !st.FG.IsDefault() {
		return true
	}
	// Reverse video swaps the two: as close either way, so it needs no case of its own.
	return contrast(s.resolve(st.FG, s.fg), s.resolve(st.BG, s.bg)) < minContrast
}

// resolve is c's colour on the screen; def is the default it stands for.
func (s *sight) resolve(c Color, def RGBColor) RGBColor {
	if i, ok := c.Index(); ok {
		return s.palette[i]
	}
	if r, g, b, ok := c.RGB(); ok {
		return RGBColor{r, g, b}
	}
	return def
}

// contrast is the WCAG contrast ratio of a and b (1 to 21).
func contrast(a, b RGBColor) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is c's relative luminance (sRGB, 0 to 1).
func luminance(c RGBColor) float64 {
	return 0.2126*linear[c.R] + 0.7152*linear[c.G] + 0.0722*linear[c.B]
}

// linear is each sRGB channel value made linear, worked out once: the relay's every
// reading of a coloured screen judges its styles.
var linear = func() (l [256]float64) {
	for v := range l {
		x := float64(v) / 255
		if x <= 0.04045 {
			l[v] = x / 12.92
		} else {
			l[v] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	return l
}()
