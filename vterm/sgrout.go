package vterm

// AppendSGR appends the SGR parameters that select s starting from the default style,
// separated by ';' and with no leading "0", no CSI and no final 'm': attributes in SGR's
// numeric order (1 2 3, the underline as 4 or 4:N, 5 7 8 9 53), then the foreground,
// the background and the underline colour. Each ANSI colour is written as 30-37/90-97
// (40-47/100-107), other palette entries as 38;5;i and 24-bit ones as 38;2;r;g;b; the
// underline colour in the colon form terminals with coloured underlines parse (58:5:i,
// 58:2::r:g:b). Hyperlinks are not SGR. The default style appends nothing.
//
// It is the one encoder of a Style: the renderer's runs, captures with colours and the
// DECRQSS reply all use it, so equal styles give equal bytes everywhere.
func (s Style) AppendSGR(b []byte) []byte {
	start := len(b)
	sep := func() {
		if len(b) > start {
			b = append(b, ';')
		}
	}
	for _, a := range sgrAttrOrder {
		if a.attr == 0 { // the underline's place in the order
			switch s.Underline {
			case UnderlineNone:
			case UnderlineSingle:
				sep()
				b = append(b, '4')
			default:
				sep()
				b = append(b, "4:"...)
				b = appendInt(b, int(s.Underline))
			}
			continue
		}
		if s.Attr&a.attr != 0 {
			sep()
			b = appendInt(b, a.code)
		}
	}
	if !s.FG.IsDefault() {
		sep()
		b = appendColorParams(b, s.FG, 30, 90, 38)
	}
	if !s.BG.IsDefault() {
		sep()
		b = appendColorParams(b, s.BG, 40, 100, 48)
	}
	if !s.UL.IsDefault() {
		sep()
		b = appendULColorParams(b, s.UL)
	}
	return b
}

// sgrAttrOrder lists the attributes by SGR code; the zero attr marks where the
// underline (4) goes.
var sgrAttrOrder = [...]struct {
	attr Attr
	code int
}{
	{AttrBold, 1}, {AttrDim, 2}, {AttrItalic, 3}, {0, 4}, {AttrBlink, 5}, {AttrReverse, 7},
	{AttrHidden, 8}, {AttrStrike, 9}, {AttrOverline, 53},
}

// appendColorParams appends colour c: base+i for the eight ANSI colours, bright+i-8 for
// the next eight, ext;5;i for other palette entries and ext;2;r;g;b for 24-bit colours.
func appendColorParams(b []byte, c Color, base, bright, ext int) []byte {
	if i, ok := c.Index(); ok {
		switch {
		case i < 8:
			return appendInt(b, base+int(i))
		case i < 16:
			return appendInt(b, bright+int(i)-8)
		}
		b = appendInt(b, ext)
		b = append(b, ";5;"...)
		return appendInt(b, int(i))
	}
	r, g, bl, _ := c.RGB()
	b = appendInt(b, ext)
	b = append(b, ";2;"...)
	b = appendInt(b, int(r))
	b = append(b, ';')
	b = appendInt(b, int(g))
	b = append(b, ';')
	return appendInt(b, int(bl))
}

// appendULColorParams appends the underline colour c as 58:5:i or 58:2::r:g:b.
func appendULColorParams(b []byte, c Color) []byte {
	if i, ok := c.Index(); ok {
		b = append(b, "58:5:"...)
		return appendInt(b, int(i))
	}
	r, g, bl, _ := c.RGB()
	b = append(b, "58:2::"...)
	b = appendInt(b, int(r))
	b = append(b, ':')
	b = appendInt(b, int(g))
	b = append(b, ':')
	return appendInt(b, int(bl))
}
