package vterm

// Kept frames (KeepFrames, ReadFrames): the alternate screen's states between writes
// that no ReadFrames saw come back in order, once; none while the main screen is active,
// none inside a synchronized-output frame, none twice in a row; past the limit they are
// thinned to states spread over all the writes; a terminal that keeps none keeps none. A writer racing a reader loses no state: every
// frame a full-screen program drew reaches the reader, kept or read.

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// rowsOf returns the trimmed rows of the readings.
func rowsOf(rds []TextReading) []string {
	var out []string
	for _, rd := range rds {
		out = append(out, strings.TrimRight(strings.Join(rd.Rows, "|"), "|"))
	}
	return out
}

func TestKeepFramesKeepsUnreadStates(t *testing.T) {
	term := New(Options{Cols: 6, Rows: 2})
	term.KeepFrames(8)
	frame := func(s string) string { return "\x1b[H\x1b[2J" + s }
	term.Write([]byte("\x1b[?1049h"))
	term.Write([]byte(frame("one")))
	term.Write([]byte(frame("two")))
	term.Write([]byte(frame("two")))   // the same again: not kept twice
	term.Write([]byte("\x1b[?2026h"))  // a synchronized frame opens...
	term.Write([]byte(frame("half")))  // ...the state before this write is mid-frame
	term.Write([]byte("\x1b[?2026l"))  // ...and this one's too
	term.Write([]byte(frame("three"))) // the state before it: "half", the frame done
	kept, now := term.ReadFrames(-1)
	want := []string{"", "one", "two", "half"}
	if got := rowsOf(kept); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("kept %q, want %q", got, want)
	}
	for _, k := range kept {
		if !k.AltScreen || k.Lines != nil {
			t.Fatalf("a kept frame should be of the alternate screen, with no lines: %+v", k)
		}
	}
	if now.Rows[0] != "three" {
		t.Fatalf("the reading shows %q, want the last state", now.Rows)
	}
	// Read: nothing kept until a write follows a write.
	term.Write([]byte(frame("four")))
	if kept, _ := term.ReadFrames(-1); len(kept) != 0 {
		t.Fatalf("a state read was kept again: %q", rowsOf(kept))
	}
	term.Write([]byte(frame("five")))
	term.Write([]byte(frame("six")))
	if kept, _ := term.ReadFrames(-1); fmt.Sprint(rowsOf(kept)) != "[five]" {
		t.Fatalf("kept %q, want [five]", rowsOf(kept))
	}
	// The main screen has history: nothing of it is kept.
	term.Write([]byte("\x1b[?1049l"))
	term.Write([]byte("a\r\n"))
	term.Write([]byte("b\r\n"))
	if kept, _ := term.ReadFrames(-1); len(kept) != 0 {
		t.Fatalf("main-screen states were kept: %q", rowsOf(kept))
	}
}

func TestKeepFramesLimit(t *testing.T) {
	term := New(Options{Cols: 6, Rows: 2})
	term.Write([]byte("\x1b[?1049h"))
	term.Write([]byte("x"))
	term.Write([]byte("y"))
	if kept, _ := term.ReadFrames(-1); len(kept) != 0 {
		t.Fatalf("a terminal told to keep none kept %q", rowsOf(kept))
	}
	term.KeepFrames(3)
	for i := range 10 {
		term.Write([]byte(fmt.Sprintf("\x1b[H%d", i)))
	}
	kept, _ := term.ReadFrames(-1)
	// Kept: 0 1 2 (full: thinned to 0 2, every 2nd kept from now), 4 (thinned to 0 4,
	// every 4th), 8 (thinned to 0 8).
	if got := rowsOf(kept); fmt.Sprint(got) != "[0y 8y]" {
		t.Fatalf("kept %q, want states spread over the writes no reading saw", got)
	}
	term.Write([]byte("a"))
	term.KeepFrames(0)
	term.Write([]byte("b"))
	if kept, _ := term.ReadFrames(-1); len(kept) != 0 {
		t.Fatalf("kept %q after KeepFrames(0)", rowsOf(kept))
	}
}

// A writer draws numbered frames while a reader reads as it can: together the kept
// frames and the readings show every frame, in order.
func TestKeepFramesRacingReader(t *testing.T) {
	const n = 2000
	term := New(Options{Cols: 8, Rows: 1})
	term.KeepFrames(n)
	term.Write([]byte("\x1b[?1049h"))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; i <= n; i++ {
			term.Write([]byte(fmt.Sprintf("\x1b[H\x1b[2K%d", i)))
		}
	}()
	var seen []string
	for len(seen) == 0 || seen[len(seen)-1] != fmt.Sprint(n) {
		kept, now := term.ReadFrames(-1)
		for _, rd := range append(kept, now) {
			if r := rd.Rows[0]; r != "" && (len(seen) == 0 || seen[len(seen)-1] != r) {
				seen = append(seen, r)
			}
		}
	}
	wg.Wait()
	for i, s := range seen {
		if s != fmt.Sprint(i+1) {
			t.Fatalf("frame %d seen as %q: frames were lost or reordered (%d seen)", i+1, s, len(seen))
		}
	}
}

// A program that marks its frames and is read late has several of them in one write (a
// PTY read takes what it wrote meanwhile): each frame that ends before the write's last
// byte is kept, not only the state before the write.
func TestKeepFramesKeepsEachSynchronizedFrameOfAWrite(t *testing.T) {
	term := New(Options{Cols: 6, Rows: 2})
	term.KeepFrames(8)
	frame := func(s string) string { return "\x1b[?2026h\x1b[H\x1b[2J" + s + "\x1b[?2026l" }
	term.Write([]byte("\x1b[?1049h" + frame("zero")))
	term.ReadFrames(-1)
	term.Write([]byte(frame("one") + frame("two") + frame("three")))
	kept, now := term.ReadFrames(-1)
	if got := rowsOf(kept); fmt.Sprint(got) != "[one two]" {
		t.Fatalf("kept %q, want [one two]", got)
	}
	if now.Rows[0] != "three" {
		t.Fatalf("the reading shows %q, want the last frame", now.Rows)
	}
	// A frame split over two writes is one frame; the state at a write's end inside a
	// frame is not kept.
	term.Write([]byte(frame("four") + "\x1b[?2026h\x1b[H\x1b[2Jfi"))
	term.Write([]byte("ve\x1b[?2026l" + frame("six")))
	kept, now = term.ReadFrames(-1)
	if got := rowsOf(kept); fmt.Sprint(got) != "[four five]" {
		t.Fatalf("kept %q, want [four five]", got)
	}
	if now.Rows[0] != "six" {
		t.Fatalf("the reading shows %q, want the last frame", now.Rows)
	}
}
