package demo

// Main on a real terminal: a PTY pair stands in for it. Main must put the terminal in raw
// mode while it runs (so keys arrive unprocessed), read its size from it, and restore the
// original mode when it returns.

import (
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
)

// onPTY is Main run on a new PTY pair: its master side (what a terminal emulator holds),
// its terminal side (Main's stdin and stdout), the terminal's mode before Main started,
// what Main draws and its exit status.
type onPTY struct {
	master, tty *os.File
	before      *term.State
	out         *liveOutput
	code        chan int
}

// runOnPTY starts Main with args on a PTY of cols×rows.
func runOnPTY(t *testing.T, cols, rows uint16, args ...string) *onPTY {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close(); tty.Close() })
	if err := pty.Setsize(master, &pty.Winsize{Cols: cols, Rows: rows}); err != nil {
		t.Fatal(err)
	}
	p := &onPTY{master: master, tty: tty, out: newLiveOutput(), code: make(chan int, 1)}
	go io.Copy(p.out, master) // drain what the agent draws; ends when the PTY closes
	if p.before, err = term.GetState(tty.Fd()); err != nil {
		t.Fatal(err)
	}
	go func() { p.code <- Main(args, tty, tty) }()
	return p
}

// modeChanged reports whether the terminal's mode differs from before Main started.
func (p *onPTY) modeChanged(t *testing.T) bool {
	t.Helper()
	now, err := term.GetState(p.tty.Fd())
	if err != nil {
		t.Fatal(err)
	}
	return !reflect.DeepEqual(p.before, now)
}

// exit waits for Main to return and fails unless its status is 0.
func (p *onPTY) exit(t *testing.T) {
	t.Helper()
	select {
	case c := <-p.code:
		if c != 0 {
			t.Fatalf("exit %d, want 0", c)
		}
	case <-deadline():
		t.Fatal("Main did not return")
	}
}

func TestMainOnATerminalRestoresIt(t *testing.T) {
	p := runOnPTY(t, 50, 12, "--name", "t", "--reply", "echo", "--busy", "0s")
	p.out.waitFor(t, "demo mode") // drawn: raw mode is on by now
	if !p.modeChanged(t) {
		t.Fatal("the terminal mode did not change while the agent ran (no raw mode)")
	}
	rule := strings.Repeat("─", 50)
	if !strings.Contains(p.out.String(), rule) || strings.Contains(p.out.String(), rule+"─") {
		t.Error("the input box should be exactly the terminal's 50 columns wide")
	}
	p.master.Write([]byte("hi\r")) // a CR submits: the terminal does not translate it
	p.out.waitFor(t, "t heard: hi")
	p.master.Write([]byte("\x04")) // Ctrl+D on the empty draft
	p.exit(t)
	if p.modeChanged(t) {
		t.Fatal("the terminal mode was not restored")
	}
}
