package ui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/x/term"

	"github.com/agentmux/agentmux/vterm"
)

// This file owns the outer terminal: raw mode, the modes agentmux turns on and off, the
// start-up queries and their answers, and a gated writer that frames go through.

// The outer terminal's modes, in the order they are set; restoreSeq undoes them in
// reverse. Autowrap off (7), so a row can never spill onto the next one while a resize
// is on its way. Mouse: 1000 presses, 1002 drags, 1006 SGR coordinates. 2004 bracketed
// paste, 1004 focus reports.
const (
	enterSeq = "\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l\x1b[?7l" +
		"\x1b[?1000h\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h"
	// probeSeq asks for the kitty keyboard flags, the default foreground and background,
	// then DA1, which every terminal answers: its reply marks the end of the answers.
	probeSeq   = "\x1b[?u\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b[c"
	kittyPush  = "\x1b[>1u" // disambiguate escape codes: Shift+Enter, Ctrl+I vs Tab...
	kittyPop   = "\x1b[<u"
	restoreSeq = "\x1b[?1004l\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?1000l" +
		"\x1b[?7h\x1b[m\x1b[?25h\x1b[?1049l"
)

// outer is the outer terminal. It is also the io.Writer the screen writer draws through
// (and bubbletea's output, a term.File): writes are serialised with agentmux's own, and
// dropped once the terminal has been restored, so a late frame can never land on the
// user's shell.
type outer struct {
	in, out *os.File
	saved   *term.State

	mu     sync.Mutex
	closed bool
	kitty  bool // kitty flags were pushed and must be popped
}

// openOuter checks that in and out are terminals and puts in into raw mode.
func openOuter(in, out *os.File) (*outer, error) {
	if !term.IsTerminal(in.Fd()) {
		return nil, errors.New("standard input is not a terminal")
	}
	if !term.IsTerminal(out.Fd()) {
		return nil, errors.New("standard output is not a terminal")
	}
	saved, err := term.MakeRaw(in.Fd())
	if err != nil {
		return nil, fmt.Errorf("raw mode: %w", err)
	}
	return &outer{in: in, out: out, saved: saved}, nil
}

// size returns the terminal's size.
func (o *outer) size() (cols, rows int, err error) {
	cols, rows, err = term.GetSize(o.out.Fd())
	if err != nil {
		return 0, 0, fmt.Errorf("terminal size: %w", err)
	}
	return cols, rows, nil
}

// send writes a control sequence unless the terminal was restored.
func (o *outer) send(seq string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	_, err := io.WriteString(o.out, seq)
	return err
}

// pushKitty asks for kitty keyboard reports (only after the probe showed support).
func (o *outer) pushKitty() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.kitty {
		return nil
	}
	o.kitty = true
	_, err := io.WriteString(o.out, kittyPush)
	return err
}

// restore undoes everything agentmux did to the terminal: pops the kitty flags (on the
// alternate screen, where they were pushed), turns the modes off, shows the cursor,
// leaves the alternate screen and ends raw mode. It is safe to call more than once and
// from a deferred recover; errors are returned only for the record (the terminal may be
// gone after a SIGHUP).
func (o *outer) restore() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	seq := restoreSeq
	if o.kitty {
		seq = kittyPop + seq
	}
	_, werr := io.WriteString(o.out, seq)
	rerr := term.Restore(o.in.Fd(), o.saved)
	return errors.Join(werr, rerr)
}

// Write is bubbletea's output: frames go to the terminal until it is restored.
func (o *outer) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return len(p), nil
	}
	return o.out.Write(p)
}

// Read is never used (bubbletea runs without input); it exists for term.File.
func (o *outer) Read([]byte) (int, error) { return 0, io.EOF }

// Close does nothing: restore ends the session.
func (o *outer) Close() error { return nil }

// Fd is the output's descriptor, so bubbletea can read the window size and follow
// SIGWINCH.
func (o *outer) Fd() uintptr { return o.out.Fd() }

var _ term.File = (*outer)(nil)

// replyKind classifies an answer from the outer terminal.
type replyKind uint8

const (
	replyOther replyKind = iota
	replyFG              // OSC 10: default foreground
	replyBG              // OSC 11: default background
	replyKitty           // CSI ? flags u: the kitty keyboard protocol is supported
	replyDA1             // CSI ? ... c: primary device attributes (the probe's sentinel)
)

// reply is a parsed answer.
type reply struct {
	kind  replyKind
	color vterm.RGBColor
}

// parseReply classifies raw (the whole sequence, ESC included) and extracts colours.
func parseReply(raw []byte) reply {
	s := string(raw)
	switch {
	case strings.HasPrefix(s, "\x1b]"):
		body := strings.TrimPrefix(s, "\x1b]")
		body = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(body, "\a"), "\x1b\\"), "\x9c")
		num, spec, ok := strings.Cut(body, ";")
		if !ok {
			return reply{}
		}
		c, ok := parseColor(spec)
		if !ok {
			return reply{}
		}
		switch num {
		case "10":
			return reply{kind: replyFG, color: c}
		case "11":
			return reply{kind: replyBG, color: c}
		}
	case strings.HasPrefix(s, "\x1b[?") && strings.HasSuffix(s, "u"):
		return reply{kind: replyKitty}
	case strings.HasPrefix(s, "\x1b[?") && strings.HasSuffix(s, "c"):
		return reply{kind: replyDA1}
	}
	return reply{}
}

// parseColor parses an X11 colour answer: rgb:R/G/B with 1 to 4 hex digits per
// component (scaled to 8 bits), or #RRGGBB.
func parseColor(spec string) (vterm.RGBColor, bool) {
	if hex, ok := strings.CutPrefix(spec, "#"); ok && len(hex) == 6 {
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			return vterm.RGBColor{}, false
		}
		return vterm.RGBColor{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v)}, true
	}
	rest, ok := strings.CutPrefix(spec, "rgb:")
	if !ok {
		rest, ok = strings.CutPrefix(spec, "rgba:")
	}
	if !ok {
		return vterm.RGBColor{}, false
	}
	parts := strings.Split(rest, "/")
	if len(parts) < 3 {
		return vterm.RGBColor{}, false
	}
	var out [3]uint8
	for i := range 3 {
		p := parts[i]
		if len(p) < 1 || len(p) > 4 {
			return vterm.RGBColor{}, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return vterm.RGBColor{}, false
		}
		maxV := uint64(1)<<(4*len(p)) - 1
		out[i] = uint8((v*255 + maxV/2) / maxV)
	}
	return vterm.RGBColor{R: out[0], G: out[1], B: out[2]}, true
}
