package demo

import (
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/charmbracelet/x/term"
)

// terminal is the agent's view of the terminal it runs in: raw mode, size and the signals
// that concern it. When stdin is not a terminal it is inert: no raw mode, a fixed 80×24
// size (or stdout's, when that is a terminal) and nil signal channels.
type terminal struct {
	raw        bool
	inFd       uintptr
	saved      *term.State
	sizeFd     uintptr
	haveSize   bool
	cols, rows int
	winch      chan os.Signal // resizes; nil when not a terminal
	stop       chan os.Signal // SIGTERM, SIGHUP; nil when not a terminal
}

// openTerminal reads the size and, when stdin is a terminal, follows its resizes and the
// signals that end the agent, and puts it in raw mode unless cooked.
func openTerminal(stdin io.Reader, stdout io.Writer, raw bool) (*terminal, error) {
	t := &terminal{cols: 80, rows: 24}
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
		t.sizeFd, t.haveSize = f.Fd(), true
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if raw {
			saved, err := term.MakeRaw(f.Fd())
			if err != nil {
				return nil, fmt.Errorf("raw mode: %w", err)
			}
			t.raw, t.inFd, t.saved = true, f.Fd(), saved
		}
		if !t.haveSize {
			t.sizeFd, t.haveSize = f.Fd(), true
		}
		t.winch = make(chan os.Signal, 1)
		t.stop = make(chan os.Signal, 1)
		notifyResize(t.winch)
		signal.Notify(t.stop, stopSignals...)
	}
	if cols, rows, ok := t.size(); ok {
		t.cols, t.rows = cols, rows
	}
	return t, nil
}

// size reads the terminal's current size.
func (t *terminal) size() (cols, rows int, ok bool) {
	if !t.haveSize {
		return 0, 0, false
	}
	cols, rows, err := term.GetSize(t.sizeFd)
	if err != nil || cols <= 0 || rows <= 0 {
		return 0, 0, false
	}
	return cols, rows, true
}

// restore stops the signal notifications and leaves raw mode.
func (t *terminal) restore() {
	if t.winch != nil {
		signal.Stop(t.winch)
		signal.Stop(t.stop)
	}
	if t.raw {
		_ = term.Restore(t.inFd, t.saved) // the terminal may be gone (hang-up): nothing to do
	}
}
