package parser

import "bytes"

// Parser finds relay commands in a stream of output fed in chunks. It is byte-stream
// exact: how the stream is cut into chunks never changes what it finds. Memory is
// bounded by the block limit; the work per byte is bounded by a constant. A Parser is
// not safe for concurrent use.
type Parser struct {
	syn      Syntax
	markers  []marker
	maxBlock int
	maxLine  int

	esc    escState
	strLen int // bytes inside the current OSC/DCS string

	line []byte // the line so far, escape sequences removed
	long bool   // the line passed maxLine: the rest of it was dropped

	inFence bool

	inBlock  bool
	blockRaw int    // bytes of block content so far
	block    []byte // block content, rows trimmed and joined with a space

	pending bool // an inline command waits for continuation lines
	pend    Command
	body    []byte

	out []Command
}

// escState is where the escape-sequence stripper stands.
type escState uint8

const (
	escGround escState = iota
	escEsc             // after ESC
	escInter           // ESC and intermediate bytes, waiting for the final one
	escCSI             // inside a CSI sequence
	escStr             // inside an OSC, DCS, SOS, PM or APC string
	escStrEsc          // ESC inside a string: ST if a backslash follows
)

// maxString bounds an unterminated OSC/DCS string: past it the string is dropped and
// text counts again, so a stray ESC ] never hides the rest of a session.
const maxString = 4096

// NewParser returns a parser for the syntax s (validate it first with s.Validate:
// empty prefixes are ignored here).
func NewParser(s Syntax) *Parser {
	p := &Parser{syn: s, maxBlock: s.maxBlock()}
	for _, m := range s.markers() {
		if m.text != "" {
			p.markers = append(p.markers, m)
		}
	}
	p.maxLine = p.maxBlock + len(blockOpen) + len(blockClose) + 1024
	return p
}

// Feed parses the next chunk of output and returns the commands it completed, in order.
// An inline command is complete once a line that does not continue it has ended.
func (p *Parser) Feed(b []byte) []Command {
	p.out = nil
	for i := 0; i < len(b); {
		if p.esc != escGround {
			p.escByte(b[i])
			i++
			continue
		}
		j := i
		for j < len(b) && (b[j] >= 0x20 && b[j] != 0x7f || b[j] == '\t') {
			j++
		}
		if j < len(b) && b[j] == '\n' && len(p.line) == 0 && !p.long && j-i <= p.maxLine {
			p.endLine(b[i:j]) // the whole line is in this chunk: no copy (a longer one is cut as in pieces)
			i = j + 1
			continue
		}
		p.appendLine(b[i:j])
		if j == len(b) {
			break
		}
		switch b[j] {
		case '\n':
			p.endLine(p.line)
			p.line, p.long = p.line[:0], false
		case 0x1b:
			p.esc = escEsc
		}
		// other control characters (CR, BS, BEL, ...) are dropped
		i = j + 1
	}
	return p.out
}

// Flush ends the stream (a turn): an inline command waiting for continuation lines is
// complete, an unfinished block is reported as never closed, and an unterminated last
// line is dropped. The fence state is kept: a fence opened in one turn holds into the
// next.
func (p *Parser) Flush() []Command {
	p.out = nil
	p.endPending()
	if p.inBlock {
		p.emit(Command{Err: ErrUnterminated})
		p.inBlock, p.block, p.blockRaw = false, p.block[:0], 0
	}
	p.line, p.long = p.line[:0], false
	p.esc, p.strLen = escGround, 0
	return p.out
}

// InFence reports whether the stream is inside a fenced code block.
func (p *Parser) InFence() bool { return p.inFence }

// appendLine adds text to the line being read, up to maxLine.
func (p *Parser) appendLine(s []byte) {
	if room := p.maxLine - len(p.line); len(s) > room {
		s, p.long = s[:max(room, 0)], true
	}
	p.line = append(p.line, s...)
}

// escByte advances the escape-sequence stripper by one byte.
func (p *Parser) escByte(c byte) {
	switch p.esc {
	case escEsc:
		switch {
		case c == '[':
			p.esc = escCSI
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			p.esc, p.strLen = escStr, 0
		case c >= 0x20 && c <= 0x2f:
			p.esc = escInter
		case c == 0x1b:
		default:
			p.esc = escGround
		}
	case escInter:
		if c < 0x20 || c > 0x2f {
			p.esc = escGround
		}
	case escCSI:
		if c >= 0x40 && c <= 0x7e || c == 0x18 || c == 0x1a {
			p.esc = escGround
		} else if c == 0x1b {
			p.esc = escEsc
		}
	case escStr:
		p.strLen++
		switch {
		case c == 0x07 || c == 0x18 || c == 0x1a:
			p.esc = escGround
		case c == 0x1b:
			p.esc = escStrEsc
		case p.strLen > maxString:
			p.esc = escGround
		}
	case escStrEsc:
		if c == '\\' {
			p.esc = escGround
		} else {
			p.esc = escEsc
			p.escByte(c)
		}
	}
}

// endLine handles one complete line (escape sequences removed, no line break).
func (p *Parser) endLine(l []byte) {
	if p.long {
		// Longer than any block may be: a block it opens or continues is too large;
		// anything else is no command.
		switch {
		case p.inBlock:
			p.blockTooLarge()
		case !p.inFence && !p.syn.NoBlock && bytes.HasPrefix(trimIndent(l), []byte(blockOpen)):
			p.endPending()
			p.emit(Command{Err: ErrBlockTooLarge})
		default:
			p.endPending()
		}
		return
	}
	p.lineText(l)
}

// lineText handles a line, or the rest of one after a block closed on it.
func (p *Parser) lineText(l []byte) {
	if p.inBlock {
		p.blockText(l)
		return
	}
	if bytes.HasPrefix(l, []byte("```")) {
		p.endPending()
		p.inFence = !p.inFence
		return
	}
	if p.inFence {
		return
	}
	if p.pending {
		if len(l) > 0 && isSpace(l[0]) && !blank(l) && !p.startsCommand(l) {
			p.body = append(p.body, '\n')
			p.body = append(p.body, l...)
			return
		}
		p.endPending()
	}
	if rest, ok := p.blockStart(l); ok {
		p.inBlock, p.block, p.blockRaw = true, p.block[:0], 0
		p.blockText(rest)
		return
	}
	p.inline(l)
}

// startsCommand reports whether l opens an inline command or a block.
func (p *Parser) startsCommand(l []byte) bool {
	if _, ok := p.blockStart(l); ok {
		return true
	}
	_, _, _, ok := p.matchInline(l)
	return ok
}

// blockStart returns what follows [[RELAY]] when l opens a block.
func (p *Parser) blockStart(l []byte) ([]byte, bool) {
	if p.syn.NoBlock {
		return nil, false
	}
	t := trimIndent(l)
	if !bytes.HasPrefix(t, []byte(blockOpen)) {
		return nil, false
	}
	return t[len(blockOpen):], true
}

// emit adds a complete command to the output.
func (p *Parser) emit(c Command) { p.out = append(p.out, c) }

// endPending emits the inline command waiting for continuation lines, if any.
func (p *Parser) endPending() {
	if !p.pending {
		return
	}
	c := p.pend
	c.Body = string(p.body)
	p.pending, p.pend, p.body = false, Command{}, p.body[:0]
	p.emit(c)
}

// isSpace reports whether c is a space or a tab.
func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// blank reports whether l holds only spaces and tabs.
func blank(l []byte) bool {
	for _, c := range l {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// trimIndent returns l without its leading spaces and tabs.
func trimIndent(l []byte) []byte {
	i := 0
	for i < len(l) && isSpace(l[i]) {
		i++
	}
	return l[i:]
}
