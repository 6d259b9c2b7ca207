// Package tty owns agentmux's outer terminal: raw mode, the modes agentmux sets and
// restores, the start-up probe of the terminal's colours and keyboard, reading and
// decoding its input (keys.Decoder, escape timer), and the screen writer that draws
// frames. Restore undoes everything and is safe on every exit path (it is idempotent
// and safe from a deferred recover).
//
// tty imports keys and vterm (for colour values) only; it must not import bubbletea,
// lipgloss, session or ui.
package tty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/charmbracelet/x/term"
)

// This file owns the outer terminal: raw mode, the modes agentmux turns on and off, the
// start-up queries, and a gated writer that frames go through.

// The outer terminal's modes, in the order they are set (EnterSeq); RestoreSeq undoes
// them in reverse. Autowrap off (7), so a row can never spill onto the next one while a
// resize is on its way. Mouse: 1000 presses, 1002 drags, 1006 SGR coordinates. 2004
// bracketed paste, 1004 focus reports. KittyPush asks for kitty keyboard reports after
// the probe showed support; KittyPop, sent first on restore, undoes it. The frames move
// the cursor and set its shape (DECSCUSR) after the focused program's; restore puts the
// terminal's default shape back (CSI 0 SP q) and shows it.
const (
	EnterSeq = "\x1b[?1049h\x1b[H\x1b[2J\x1b[?25l\x1b[?7l" +
		"\x1b[?1000h\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h"
	// ProbeSeq asks for the kitty keyboard flags, the default foreground and background,
	// then DA1, which every terminal answers: its reply marks the end of the answers.
	ProbeSeq   = "\x1b[?u\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b[c"
	KittyPush  = "\x1b[>1u" // disambiguate escape codes: Shift+Enter, Ctrl+I vs Tab...
	KittyPop   = "\x1b[<u"
	RestoreSeq = "\x1b[?1004l\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?1000l" +
		"\x1b[?7h\x1b[m\x1b[0 q\x1b[?25h\x1b[?1049l"
)

// Terminal is the outer terminal. It is also the io.Writer the screen writer draws through
// (and bubbletea's output, a term.File): writes are serialised with agentmux's own, and
// dropped once the terminal has been restored, so a late frame can never land on the
// user's shell.
type Terminal struct {
	in, out *os.File
	w       io.Writer // out, or a remote terminal's connection
	saved   *term.State

	mu     sync.Mutex
	closed bool
	kitty  bool // kitty flags were pushed and must be popped
}

// Open checks that in and out are terminals and puts in into raw mode.
func Open(in, out *os.File) (*Terminal, error) {
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
	return &Terminal{in: in, out: out, w: out, saved: saved}, nil
}

// Remote is a terminal at the other end of w (an attached client, which keeps its own
// terminal in raw mode): the same modes and sequences go to w, and Restore writes the
// sequences that undo them. It has no size of its own (the client reports it) and no
// descriptor.
func Remote(w io.Writer) *Terminal { return &Terminal{w: w} }

// Size returns the terminal's size.
func (o *Terminal) Size() (cols, rows int, err error) {
	if o.out == nil {
		return 0, 0, errors.New("terminal size: a remote terminal reports its own")
	}
	cols, rows, err = term.GetSize(o.out.Fd())
	if err != nil {
		return 0, 0, fmt.Errorf("terminal size: %w", err)
	}
	return cols, rows, nil
}

// send writes a control sequence unless the terminal was restored.
func (o *Terminal) send(seq string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	_, err := io.WriteString(o.w, seq)
	return err
}

// PushKitty asks for kitty keyboard reports (only after the probe showed support).
func (o *Terminal) PushKitty() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.kitty {
		return nil
	}
	o.kitty = true
	_, err := io.WriteString(o.w, KittyPush)
	return err
}

// Restore undoes everything agentmux did to the terminal: pops the kitty flags (on the
// alternate screen, where they were pushed), turns the modes off, shows the cursor,
// leaves the alternate screen and ends raw mode. It is safe to call more than once and
// from a deferred recover; errors are returned only for the record (the terminal may be
// gone after a SIGHUP).
func (o *Terminal) Restore() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	seq := RestoreSeq
	if o.kitty {
		seq = KittyPop + seq
	}
	_, werr := io.WriteString(o.w, seq)
	if o.in == nil {
		return werr
	}
	rerr := term.Restore(o.in.Fd(), o.saved)
	return errors.Join(werr, rerr)
}

// Write is the frames' way to the terminal (and bubbletea's output): frames go to the terminal until it is restored.
func (o *Terminal) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return len(p), nil
	}
	return o.w.Write(p)
}

// Read is never used (bubbletea runs without input); it exists for term.File.
func (o *Terminal) Read([]byte) (int, error) { return 0, io.EOF }

// Close does nothing: restore ends the session.
func (o *Terminal) Close() error { return nil }

// Fd is the output's descriptor, so bubbletea can read the window size and follow
// SIGWINCH.
func (o *Terminal) Fd() uintptr {
	if o.out == nil {
		return ^uintptr(0)
	}
	return o.out.Fd()
}

var _ term.File = (*Terminal)(nil)

// Setup switches the terminal into agentmux's modes (alternate screen, hidden cursor,
// autowrap off, mouse, bracketed paste, focus reports) and sends the start-up queries
// (Probe reads their answers).
func (o *Terminal) Setup() error {
	if err := o.send(EnterSeq + ProbeSeq); err != nil {
		return fmt.Errorf("set up terminal: %w", err)
	}
	return nil
}

// SetupProbed is Setup for a terminal whose answers to ProbeSeq are known already (its
// client probed it just before): the modes alone, no question.
func (o *Terminal) SetupProbed() error {
	if err := o.send(EnterSeq); err != nil {
		return fmt.Errorf("set up terminal: %w", err)
	}
	return nil
}

// MaxCols and MaxRows bound the outer terminal size agentmux draws for (a larger
// terminal is drawn in its top left corner): what a frame allocates grows with the
// size, and a client may send any (the attach stream clamps to them, the ui too).
const MaxCols, MaxRows = 2000, 1000
