package ui

// Copy mode through Update: in scroll mode the copy cursor starts where the program's
// cursor is, moves with the keys, v starts a selection drawn in reverse video, y copies
// it (the text, rows joined by newlines, soft-wrapped rows joined whole) to the outer
// terminal's clipboard with OSC 52 handed to the screen writer, never inside a frame;
// / searches older rows and n/N step between matches; a drag over a pane that does not
// take the mouse selects and its release copies, while a pane that does take it still
// gets the drag.

import (
	"strings"
	"sync"
	"testing"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/tty"
)

// recordScreen is a presenter that keeps what is sent besides frames.
type recordScreen struct {
	mu   sync.Mutex
	sent []string
}

func (r *recordScreen) Present([]string, int, int, tty.Cursor) {}
func (r *recordScreen) Send(seq string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, seq)
}

func TestOSC52(t *testing.T) {
	if got := osc52("hi"); got != "\x1b]52;c;aGk=\x07" {
		t.Errorf("osc52(hi) = %q", got)
	}
}

func TestCopyModeSelectsWithKeys(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	rec := &recordScreen{}
	hs.output(1, "alpha beta\r\ngamma delta\r\n$ ")
	hs.press(testPrefix, runeKey('['))
	s := hs.m.views[1].scroll
	if s == nil || s.cur.col != 2 || s.cur.row != s.top+2 {
		t.Fatalf("copy cursor %+v, want at the program's cursor (row 2, col 2)", s)
	}
	// Up twice, to column 6 ("beta"), select to the end of the line.
	hs.press(codeKey(keys.KeyUp), codeKey(keys.KeyUp), runeKey('0'))
	hs.press(textKeys("llllll")...)
	hs.press(runeKey('v'))
	hs.press(runeKey('$'))
	if v := hs.view(); !strings.Contains(v, "alpha \x1b[7mbeta\x1b[m") {
		t.Errorf("the selection is not drawn in reverse video:\n%q", strings.Split(v, "\n")[1])
	}
	hs.m.scr = rec // from here the frames go to the recorder: only state is read
	hs.press(runeKey('y'))
	if hs.m.copied != "beta" {
		t.Errorf("copied %q, want \"beta\"", hs.m.copied)
	}
	if len(rec.sent) != 1 || rec.sent[0] != osc52("beta") {
		t.Errorf("sent to the terminal %q, want one OSC 52 of beta", rec.sent)
	}
	if hs.m.views[1].scroll != nil || hs.procs[1].Sent() != "" {
		t.Error("y did not leave scroll mode cleanly")
	}
	// Across rows, from "beta" to "gam": rows joined by a newline.
	hs.m.scr = nil
	hs.press(testPrefix, runeKey('['))
	hs.press(codeKey(keys.KeyUp), codeKey(keys.KeyUp), runeKey('0'))
	hs.press(textKeys("llllll")...)
	hs.press(runeKey(' '), codeKey(keys.KeyDown), runeKey('0'), runeKey('l'), runeKey('l'), codeKey(keys.KeyEnter))
	if hs.m.copied != "beta\ngam" {
		t.Errorf("copied %q, want \"beta\\ngam\"", hs.m.copied)
	}
	// Esc drops a selection first, then leaves.
	hs.press(testPrefix, runeKey('['), runeKey('v'), codeKey(keys.KeyEscape))
	if v := hs.m.views[1]; v.scroll == nil || v.scroll.anchor != nil {
		t.Fatal("Esc did not just drop the selection")
	}
	hs.press(codeKey(keys.KeyEscape))
	if hs.m.views[1].scroll != nil {
		t.Error("a second Esc did not leave scroll mode")
	}
}

func TestCopyModeJoinsSoftWrappedRows(t *testing.T) {
	hs := newHarness(t, 30, 10, "a") // 28 columns of content
	long := strings.Repeat("x", 28) + "yz"
	hs.output(1, long+"\r\n$ ")
	hs.press(testPrefix, runeKey('['))
	hs.press(codeKey(keys.KeyUp), codeKey(keys.KeyUp), runeKey('0'), runeKey('v'))
	hs.press(codeKey(keys.KeyDown), runeKey('$'), runeKey('y'))
	if hs.m.copied != long {
		t.Errorf("copied %q, want the wrapped line whole %q", hs.m.copied, long)
	}
}

func TestCopyModeSearch(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		b.WriteString("line " + itoa(i) + "\r\n")
	}
	hs.output(1, b.String())
	hs.press(testPrefix, runeKey('['), runeKey('/'))
	hs.press(textKeys("LINE 42")...)
	if !strings.Contains(hs.statusLine(), "/ LINE 42") {
		t.Errorf("the status line does not show the search text: %q", hs.statusLine())
	}
	hs.press(codeKey(keys.KeyEnter))
	s := hs.m.views[1].scroll
	if !strings.Contains(hs.m.status.text, "not found") {
		t.Errorf("upper case must match case: status %q", hs.m.status.text)
	}
	hs.press(runeKey('/'))
	hs.press(textKeys("line 4")...)
	hs.press(codeKey(keys.KeyEnter))
	row := func() string { return cellsText(lineAt(hs.m.views[1], s.cur.row), 0, 100) }
	if got := strings.TrimSpace(row()); got != "line 49" {
		t.Fatalf("the first match up is %q, want line 49", got)
	}
	if !strings.Contains(hs.view(), "\x1b[7mline 4\x1b[m9") {
		t.Error("the match is not highlighted")
	}
	hs.press(runeKey('n'), runeKey('n'))
	if got := strings.TrimSpace(row()); got != "line 47" {
		t.Errorf("n n went to %q, want line 47", got)
	}
	hs.press(runeKey('N'))
	if got := strings.TrimSpace(row()); got != "line 48" {
		t.Errorf("N went to %q, want line 48", got)
	}
	// Far up: the view follows the cursor into the history.
	for range 9 {
		hs.press(runeKey('n'))
	}
	if got := strings.TrimSpace(row()); got != "line 4" || !strings.Contains(hs.text(), "│line 4 ") {
		t.Errorf("n to the oldest match: cursor on %q, view:\n%s", got, hs.text())
	}
	if hs.procs[1].Sent() != "" {
		t.Error("search keys reached the pane")
	}
}

func TestMouseDragSelects(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	rec := &recordScreen{}
	hs.output(1, "hello world\r\nsecond row\r\n")
	// Pane 1's content starts at (1,1): drag from "world" (col 6) to the end of "second".
	hs.input(keys.Mouse{X: 7, Y: 1, Button: keys.ButtonLeft, Action: keys.MousePress})
	hs.input(keys.Mouse{X: 9, Y: 2, Button: keys.ButtonLeft, Action: keys.MouseMotion})
	hs.input(keys.Mouse{X: 6, Y: 2, Button: keys.ButtonLeft, Action: keys.MouseMotion})
	if v := hs.m.views[1]; v.scroll == nil || v.scroll.anchor == nil {
		t.Fatal("a drag did not start a selection")
	}
	hs.m.scr = rec
	hs.input(keys.Mouse{X: 6, Y: 2, Button: keys.ButtonLeft, Action: keys.MouseRelease})
	if hs.m.copied != "world\nsecond" || len(rec.sent) != 1 {
		t.Errorf("drag copied %q (sent %q), want \"world\\nsecond\"", hs.m.copied, rec.sent)
	}
	if hs.m.views[1].scroll != nil {
		t.Error("the release did not leave the scroll mode the drag entered")
	}
	// A click is no selection.
	hs.input(keys.Mouse{X: 7, Y: 1, Button: keys.ButtonLeft, Action: keys.MousePress})
	hs.input(keys.Mouse{X: 7, Y: 1, Button: keys.ButtonLeft, Action: keys.MouseRelease})
	if len(rec.sent) != 1 || hs.m.views[1].scroll != nil {
		t.Error("a click copied or entered scroll mode")
	}
	// A program that takes the mouse gets the drag.
	hs.m.scr = nil
	hs.output(2, "\x1b[?1002h\x1b[?1006h")
	hs.input(keys.Mouse{X: 70, Y: 1, Button: keys.ButtonLeft, Action: keys.MousePress})
	hs.input(keys.Mouse{X: 72, Y: 1, Button: keys.ButtonLeft, Action: keys.MouseMotion})
	hs.input(keys.Mouse{X: 72, Y: 1, Button: keys.ButtonLeft, Action: keys.MouseRelease})
	if got := hs.procs[2].Sent(); !strings.Contains(got, "\x1b[<32;") || hs.m.views[2].scroll != nil {
		t.Errorf("pane 2 got %q; the drag must be its program's", got)
	}
}

// A program's own clipboard write (OSC 52) reaches the outer terminal only when the
// person allowed it ([ui] allow_clipboard); otherwise the status line says it was held.
func TestProgramClipboardWrites(t *testing.T) {
	hs := newHarnessCfg(t, 120, 20, Config{AllowClipboard: true}, "vim")
	rec := &recordScreen{}
	hs.m.scr = rec
	hs.output(1, "x\x1b]52;c;aGVsbG8=\x07")
	if len(rec.sent) != 1 || rec.sent[0] != osc52("hello") {
		t.Errorf("sent to the terminal %q, want one OSC 52 of hello", rec.sent)
	}
	if !strings.Contains(hs.m.status.text, "pane 1 vim copied 5 characters") {
		t.Errorf("status %q does not say the pane copied", hs.m.status.text)
	}

	hs = newHarness(t, 120, 20, "vim")
	rec = &recordScreen{}
	hs.m.scr = rec
	hs.output(1, "x\x1b]52;c;aGVsbG8=\x07\x1b]52;c;?\x07")
	if len(rec.sent) != 0 {
		t.Errorf("a clipboard write reached the terminal without allow_clipboard: %q", rec.sent)
	}
	if !strings.Contains(hs.m.status.text, "not passed on ([ui] allow_clipboard") {
		t.Errorf("status %q does not say the write was held back", hs.m.status.text)
	}
	if got := hs.procs[1].Sent(); got != "" {
		t.Errorf("the clipboard read was answered: %q", got)
	}
}
