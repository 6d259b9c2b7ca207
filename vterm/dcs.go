package vterm

import "bytes"

// This file answers the device control strings programs send as queries: DECRQSS
// (DCS $ q Pt ST, request a setting) and XTGETTCAP (DCS + q hex ST, request a terminfo
// capability). Every other DCS (sixel, tmux passthrough, ...) is dropped. Replies are
// built in the reused reply buffer.

// dcsEnd dispatches the buffered DCS string once its ST arrived.
func (t *Terminal) dcsEnd() {
	ps := &t.p
	if ps.dcsOver {
		ps.dcsOver = false
		return
	}
	switch s := ps.dcs; {
	case bytes.HasPrefix(s, []byte("$q")):
		t.decrqss(s[2:])
	case bytes.HasPrefix(s, []byte("+q")):
		t.xtgettcap(s[2:])
	}
}

// decrqss answers DECRQSS for SGR (m), DECSTBM (r) and DECSCUSR ( q) as xterm does:
// DCS 1 $ r <the setting's control sequence body> ST, or DCS 0 $ r ST for a setting it
// does not report.
func (t *Terminal) decrqss(q []byte) {
	b := append(t.rbuf[:0], "\x1bP1$r"...)
	switch string(q) {
	case "m":
		b = append(b, "0;"...) // xterm's reply starts from a reset
		n := len(b)
		if b = t.cur.pen.AppendSGR(b); len(b) == n {
			b = b[:n-1] // the default style: "0" alone
		}
		b = append(b, 'm')
	case "r":
		b = appendInt(b, t.margin.top+1)
		b = append(b, ';')
		b = appendInt(b, t.margin.bot+1)
		b = append(b, 'r')
	case " q":
		shape := t.cur.shape
		if shape == CursorDefault {
			shape = CursorBlockBlink // what DECSCUSR 0 selects in xterm
		}
		b = appendInt(b, int(shape))
		b = append(b, " q"...)
	default:
		b = append(t.rbuf[:0], "\x1bP0$r"...)
	}
	b = append(b, "\x1b\\"...)
	t.rbuf = b
	t.sendReply(b)
}

// Terminfo capabilities XTGETTCAP answers: the terminal name (TN, matching the TERM
// agentmux sets for its panes) and the number of colours (Co, colors). Every other
// name is reported unknown, so programs fall back to their terminfo entry.
const (
	tcapName   = "xterm-256color"
	tcapColors = "256"
)

// xtgettcap answers XTGETTCAP: for each hex-encoded name in order, DCS 1 + r name=value
// ST (the value hex-encoded too) when it is known; at the first unknown or malformed
// name, DCS 0 + r ST and nothing more, as xterm does.
func (t *Terminal) xtgettcap(q []byte) {
	for len(q) > 0 {
		var hexName []byte
		hexName, q, _ = bytes.Cut(q, []byte(";"))
		var name [8]byte
		n, ok := unhex(name[:], hexName)
		var val string
		if ok {
			switch string(name[:n]) {
			case "TN":
				val = tcapName
			case "Co", "colors":
				val = tcapColors
			}
		}
		if val == "" {
			t.sendReply([]byte("\x1bP0+r\x1b\\"))
			return
		}
		b := append(t.rbuf[:0], "\x1bP1+r"...)
		b = append(b, hexName...)
		b = append(b, '=')
		for i := 0; i < len(val); i++ {
			const hex = "0123456789ABCDEF"
			b = append(b, hex[val[i]>>4], hex[val[i]&15])
		}
		b = append(b, "\x1b\\"...)
		t.rbuf = b
		t.sendReply(b)
	}
}

// unhex decodes hex digit pairs into dst; it fails on odd lengths, bad digits and
// names longer than dst.
func unhex(dst, src []byte) (int, bool) {
	if len(src)%2 != 0 || len(src)/2 > len(dst) {
		return 0, false
	}
	for i := 0; i < len(src); i += 2 {
		v, ok := hexVal(src[i : i+2])
		if !ok {
			return 0, false
		}
		dst[i/2] = byte(v)
	}
	return len(src) / 2, true
}
