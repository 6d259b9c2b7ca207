package vterm

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// This file handles operating system commands (OSC): titles, notifications, OSC 8
// hyperlinks and colour queries. Unknown OSC strings are dropped without a trace.

// oscEnd dispatches the buffered OSC string; bel says it ended with BEL (the reply then
// ends with BEL too), otherwise with ST.
func (t *Terminal) oscEnd(bel bool) {
	ps := &t.p
	if ps.oscOver {
		ps.oscOver = false
		return
	}
	s := ps.osc
	num := 0
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9' && num < 100000; i++ {
		num = num*10 + int(s[i]-'0')
	}
	if i == 0 {
		return
	}
	var arg []byte
	if i < len(s) {
		if s[i] != ';' {
			return
		}
		arg = s[i+1:]
	}
	switch num {
	case 0, 2:
		t.setTitle(arg)
	case 4:
		t.oscPalette(arg, bel)
	case 8:
		t.oscLink(arg)
	case 9:
		t.oscNotify9(arg)
	case 10, 11, 12:
		t.oscDynamicColors(num, arg, bel)
	case 104:
		t.oscResetPalette(arg)
	case 52:
		t.oscClipboard(arg)
	case 777:
		t.oscNotify777(arg)
	}
}

func (t *Terminal) setTitle(b []byte) {
	if string(b) == t.title {
		return // programs set the same title again and again: no new string
	}
	t.setTitleString(strings.ToValidUTF8(string(b), "\uFFFD"))
}

// setTitleString changes the title, reporting an EventTitle when it differs.
func (t *Terminal) setTitleString(title string) {
	if title == t.title {
		return
	}
	t.title = title
	t.event(Event{Kind: EventTitle, Text: title})
}

// maxTitles bounds the title stack (xterm keeps 10 too); pushing onto a full stack
// drops the oldest title.
const maxTitles = 10

// titleStack is XTPUSHTITLE / XTPOPTITLE (CSI 22 ; Ps t and CSI 23 ; Ps t): Ps 0 (both
// titles), 2 (window title) or omitted push or pop the title; Ps 1 (the icon name, which
// agentmux does not keep) does nothing.
func (t *Terminal) titleStack(push bool) {
	if which := t.arg(1, 0); which != 0 && which != 2 {
		return
	}
	if push {
		if len(t.titles) == maxTitles {
			copy(t.titles, t.titles[1:])
			t.titles = t.titles[:maxTitles-1]
		}
		t.titles = append(t.titles, t.title)
		return
	}
	if n := len(t.titles); n > 0 {
		title := t.titles[n-1]
		t.titles[n-1] = ""
		t.titles = t.titles[:n-1]
		t.setTitleString(title)
	}
}

// oscNotify9 is OSC 9 ; body. ConEmu's OSC 9 ; N ; ... extensions (progress and the
// like) are not notifications and are dropped.
func (t *Terminal) oscNotify9(arg []byte) {
	j := 0
	for j < len(arg) && arg[j] >= '0' && arg[j] <= '9' {
		j++
	}
	if j > 0 && (j == len(arg) || arg[j] == ';') {
		return
	}
	t.event(Event{Kind: EventNotify, Text: strings.ToValidUTF8(string(arg), "\uFFFD")})
}

// oscClipboard is OSC 52 ; selections ; base64 text: a program writing the clipboard.
// It is reported as an EventClipboard for the host to forward or not; a query ("?")
// and text that is not base64 are dropped.
func (t *Terminal) oscClipboard(arg []byte) {
	_, data, ok := bytes.Cut(arg, []byte(";"))
	if !ok || bytes.Equal(data, []byte("?")) {
		return
	}
	text, err := base64.StdEncoding.DecodeString(string(data))
	if err != nil {
		return
	}
	t.event(Event{Kind: EventClipboard, Text: strings.ToValidUTF8(string(text), "\uFFFD")})
}

// oscNotify777 is OSC 777 ; notify ; title ; body.
func (t *Terminal) oscNotify777(arg []byte) {
	rest, ok := bytes.CutPrefix(arg, []byte("notify;"))
	if !ok {
		return
	}
	title, body, _ := bytes.Cut(rest, []byte(";"))
	e := Event{Kind: EventNotify,
		Title: strings.ToValidUTF8(string(title), "\uFFFD"),
		Text:  strings.ToValidUTF8(string(body), "\uFFFD")}
	if e.Text == "" {
		e.Text, e.Title = e.Title, ""
	}
	t.event(e)
}

// oscDynamicColors answers OSC 10/11/12 queries; a program may query several in one
// string (OSC 10 ; ? ; ? asks for 10 and 11). Setting colours is ignored: the answers
// describe the host's colours.
func (t *Terminal) oscDynamicColors(num int, arg []byte, bel bool) {
	for len(arg) > 0 && num <= 12 {
		var item []byte
		item, arg, _ = bytes.Cut(arg, []byte(";"))
		if len(item) == 1 && item[0] == '?' {
			var c RGBColor
			switch num {
			case 10:
				c = t.fgColor()
			case 11:
				c = t.bgColor()
			default:
				c = t.cursorColor()
			}
			b := append(t.rbuf[:0], "\x1b]"...)
			b = appendInt(b, num)
			b = append(b, ';')
			b = appendColor(b, c)
			b = appendST(b, bel)
			t.rbuf = b
			t.sendReply(b)
		}
		num++
	}
}

func appendST(b []byte, bel bool) []byte {
	if bel {
		return append(b, 0x07)
	}
	return append(b, "\x1b\\"...)
}

// oscPalette is OSC 4 ; index ; spec [; index ; spec ...]: "?" queries an entry, an
// rgb:/# spec sets it.
func (t *Terminal) oscPalette(arg []byte, bel bool) {
	for len(arg) > 0 {
		var idx, spec []byte
		idx, arg, _ = bytes.Cut(arg, []byte(";"))
		spec, arg, _ = bytes.Cut(arg, []byte(";"))
		n, ok := atoiBounded(idx, 255)
		if !ok {
			return
		}
		if len(spec) == 1 && spec[0] == '?' {
			b := append(t.rbuf[:0], "\x1b]4;"...)
			b = appendInt(b, n)
			b = append(b, ';')
			b = appendColor(b, t.palette[n])
			b = appendST(b, bel)
			t.rbuf = b
			t.sendReply(b)
		} else if c, ok := parseColorSpec(spec); ok {
			t.palette[n] = c
		}
	}
}

// oscResetPalette is OSC 104 [; index ...].
func (t *Terminal) oscResetPalette(arg []byte) {
	def := xtermPalette()
	if t.colors.Palette != nil {
		def = *t.colors.Palette
	}
	if len(arg) == 0 {
		t.palette = def
		return
	}
	for _, f := range bytes.Split(arg, []byte(";")) {
		if n, ok := atoiBounded(f, 255); ok {
			t.palette[n] = def[n]
		}
	}
}

// atoiBounded parses a small decimal number no bigger than hi.
func atoiBounded(b []byte, hi int) (int, bool) {
	if len(b) == 0 || len(b) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n <= hi
}

// parseColorSpec reads rgb:r/g/b (1 to 4 hex digits each) or #rrggbb.
func parseColorSpec(b []byte) (RGBColor, bool) {
	if rest, ok := bytes.CutPrefix(b, []byte("rgb:")); ok {
		parts := bytes.Split(rest, []byte("/"))
		if len(parts) != 3 {
			return RGBColor{}, false
		}
		var v [3]uint8
		for i, p := range parts {
			if len(p) < 1 || len(p) > 4 {
				return RGBColor{}, false
			}
			x, ok := hexVal(p)
			if !ok {
				return RGBColor{}, false
			}
			// scale to 8 bits: take the top byte of the value's full width
			bits := 4 * len(p)
			if bits >= 8 {
				x >>= bits - 8
			} else {
				x = x * 255 / 15
			}
			v[i] = uint8(x)
		}
		return RGBColor{v[0], v[1], v[2]}, true
	}
	if len(b) == 7 && b[0] == '#' {
		x, ok := hexVal(b[1:])
		if !ok {
			return RGBColor{}, false
		}
		return RGBColor{uint8(x >> 16), uint8(x >> 8), uint8(x)}, true
	}
	return RGBColor{}, false
}

func hexVal(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return n, true
}

// oscLink is OSC 8 ; params ; uri: cells printed after it carry the link until an
// OSC 8 with an empty URI.
func (t *Terminal) oscLink(arg []byte) {
	_, uri, ok := bytes.Cut(arg, []byte(";"))
	if !ok || len(uri) == 0 || len(uri) > maxLinkLen {
		t.cur.pen.Link = 0
		return
	}
	t.cur.pen.Link = t.links.intern(strings.ToValidUTF8(string(uri), "\uFFFD"))
}

// linkTable maps OSC 8 URIs to small ids. It keeps at most maxLinks recent links; older
// ids are forgotten (Link returns "" for them).
type linkTable struct {
	ids  map[string]uint32
	uris map[uint32]string
	next uint32
}

// The link table's bounds: links kept, and the longest URI accepted.
const (
	maxLinks   = 1024
	maxLinkLen = 4096
)

func (l *linkTable) intern(uri string) uint32 {
	if id, ok := l.ids[uri]; ok {
		return id
	}
	if l.ids == nil {
		l.ids = make(map[string]uint32)
		l.uris = make(map[uint32]string)
	}
	l.next++
	if l.next == 0 {
		l.next = 1
	}
	id := l.next
	if old, ok := l.uris[id-maxLinks]; ok && id > maxLinks {
		delete(l.ids, old)
		delete(l.uris, id-maxLinks)
	}
	l.ids[uri] = id
	l.uris[id] = uri
	return id
}

func (l *linkTable) uri(id uint32) string { return l.uris[id] }
