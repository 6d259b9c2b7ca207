package ui

// Input-routing tests over the same headless harness: pastes, focus reports, the mouse
// (focus, forwarding in pane-local coordinates, the wheel) and scroll mode, each checked
// by what the panes' programs were sent and what the view shows.

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/keys"
)

func TestPaste(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	hs.input(keys.Paste{Text: "one\ntwo"})
	if got := hs.procs[1].Sent(); got != "one\ntwo" && got != "one\rtwo" {
		t.Errorf("plain paste sent %q", got)
	}
	hs.output(1, "\x1b[?2004h")
	hs.input(keys.Paste{Text: "x\x1b[201~y"})
	if got, want := hs.procs[1].Sent(), "\x1b[200~xy\x1b[201~"; got != want {
		t.Errorf("bracketed paste sent %q, want %q", got, want)
	}
	// A paste cancels a pending prefix instead of being swallowed by it.
	hs.press(testPrefix)
	hs.input(keys.Paste{Text: "z"})
	if hs.m.mode != modeNormal || hs.procs[1].Sent() != "\x1b[200~z\x1b[201~" {
		t.Error("paste after the prefix was not delivered")
	}
}

func TestFocusEventsGoOnlyToPanesThatAsked(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.output(2, "\x1b[?1004h")
	hs.input(keys.Focus{In: false})
	if got := hs.procs[1].Sent(); got != "" {
		t.Errorf("pane 1 (no 1004) got %q", got)
	}
	if got := hs.procs[2].Sent(); got != "\x1b[O" {
		t.Errorf("pane 2 got %q, want CSI O", got)
	}
	// Moving focus between panes sends nothing.
	hs.press(testPrefix, runeKey('2'), testPrefix, runeKey('1'))
	if got := hs.procs[2].Sent(); got != "" {
		t.Errorf("switching panes sent %q to pane 2", got)
	}
}

func TestMouse(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	// A click on pane 2 focuses it; its program did not ask for the mouse: nothing sent.
	hs.input(keys.Mouse{X: 80, Y: 10, Button: keys.ButtonLeft, Action: keys.MousePress})
	hs.input(keys.Mouse{X: 80, Y: 10, Button: keys.ButtonLeft, Action: keys.MouseRelease})
	if hs.m.focus != 2 || hs.procs[2].Sent() != "" {
		t.Fatalf("click: focus %d", hs.m.focus)
	}
	// Pane 1 asks for SGR mouse reports: a click arrives in pane-local coordinates.
	hs.output(1, "\x1b[?1000h\x1b[?1006h")
	hs.input(keys.Mouse{X: 5, Y: 3, Button: keys.ButtonLeft, Action: keys.MousePress})
	hs.input(keys.Mouse{X: 70, Y: 3, Button: keys.ButtonLeft, Action: keys.MouseRelease})
	if hs.m.focus != 1 {
		t.Errorf("focus %d after clicking pane 1", hs.m.focus)
	}
	// Content starts at (1,1): (5,3) is (4,2), 1-based (5,3); the release outside the
	// pane is clamped to its last column (57).
	if got, want := hs.procs[1].Sent(), "\x1b[<0;5;3M\x1b[<0;58;3m"; got != want {
		t.Errorf("mouse reports %q, want %q", got, want)
	}
	// The wheel over a program that did not ask scrolls its history.
	for i := range 60 {
		hs.output(2, strings.Repeat("x", i%7)+"line\r\n")
	}
	hs.input(keys.Mouse{X: 80, Y: 10, Button: keys.WheelUp, Action: keys.MousePress})
	if v := hs.m.views[2]; v.scroll == nil {
		t.Fatal("wheel up did not enter scroll mode")
	}
	hs.input(keys.Mouse{X: 80, Y: 10, Button: keys.WheelDown, Action: keys.MousePress})
	if v := hs.m.views[2]; v.scroll != nil {
		t.Error("wheel down to the bottom did not leave scroll mode")
	}
	// The wheel over a program that asked for the mouse is forwarded.
	hs.input(keys.Mouse{X: 5, Y: 3, Button: keys.WheelUp, Action: keys.MousePress})
	if got := hs.procs[1].Sent(); got != "\x1b[<64;5;3M" {
		t.Errorf("wheel forwarded as %q", got)
	}
}

func TestScrollMode(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		b.WriteString("line " + itoa(i) + "\r\n")
	}
	hs.output(1, b.String())
	hs.press(testPrefix, runeKey('['))
	hs.press(codeKey(keys.KeyPgUp))
	hs.golden()
	txt := hs.text()
	// 100 lines on a 37-row pane: 64 in history, the screen starts at line 65; a page up
	// (36 rows) shows lines 29 to 65.
	if !strings.Contains(txt, "│line 29 ") || strings.Contains(txt, "line 66") {
		t.Errorf("PgUp did not show earlier lines:\n%s", txt)
	}
	if !strings.Contains(txt, "SCROLL 36 up") {
		t.Error("status line lacks the scroll position")
	}
	// Output arriving meanwhile does not move the view.
	hs.output(1, "new 1\r\nnew 2\r\n")
	if got := hs.text(); !strings.Contains(got, "│line 29 ") || !strings.Contains(got, "SCROLL 38 up") {
		t.Errorf("view moved with new output:\n%s", got)
	}
	// Keys are not sent while scrolling; g goes to the top, q leaves.
	hs.press(runeKey('g'))
	if !strings.Contains(hs.text(), "line 1 ") {
		t.Error("g did not go to the oldest line")
	}
	hs.press(runeKey('q'))
	if hs.m.views[1].scroll != nil || hs.procs[1].Sent() != "" {
		t.Error("q did not leave scroll mode cleanly")
	}
}

// TestWheelOnTheAlternateScreenSendsArrows: less, man and other full-screen programs
// that do not report the mouse get three arrow keys per notch, as xterm's alternate
// scroll and tmux send them, in the cursor-key form the program set (DECCKM), and the
// pane does not enter scroll mode.
func TestWheelOnTheAlternateScreenSendsArrows(t *testing.T) {
	hs := newHarness(t, 120, 40, "less")
	hs.output(1, "\x1b[?1049h\x1b[Hpage one")
	hs.input(keys.Mouse{X: 5, Y: 3, Button: keys.WheelDown, Action: keys.MousePress})
	hs.input(keys.Mouse{X: 5, Y: 3, Button: keys.WheelUp, Action: keys.MousePress})
	if got, want := hs.procs[1].Sent(), strings.Repeat("\x1b[B", 3)+strings.Repeat("\x1b[A", 3); got != want {
		t.Errorf("wheel on the alternate screen sent %q, want %q", got, want)
	}
	if hs.m.views[1].scroll != nil {
		t.Error("the wheel entered scroll mode over a full-screen program")
	}
	hs.output(1, "\x1b[?1h") // application cursor keys, as less sets them
	hs.input(keys.Mouse{X: 5, Y: 3, Button: keys.WheelUp, Action: keys.MousePress})
	if got, want := hs.procs[1].Sent(), strings.Repeat("\x1bOA", 3); got != want {
		t.Errorf("wheel with DECCKM sent %q, want %q", got, want)
	}
	// Back on the main screen the wheel scrolls history again.
	hs.output(1, "\x1b[?1l\x1b[?1049l")
	hs.input(keys.Mouse{X: 5, Y: 3, Button: keys.WheelUp, Action: keys.MousePress})
	if hs.procs[1].Sent() != "" || hs.m.views[1].scroll == nil {
		t.Error("the wheel on the main screen did not scroll history")
	}
}

// A terminal made shorter and then taller again (a smaller one attached and gone) shows
// a pane's lines again, taken back from its history, live and in scroll mode alike:
// the scroll view at the bottom moves up with the screen's top.
func TestAPaneGrownBackShowsItsLines(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		b.WriteString("line " + itoa(i) + "\r\n")
	}
	hs.output(1, b.String())
	// 37 rows: lines 65 to 100 and the empty row of the cursor
	firstRow := func() string { return strings.Trim(strings.Split(hs.text(), "\n")[1], "│ ") }
	require.Equal(t, "line 65", firstRow())
	hs.send(tea.WindowSizeMsg{Width: 120, Height: 20})
	hs.settle()
	hs.press(testPrefix, runeKey('['))
	hs.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	hs.settle()
	assert.Equal(t, "line 65", firstRow(), "scroll mode's first row")
	assert.Contains(t, hs.text(), "SCROLL bottom")
	hs.press(runeKey('q'))
	assert.Equal(t, "line 65", firstRow(), "the live screen's first row")
}
