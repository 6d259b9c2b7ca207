package vterm

// Snapshots: identity and immutability. An unchanged terminal returns the same
// snapshot; a changed row gets a new *Line while the others keep theirs (also when rows
// move by scrolling); a snapshot never changes after it is taken, whatever is written
// next. A concurrent writer and readers run under the race detector.

import (
	"fmt"
	"sync"
	"testing"
)

func TestSnapshotIdentity(t *testing.T) {
	term := newTerm(10, 4, "a\r\nb\r\nc")
	s1 := term.Snapshot()
	if s2 := term.Snapshot(); s2 != s1 {
		t.Error("unchanged terminal returned a new snapshot")
	}
	term.Write([]byte("\x1b[2;1HX"))
	s3 := term.Snapshot()
	if s3.Seq == s1.Seq {
		t.Error("Seq did not change after a write")
	}
	for y := range s3.Lines {
		same := s3.Lines[y] == s1.Lines[y]
		if y == 1 && same {
			t.Error("changed row kept its *Line")
		}
		if y != 1 && !same {
			t.Errorf("unchanged row %d got a new *Line", y)
		}
	}
	// scrolling moves Lines without copying them
	term.Write([]byte("\x1b[4;1H\n"))
	s4 := term.Snapshot()
	if s4.Lines[0] != s3.Lines[1] || s4.Lines[1] != s3.Lines[2] {
		t.Error("rows moved by a scroll were copied instead of reused")
	}
}

func TestSnapshotIsImmutable(t *testing.T) {
	term := newTerm(10, 3, "hello\r\nworld")
	s := term.Snapshot()
	before := fmt.Sprint(rowsOfLines(s.Lines))
	term.Write([]byte("\x1b[1;1HXXXXX\x1b[2;1H\x1b[2K\x1b[3@\x1b[P\x1b[4h中\x1b[?1049hALT\x1b[?1049l"))
	term.Resize(3, 2)
	if after := fmt.Sprint(rowsOfLines(s.Lines)); after != before {
		t.Errorf("snapshot changed after later writes: %s → %s", before, after)
	}
	if s.Cols != 10 || len(s.Lines[0].Cells) != 10 {
		t.Error("snapshot size changed after Resize")
	}
}

func rowsOfLines(ls []*Line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = lineString(l)
	}
	return out
}

func TestSnapshotFields(t *testing.T) {
	term := newTerm(10, 3, "\x1b]0;T\x07\x07a\r\nb\r\nc\r\nd\x1b[?2004h\x1b[?25l")
	s := term.Snapshot()
	if s.Cols != 10 || s.Rows != 3 || s.Title != "T" || s.Bells != 1 || s.HistoryLen != 1 ||
		s.AltScreen || !s.Modes.BracketedPaste || s.Cursor.Visible || s.Cursor.X != 1 || s.Cursor.Y != 2 {
		t.Errorf("snapshot %+v", s)
	}
	for _, l := range s.Lines {
		if len(l.Cells) != 10 {
			t.Errorf("line of %d cells", len(l.Cells))
		}
	}
}

// TestConcurrentReaders reads snapshots, text and history while the terminal is written
// and resized. It can only fail under the race detector (go test -race, as make test
// runs it): without -race it passes even if a lock were missing.
func TestConcurrentReaders(t *testing.T) {
	term := New(Options{Cols: 40, Rows: 10})
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				s := term.Snapshot()
				for _, l := range s.Lines {
					_ = lineString(l)
				}
				term.ScreenText()
				term.TextFrom(0)
				term.HistoryLines(0, 5)
				term.ScreenTop()
			}
		}()
	}
	for i := 0; i < 500; i++ {
		fmt.Fprintf(term, "\x1b[3%dmline %d with some text\x1b[0m\r\n", i%8, i)
		if i%100 == 0 {
			term.Resize(30+i%20, 8+i%5)
		}
	}
	close(stop)
	wg.Wait()
}
