package vterm

// This file is SGR (CSI ... m): attributes, underline styles and colours, in both the
// semicolon (38;5;n, 38;2;r;g;b) and colon (38:5:n, 38:2:cs:r:g:b, 4:3) forms.

// sgr applies the parameters of CSI ... m to the pen.
func (t *Terminal) sgr() {
	ps := &t.p
	pen := &t.cur.pen
	if ps.np == 0 {
		*pen = Style{Link: pen.Link}
		return
	}
	for i := 0; i < ps.np; {
		// the group: params[i] and the colon sub-parameters after it
		j := i + 1
		for j < ps.np && ps.sub[j] {
			j++
		}
		p := int(max(ps.params[i], 0))
		if j > i+1 {
			t.sgrColon(p, ps.params[i+1:j])
			i = j
			continue
		}
		i++
		switch {
		case p == 0:
			*pen = Style{Link: pen.Link}
		case p == 1:
			pen.Attr |= AttrBold
		case p == 2:
			pen.Attr |= AttrDim
		case p == 3:
			pen.Attr |= AttrItalic
		case p == 4:
			pen.Underline = UnderlineSingle
		case p == 5 || p == 6:
			pen.Attr |= AttrBlink
		case p == 7:
			pen.Attr |= AttrReverse
		case p == 8:
			pen.Attr |= AttrHidden
		case p == 9:
			pen.Attr |= AttrStrike
		case p == 21:
			pen.Underline = UnderlineDouble
		case p == 22:
			pen.Attr &^= AttrBold | AttrDim
		case p == 23:
			pen.Attr &^= AttrItalic
		case p == 24:
			pen.Underline = UnderlineNone
		case p == 25:
			pen.Attr &^= AttrBlink
		case p == 27:
			pen.Attr &^= AttrReverse
		case p == 28:
			pen.Attr &^= AttrHidden
		case p == 29:
			pen.Attr &^= AttrStrike
		case p >= 30 && p <= 37:
			pen.FG = Indexed(uint8(p - 30))
		case p == 38 || p == 48 || p == 58:
			c, n, ok := t.sgrExtended(i)
			i += n
			if ok {
				setSGRColor(pen, p, c)
			}
		case p == 39:
			pen.FG = DefaultColor
		case p >= 40 && p <= 47:
			pen.BG = Indexed(uint8(p - 40))
		case p == 49:
			pen.BG = DefaultColor
		case p == 53:
			pen.Attr |= AttrOverline
		case p == 55:
			pen.Attr &^= AttrOverline
		case p == 59:
			pen.UL = DefaultColor
		case p >= 90 && p <= 97:
			pen.FG = Indexed(uint8(p - 90 + 8))
		case p >= 100 && p <= 107:
			pen.BG = Indexed(uint8(p - 100 + 8))
		}
	}
}

func setSGRColor(pen *Style, p int, c Color) {
	switch p {
	case 38:
		pen.FG = c
	case 48:
		pen.BG = c
	case 58:
		pen.UL = c
	}
}

// sgrExtended reads the semicolon form of an extended colour whose selector starts at
// parameter i (5;n or 2;r;g;b). It returns the colour, how many parameters it used and
// whether the colour was valid.
func (t *Terminal) sgrExtended(i int) (Color, int, bool) {
	ps := &t.p
	if i >= ps.np {
		return 0, 0, false
	}
	switch ps.params[i] {
	case 5:
		if i+1 >= ps.np {
			return 0, 1, false
		}
		v := ps.params[i+1]
		if v < 0 || v > 255 {
			return 0, 2, false
		}
		return Indexed(uint8(v)), 2, true
	case 2:
		if i+3 >= ps.np {
			return 0, ps.np - i, false
		}
		return rgbParams(ps.params[i+1 : i+4]), 4, true
	}
	return 0, 1, false
}

// rgbParams makes a 24-bit colour of three parameters (omitted counts as 0).
func rgbParams(v []int32) Color {
	c := func(x int32) uint8 { return uint8(max(0, min(x, 255))) }
	return RGB(c(v[0]), c(v[1]), c(v[2]))
}

// sgrColon applies a colon group: 4:n underline styles and 38/48/58 colours.
func (t *Terminal) sgrColon(p int, sub []int32) {
	pen := &t.cur.pen
	switch p {
	case 4:
		switch s := sub[0]; {
		case s <= 0:
			pen.Underline = UnderlineNone
		case s <= int32(UnderlineDashed):
			pen.Underline = Underline(s)
		}
	case 38, 48, 58:
		switch sub[0] {
		case 5:
			if len(sub) >= 2 && sub[1] >= 0 && sub[1] <= 255 {
				setSGRColor(pen, p, Indexed(uint8(sub[1])))
			}
		case 2:
			// 38:2:colourspace:r:g:b, or 38:2:r:g:b without the colour space
			switch {
			case len(sub) >= 5:
				setSGRColor(pen, p, rgbParams(sub[2:5]))
			case len(sub) == 4:
				setSGRColor(pen, p, rgbParams(sub[1:4]))
			}
		}
	}
}
