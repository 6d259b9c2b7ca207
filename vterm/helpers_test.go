package vterm_test

// Shared helpers for the black-box tests of the emulator (oracle, fixture, fuzz and
// benchmark files). Strategy: every test here is in package vterm_test and uses only the
// public contract (New, Write, Resize, Snapshot, ScreenText, HistoryLines...), so the tests
// say what a host can rely on and never depend on, or collide with, the emulator's
// internals. The helpers compare whole snapshots field by field, check the structural
// invariants every snapshot must hold (sizes, cursor inside, no orphan wide halves), and
// run a call under a deadline so a hang fails the test instead of stalling it.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/vterm"
)

// fixtureDir returns the recorded agent streams kept in the repository
// (testdata/agent-streams at the module root). A checkout without them is broken, so the
// test fails rather than skips.
func fixtureDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "agent-streams"))
	if err != nil {
		t.Fatalf("resolve fixture dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Fatalf("agent-stream fixtures missing at %s: %v", dir, err)
	}
	return dir
}

// rowsOfSnapshot renders a snapshot's lines the way ScreenText promises to: wide
// characters once, empty cells as spaces, trailing blanks trimmed.
func rowsOfSnapshot(s *vterm.Snapshot) []string {
	out := make([]string, len(s.Lines))
	var b strings.Builder
	for i, l := range s.Lines {
		b.Reset()
		for _, c := range l.Cells {
			b.WriteString(c.String())
		}
		out[i] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// trimRows trims trailing spaces from every row (oracles and ScreenText may differ only
// in trailing blanks, which no terminal distinguishes).
func trimRows(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(r, " ")
	}
	return out
}

// diffRows describes the rows where want and got differ, or returns "".
func diffRows(want, got []string) string {
	var b strings.Builder
	if len(want) != len(got) {
		fmt.Fprintf(&b, "row count: want %d, got %d\n", len(want), len(got))
	}
	for i := 0; i < len(want) || i < len(got); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "row %2d: want %q\n        got  %q\n", i, w, g)
		}
	}
	return b.String()
}

// checkInvariants returns what is wrong with a snapshot of a cols×rows terminal, or nil:
// sizes, every line exactly Cols cells, the cursor inside the screen, cell widths in
// {0,1,2} with every wide lead followed by its continuation and no orphan continuation.
func checkInvariants(s *vterm.Snapshot, cols, rows int) error {
	if s.Cols != cols || s.Rows != rows {
		return fmt.Errorf("snapshot is %dx%d, want %dx%d", s.Cols, s.Rows, cols, rows)
	}
	if len(s.Lines) != rows {
		return fmt.Errorf("snapshot has %d lines, want %d", len(s.Lines), rows)
	}
	if s.Cursor.X < 0 || s.Cursor.X >= cols || s.Cursor.Y < 0 || s.Cursor.Y >= rows {
		return fmt.Errorf("cursor %d,%d outside %dx%d", s.Cursor.X, s.Cursor.Y, cols, rows)
	}
	for y, l := range s.Lines {
		if l == nil {
			return fmt.Errorf("line %d is nil", y)
		}
		if len(l.Cells) != cols {
			return fmt.Errorf("line %d has %d cells, want %d", y, len(l.Cells), cols)
		}
		if err := checkWidePairs(l.Cells); err != nil {
			return fmt.Errorf("line %d: %w", y, err)
		}
	}
	return nil
}

// checkWidePairs checks that wide characters in a row are whole: a Width 2 cell is always
// followed by a Width 0 cell and a Width 0 cell always follows a Width 2 cell.
func checkWidePairs(cells []vterm.Cell) error {
	for x, c := range cells {
		switch c.Width {
		case 1:
		case 2:
			if x+1 >= len(cells) || cells[x+1].Width != 0 {
				return fmt.Errorf("wide lead %q at column %d without a continuation cell", c.String(), x)
			}
		case 0:
			if x == 0 || cells[x-1].Width != 2 {
				return fmt.Errorf("orphan continuation cell at column %d", x)
			}
		default:
			return fmt.Errorf("cell at column %d has width %d", x, c.Width)
		}
	}
	return nil
}

// diffSnapshots describes the first differences between two snapshots (everything but
// Seq, which is allowed to differ between terminals), or returns "".
func diffSnapshots(a, b *vterm.Snapshot) string {
	var d strings.Builder
	if a.Cols != b.Cols || a.Rows != b.Rows {
		return fmt.Sprintf("size %dx%d vs %dx%d", a.Cols, a.Rows, b.Cols, b.Rows)
	}
	if a.Cursor != b.Cursor {
		fmt.Fprintf(&d, "cursor %+v vs %+v\n", a.Cursor, b.Cursor)
	}
	if a.Modes != b.Modes {
		fmt.Fprintf(&d, "modes %+v vs %+v\n", a.Modes, b.Modes)
	}
	if a.Title != b.Title {
		fmt.Fprintf(&d, "title %q vs %q\n", a.Title, b.Title)
	}
	if a.AltScreen != b.AltScreen || a.HistoryLen != b.HistoryLen || a.Bells != b.Bells {
		fmt.Fprintf(&d, "alt/history/bells %v/%d/%d vs %v/%d/%d\n",
			a.AltScreen, a.HistoryLen, a.Bells, b.AltScreen, b.HistoryLen, b.Bells)
	}
	shown := 0
	for y := 0; y < len(a.Lines) && y < len(b.Lines); y++ {
		if msg := diffLine(a.Lines[y], b.Lines[y]); msg != "" {
			fmt.Fprintf(&d, "row %d: %s\n", y, msg)
			if shown++; shown >= 5 {
				d.WriteString("...\n")
				break
			}
		}
	}
	return d.String()
}

// diffLine describes the first difference between two lines, or returns "".
func diffLine(a, b *vterm.Line) string {
	if a.Wrapped != b.Wrapped {
		return fmt.Sprintf("wrapped %v vs %v", a.Wrapped, b.Wrapped)
	}
	if len(a.Cells) != len(b.Cells) {
		return fmt.Sprintf("%d cells vs %d", len(a.Cells), len(b.Cells))
	}
	for x := range a.Cells {
		if a.Cells[x] != b.Cells[x] {
			return fmt.Sprintf("column %d: %+v vs %+v", x, a.Cells[x], b.Cells[x])
		}
	}
	return ""
}

// diffHistory compares the history lines two terminals hold, or returns "".
func diffHistory(a, b *vterm.Terminal) string {
	sa, sb := a.Snapshot(), b.Snapshot()
	if sa.HistoryLen != sb.HistoryLen {
		return fmt.Sprintf("history length %d vs %d", sa.HistoryLen, sb.HistoryLen)
	}
	ha, hb := a.HistoryLines(0, sa.HistoryLen), b.HistoryLines(0, sb.HistoryLen)
	if len(ha) != len(hb) {
		return fmt.Sprintf("HistoryLines returned %d vs %d lines", len(ha), len(hb))
	}
	for i := range ha {
		if msg := diffLine(ha[i], hb[i]); msg != "" {
			return fmt.Sprintf("history line %d: %s", i, msg)
		}
	}
	return ""
}

// raceSlowdown is how much longer work takes under the race detector (which records
// itself in the test binary's build settings), so deadlines catch hangs, not slowness.
var raceSlowdown = func() time.Duration {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				return 10
			}
		}
	}
	return 1
}()

// within runs f in a goroutine and fails the test if it panics or does not finish within
// d (times raceSlowdown). A hang leaves the goroutine behind, acceptable in a failing test.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	d *= raceSlowdown
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case p := <-done:
		if p != nil {
			t.Fatalf("%s: panic: %v", what, p)
		}
	case <-timer.C:
		t.Fatalf("%s: did not finish within %v", what, d)
	}
}

// quoteStream renders bytes for a failure message, short enough to paste into a test.
func quoteStream(b []byte) string {
	const max = 4000
	if len(b) > max {
		return fmt.Sprintf("%q... (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}
