package parser

import "bytes"

// promptGlyphs may stand before an inline command's marker, stacked or not, with or
// without white space after them: prompts and bullets agent CLIs draw before a line.
var promptGlyphs = [][]byte{
	[]byte(">"), []byte("$"), []byte("-"), []byte("*"),
	[]byte("⏺"), []byte("●"), []byte("•"), []byte("➜"), []byte("›"),
}

// glyphLen returns the byte length of the prompt glyph opening l, or 0.
func glyphLen(l []byte) int {
	for _, g := range promptGlyphs {
		if bytes.HasPrefix(l, g) {
			return len(g)
		}
	}
	return 0
}

// inline starts an inline command when l opens one.
func (p *Parser) inline(l []byte) {
	k, to, body, ok := p.matchInline(l)
	if !ok {
		return
	}
	p.pending = true
	p.pend = Command{To: string(to), Kind: k}
	if th, rest, ok := thread(body); ok {
		p.pend.Thread, body = string(th), rest
	}
	p.body = append(p.body[:0], body...)
}

// matchInline matches an inline command: its kind, its target and its body (a thread
// tag still in it).
func (p *Parser) matchInline(l []byte) (Kind, []byte, []byte, bool) {
	if len(p.markers) == 0 {
		return "", nil, nil, false
	}
	for i := 0; i < len(l); {
		for _, m := range p.markers {
			if bytes.HasPrefix(l[i:], []byte(m.text)) {
				return afterMarker(l[i+len(m.text):], m.kind)
			}
		}
		switch {
		case isSpace(l[i]):
			i++
		default:
			n := glyphLen(l[i:])
			if n == 0 {
				return "", nil, nil, false // text, `\` or any other character first
			}
			i += n
		}
	}
	return "", nil, nil, false
}

// afterMarker reads the target and body following a marker.
func afterMarker(s []byte, k Kind) (Kind, []byte, []byte, bool) {
	t := 0
	for t < len(s) && !isSpace(s[t]) {
		t++
	}
	if t == 0 {
		return "", nil, nil, false // `@relay: bob`: no target
	}
	b := t
	for b < len(s) && isSpace(s[b]) {
		b++
	}
	body := s[b:]
	if len(body) == 0 {
		return "", nil, nil, false // no body
	}
	if _, rest, ok := thread(body); ok && len(rest) == 0 {
		return "", nil, nil, false // a thread and no words
	}
	return k, s[:t], body, true
}

// thread splits `[thread:ID] words` into ID and words. The ID is not empty and holds no
// white space; white space or the end follows the tag.
func thread(body []byte) (id, rest []byte, ok bool) {
	const tag = "[thread:"
	if !bytes.HasPrefix(body, []byte(tag)) {
		return nil, body, false
	}
	e := bytes.IndexByte(body, ']')
	if e <= len(tag) {
		return nil, body, false
	}
	id = body[len(tag):e]
	if bytes.ContainsAny(id, " \t") || e+1 < len(body) && !isSpace(body[e+1]) {
		return nil, body, false
	}
	return id, trimIndent(body[e+1:]), true
}
