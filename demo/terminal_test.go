package demo

// Main on a real terminal: a PTY pair stands in for it. Main must put the terminal in raw
// mode while it runs (so keys arrive unprocessed), read its size from it, and restore the
// original mode when it returns.

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
)

func TestMainOnATerminalRestoresIt(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer tty.Close()
	if err := pty.Setsize(master, &pty.Winsize{Cols: 50, Rows: 12}); err != nil {
		t.Fatal(err)
	}
	out := newLiveOutput()
	go io.Copy(out, master) // drain what the agent draws; ends when the PTY closes

	before, err := term.GetState(tty.Fd())
	if err != nil {
		t.Fatal(err)
	}
	code := make(chan int, 1)
	go func() { code <- Main([]string{"--name", "t", "--reply", "echo", "--busy", "0s"}, tty, tty) }()

	out.waitFor(t, "demo mode") // drawn: raw mode is on by now
	during, err := term.GetState(tty.Fd())
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(before, during) {
		t.Fatal("the terminal mode did not change while the agent ran (no raw mode)")
	}
	rule := strings.Repeat("─", 50)
	if !strings.Contains(out.String(), rule) || strings.Contains(out.String(), rule+"─") {
		t.Error("the input box should be exactly the terminal's 50 columns wide")
	}
	master.Write([]byte("hi\r")) // a CR submits: the terminal does not translate it
	out.waitFor(t, "t heard: hi")
	master.Write([]byte("\x04")) // Ctrl+D on the empty draft
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit %d, want 0", c)
		}
	case <-deadline():
		t.Fatal("Main did not return after Ctrl+D")
	}
	after, err := term.GetState(tty.Fd())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Fatal("the terminal mode was not restored")
	}
}
