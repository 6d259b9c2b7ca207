package demo

// The alternate-screen style is checked on the emulated screen: the header, the composer
// with the real cursor at the end of the draft, the busy row and braille title, answers in
// the transcript, wheel scrolling, and the modes entered and left in the raw output.

import (
	"strings"
	"testing"
	"time"
)

func TestAltIdleScreen(t *testing.T) {
	h := newHarness(t, 60, 20, "--name", "bob", "--style", "alt")
	raw := h.raw.String()
	for _, seq := range []string{altOn, kittyPush7, pasteOn, mouseOn, syncOn, syncOff} {
		if !strings.Contains(raw, seq) {
			t.Errorf("start-up output lacks %q", seq)
		}
	}
	h.want(">_ bob (simulated agent)", "› Ask bob to do anything", "bob · simulated · ? for shortcuts")
	rows := h.rows()
	if !strings.Contains(rows[len(rows)-1], "? for shortcuts") {
		t.Fatalf("the status row should be the last row:\n%s", h.screen())
	}
	if h.title() != "bob" {
		t.Errorf("idle title = %q", h.title())
	}
	if c := h.vt.Cursor(); c.Y != h.row("› Ask") || c.X != 2 || !h.vt.CursorVisible() {
		t.Errorf("cursor at %d,%d (visible %v), want in the composer at 2,%d", c.X, c.Y, h.vt.CursorVisible(), h.row("› Ask"))
	}
}

func TestAltFramesAreSynchronized(t *testing.T) {
	h := newHarness(t, 60, 20, "--style", "alt")
	out := h.typ("x")
	if !strings.HasPrefix(out, syncOn) || !strings.HasSuffix(out, syncOff) {
		t.Fatalf("a keystroke's redraw should be one synchronized frame: %q", out)
	}
}

func TestAltTurn(t *testing.T) {
	h := newHarness(t, 60, 20, "--name", "bob", "--style", "alt", "--reply", "echo")
	h.typ("hello world")
	h.want("› hello world")
	if c := h.vt.Cursor(); c.X != 2+len("hello world") {
		t.Errorf("cursor column %d, want after the draft", c.X)
	}
	h.typ("\r")
	h.want("› hello world", "• Working (0s • esc to interrupt)", "› Ask bob to do anything")
	if h.title() != "⠋ bob" {
		t.Errorf("busy title = %q", h.title())
	}
	h.tick(1)
	if h.title() != "⠙ bob" {
		t.Errorf("title after a tick = %q", h.title())
	}
	h.finish(time.Second)
	h.want("• bob heard: hello world")
	h.wantNot("Working")
	if h.title() != "bob" {
		t.Errorf("title after the turn = %q", h.title())
	}
	if h.row("› hello world") > h.row("• bob heard") {
		t.Fatalf("the message should be above its answer:\n%s", h.screen())
	}
}

func TestAltTranscriptTailAndWheel(t *testing.T) {
	h := newHarness(t, 50, 16, "--name", "b", "--style", "alt", "--reply", "echo")
	for i := range 8 {
		h.typ("note " + string(rune('A'+i)) + "\r")
		h.finish(time.Second)
	}
	h.want("b heard: note H")
	h.wantNot("› note A")
	h.typ(strings.Repeat("\x1b[<64;10;5M", 20)) // wheel up, past the top
	h.want("› note A")
	h.wantNot("b heard: note H")
	h.typ(strings.Repeat("\x1b[<65;10;5M", 12)) // and down again: enough when clamped at the top
	h.want("b heard: note H")
	h.wantNot("› note A")
}

func TestAltExitLeavesTheAlternateScreen(t *testing.T) {
	h := newHarness(t, 60, 20, "--name", "bob", "--style", "alt", "--exit-after", "1", "--exit-code", "3", "--reply", "echo")
	h.typ("bye\r")
	h.finish(time.Second)
	if !h.a.done || h.a.code != 3 {
		t.Fatalf("done %v code %d, want exit 3 after one answer", h.a.done, h.a.code)
	}
	h.a.finish()
	out := h.flush()
	pop, leave := strings.Index(out, kittyPop), strings.Index(out, altOff)
	if pop < 0 || leave < 0 || pop > leave {
		t.Fatalf("the kitty flags must be popped on the alternate screen, before leaving it: %q", out)
	}
	h.want("bob: 1 answers, bye.")
}

func TestAltTinyScreens(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {3, 2}, {12, 5}} {
		h := newHarness(t, size[0], size[1], "--style", "alt", "--queries")
		h.typ("some words that wrap\x1b[13;2umore\r")
		h.tick(2)
		rows, cx, cy := h.a.draw.(*frameDraw).compose(h.a)
		if len(rows) != size[1] {
			t.Fatalf("%v: composed %d rows", size, len(rows))
		}
		if cx < 0 || cx >= size[0] || cy < 0 || cy >= size[1] {
			t.Fatalf("%v: cursor %d,%d off screen", size, cx, cy)
		}
	}
}
