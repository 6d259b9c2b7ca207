package vterm

import "strconv"

// This file answers queries: DSR, XTVERSION, the kitty keyboard query, XTWINOPS, and
// formats colours for OSC 4/10/11/12. Replies are built in a reused buffer without fmt.

// Cell size in pixels reported to XTWINOPS (there are no real pixels here).
const (
	cellPixelW = 8
	cellPixelH = 16
)

func appendInt(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) }

// deviceStatus answers DSR 5n, 6n and ?6n.
func (t *Terminal) deviceStatus(private bool) {
	switch t.arg(0, 0) {
	case 5:
		if !private {
			t.sendReply([]byte("\x1b[0n"))
		}
	case 6:
		y := t.cur.y
		if t.modes.Origin {
			y -= t.margin.top
		}
		b := append(t.rbuf[:0], "\x1b["...)
		if private {
			b = append(b, '?')
		}
		b = appendInt(b, y+1)
		b = append(b, ';')
		b = appendInt(b, t.cur.x+1)
		b = append(b, 'R')
		t.rbuf = b
		t.sendReply(b)
	}
}

// xtversion answers CSI > q with DCS >| agentmux VERSION ST.
func (t *Terminal) xtversion() {
	b := append(t.rbuf[:0], "\x1bP>|agentmux"...)
	if t.version != "" {
		b = append(b, ' ')
		b = append(b, t.version...)
	}
	b = append(b, "\x1b\\"...)
	t.rbuf = b
	t.sendReply(b)
}

// kittyQuery answers CSI ? u with the current flags, only when the host encodes keys
// the kitty way; otherwise the query goes unanswered, as on a legacy terminal.
func (t *Terminal) kittyQuery() {
	if !t.kitty {
		return
	}
	b := append(t.rbuf[:0], "\x1b[?"...)
	b = appendInt(b, int(t.scr.kitty.top()))
	b = append(b, 'u')
	t.rbuf = b
	t.sendReply(b)
}

// windowOps answers XTWINOPS 14t (text area in pixels), 16t (cell size) and 18t (text
// area in characters) and keeps the title stack (22t, 23t); the window-changing
// operations are ignored.
func (t *Terminal) windowOps() {
	var a, h, w int
	switch t.arg(0, 0) {
	case 22, 23: // XTPUSHTITLE, XTPOPTITLE
		t.titleStack(t.arg(0, 0) == 22)
		return
	case 14:
		a, h, w = 4, t.rows*cellPixelH, t.cols*cellPixelW
	case 16:
		a, h, w = 6, cellPixelH, cellPixelW
	case 18:
		a, h, w = 8, t.rows, t.cols
	default:
		return
	}
	b := append(t.rbuf[:0], "\x1b["...)
	b = appendInt(b, a)
	b = append(b, ';')
	b = appendInt(b, h)
	b = append(b, ';')
	b = appendInt(b, w)
	b = append(b, 't')
	t.rbuf = b
	t.sendReply(b)
}

// Default answers for colour queries when the host sets none: xterm's palette, light
// grey on black.
var (
	defaultFG = RGBColor{0xe5, 0xe5, 0xe5}
	defaultBG = RGBColor{0x00, 0x00, 0x00}
)

// fgColor, bgColor and cursorColor are the answers for OSC 10, 11 and 12. When only one
// of foreground and background is set, the other is chosen to contrast with it.
func (t *Terminal) fgColor() RGBColor {
	c := t.colors
	switch {
	case !c.FG.IsZero():
		return c.FG
	case !c.BG.IsZero() && isLight(c.BG):
		return RGBColor{}
	}
	return defaultFG
}

func (t *Terminal) bgColor() RGBColor {
	c := t.colors
	switch {
	case !c.BG.IsZero():
		return c.BG
	case !c.FG.IsZero() && !isLight(c.FG):
		return RGBColor{0xff, 0xff, 0xff}
	}
	return defaultBG
}

func (t *Terminal) cursorColor() RGBColor {
	if !t.colors.Cursor.IsZero() {
		return t.colors.Cursor
	}
	return t.fgColor()
}

func isLight(c RGBColor) bool {
	return 299*int(c.R)+587*int(c.G)+114*int(c.B) > 128*1000
}

// appendColor appends xterm's colour report form rgb:rrrr/gggg/bbbb.
func appendColor(b []byte, c RGBColor) []byte {
	const hex = "0123456789abcdef"
	b = append(b, "rgb:"...)
	for i, v := range [3]uint8{c.R, c.G, c.B} {
		if i > 0 {
			b = append(b, '/')
		}
		h, l := hex[v>>4], hex[v&15]
		b = append(b, h, l, h, l)
	}
	return b
}

// xtermPalette returns xterm's default 256-colour palette.
func xtermPalette() [256]RGBColor {
	var p [256]RGBColor
	base := [16]RGBColor{
		{0x00, 0x00, 0x00}, {0xcd, 0x00, 0x00}, {0x00, 0xcd, 0x00}, {0xcd, 0xcd, 0x00},
		{0x00, 0x00, 0xee}, {0xcd, 0x00, 0xcd}, {0x00, 0xcd, 0xcd}, {0xe5, 0xe5, 0xe5},
		{0x7f, 0x7f, 0x7f}, {0xff, 0x00, 0x00}, {0x00, 0xff, 0x00}, {0xff, 0xff, 0x00},
		{0x5c, 0x5c, 0xff}, {0xff, 0x00, 0xff}, {0x00, 0xff, 0xff}, {0xff, 0xff, 0xff},
	}
	copy(p[:], base[:])
	steps := [6]uint8{0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff}
	for i := 0; i < 216; i++ {
		p[16+i] = RGBColor{steps[i/36], steps[i/6%6], steps[i%6]}
	}
	for i := 0; i < 24; i++ {
		v := uint8(8 + 10*i)
		p[232+i] = RGBColor{v, v, v}
	}
	return p
}
