package tty

// The screen writer is checked by what it writes: the first frame and any frame of a new
// size repaint everything, later frames only their changed rows at absolute positions,
// each inside one synchronized update; and the bytes, replayed into a vterm of the same
// size, must show exactly the frames' text, with the cursor where and as the frame put
// it. Sequences queued with Send come after a frame, never inside one. Writes are
// awaited on a channel.

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmux/agentmux/vterm"
)

// chanWriter records each Write and signals it.
type chanWriter struct {
	mu     sync.Mutex
	writes []string
	c      chan struct{}
}

func (w *chanWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, string(p))
	w.mu.Unlock()
	w.c <- struct{}{}
	return len(p), nil
}

func (w *chanWriter) wait(t *testing.T) string {
	t.Helper()
	select {
	case <-w.c:
	case <-time.After(5 * time.Second):
		t.Fatal("no write")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes[len(w.writes)-1]
}

func TestScreenWriter(t *testing.T) {
	w := &chanWriter{c: make(chan struct{}, 8)}
	s := NewScreen(w)
	defer s.Close()
	term := vterm.New(vterm.Options{Cols: 10, Rows: 3})
	show := func(lines ...string) string {
		s.Present(lines, 10, len(lines), Cursor{})
		out := w.wait(t)
		term.Write([]byte(out))
		if got := strings.Join(term.ScreenText(), "|"); got != strings.Join(trimAll(lines), "|") {
			t.Errorf("terminal shows %q, want %q", got, lines)
		}
		if !strings.HasPrefix(out, "\x1b[?2026h") || !strings.HasSuffix(out, "\x1b[?2026l") {
			t.Errorf("frame not one synchronized update: %q", out)
		}
		return out
	}
	out := show("aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc")
	if !strings.Contains(out, "\x1b[2J") || !strings.Contains(out, "\x1b[3;1Hcccccccccc") {
		t.Errorf("first frame not a full paint: %q", out)
	}
	out = show("aaaaaaaaaa", "bbbbXbbbbb", "cccccccccc")
	if want := "\x1b[?2026h\x1b[2;1HbbbbXbbbbb\x1b[?2026l"; out != want {
		t.Errorf("one changed row wrote %q, want %q", out, want)
	}
	term.Resize(10, 2)
	out = show("xxxxxxxxxx", "yyyyyyyyyy")
	if !strings.Contains(out, "\x1b[2J") {
		t.Errorf("a new size did not repaint everything: %q", out)
	}
}

// trimAll trims trailing blanks of every line, as ScreenText does.
func trimAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

func TestScreenWriterPutsTheCursor(t *testing.T) {
	w := &chanWriter{c: make(chan struct{}, 8)}
	s := NewScreen(w)
	defer s.Close()
	term := vterm.New(vterm.Options{Cols: 10, Rows: 3})
	rows := []string{"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"}
	s.Present(rows, 10, 3, Cursor{})
	term.Write([]byte(w.wait(t)))
	if term.Snapshot().Cursor.Visible {
		t.Fatal("a frame with a hidden cursor left it shown")
	}
	// Only the cursor changes: it moves, takes the bar shape and shows.
	s.Present(rows, 10, 3, Cursor{X: 3, Y: 1, Visible: true, Shape: 6})
	out := w.wait(t)
	if want := "\x1b[?2026h\x1b[6 q\x1b[2;4H\x1b[?25h\x1b[?2026l"; out != want {
		t.Errorf("cursor move wrote %q, want %q", out, want)
	}
	term.Write([]byte(out))
	if c := term.Snapshot().Cursor; c.X != 3 || c.Y != 1 || !c.Visible || c.Shape != vterm.CursorShape(6) {
		t.Errorf("terminal cursor %+v, want bar at (3,1) shown", c)
	}
	// A row changes under a shown cursor: hidden while drawing, shown again after, and
	// the shape, unchanged, is not sent again.
	rows = []string{"aaaaaaaaaa", "bbbbXbbbbb", "cccccccccc"}
	s.Present(rows, 10, 3, Cursor{X: 3, Y: 1, Visible: true, Shape: 6})
	if out, want := w.wait(t), "\x1b[?2026h\x1b[?25l\x1b[2;1HbbbbXbbbbb\x1b[2;4H\x1b[?25h\x1b[?2026l"; out != want {
		t.Errorf("row under the cursor wrote %q, want %q", out, want)
	}
	// A queued sequence is written after a frame, on its own.
	s.Send("\x1b]52;c;aGk=\x07")
	if out := w.wait(t); out != "\x1b]52;c;aGk=\x07" {
		t.Errorf("Send wrote %q", out)
	}
}

// TestScreenRepaintDrawsTheLastFrameWhole: after Repaint the same frame is written again
// whole (clear, every row), as a terminal that cut its picture in a resize needs; a
// frame presented with it is drawn whole too.
func TestScreenRepaintDrawsTheLastFrameWhole(t *testing.T) {
	w := &chanWriter{c: make(chan struct{}, 8)}
	s := NewScreen(w)
	defer s.Close()
	s.Present([]string{"one", "two"}, 10, 2, Cursor{})
	w.wait(t)
	s.Present([]string{"one", "two"}, 10, 2, Cursor{})
	s.Repaint()
	out := w.wait(t)
	if !strings.Contains(out, "\x1b[2J") || !strings.Contains(out, "one") || !strings.Contains(out, "two") {
		t.Errorf("a repaint of an unchanged frame wrote %q, want it whole", out)
	}
	s.Repaint()
	out = w.wait(t)
	if !strings.Contains(out, "\x1b[2J") || !strings.Contains(out, "two") {
		t.Errorf("a repaint with no new frame wrote %q, want the last one whole", out)
	}
}
