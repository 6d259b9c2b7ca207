//go:build agents

package agents

// Recording screens for the parser's tests: what a real CLI showed at a moment that matters
// (an approval prompt, the end of a relayed turn) is written, with AGENTS_UPDATE_SCREENS=1,
// to parser/testdata/screens/real-*.txt in the format parser/real_test.go reads, so CI,
// which has no real CLIs, keeps checking the built-in profiles against it.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// recording is one saved screen: the rows a program showed (and, for a delta, the rows of
// the baseline before), its title, and what the parser must make of them.
type recording struct {
	// what says in words what the screen shows and how it was made.
	what string
	// title is the terminal title at the time.
	title string
	// state is the parser.State name Classify must give ("needs you", "busy", ...); "" = unchecked.
	state string
	// typed is what was typed into the program before the turn; delta the words the
	// parser must extract from screen after before ("" = unchecked).
	typed, delta string
	// input is what the program's input line holds, "" for empty (a bare prompt or a
	// placeholder): parser.InputRow must read it so; nil = unchecked.
	input *string
	// before and screen are text rows.
	before, screen []string
}

// saveScreen writes rec to parser/testdata/screens/real-NAME.txt when AGENTS_UPDATE_SCREENS=1.
func saveScreen(t *testing.T, name string, rec recording) {
	t.Helper()
	if os.Getenv("AGENTS_UPDATE_SCREENS") != "1" {
		return
	}
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "parser", "testdata", "screens", "real-"+name+".txt")
	var b strings.Builder
	for _, l := range strings.Split(rec.what, "\n") {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	fmt.Fprintf(&b, "@@ title %s\n", strconv.Quote(rec.title))
	if rec.state != "" {
		fmt.Fprintf(&b, "@@ state %s\n", rec.state)
	}
	if rec.typed != "" || rec.delta != "" {
		fmt.Fprintf(&b, "@@ typed %s\n@@ delta %s\n", strconv.Quote(rec.typed), strconv.Quote(rec.delta))
	}
	if rec.input != nil {
		fmt.Fprintf(&b, "@@ input %s\n", strconv.Quote(*rec.input))
	}
	if rec.before != nil {
		b.WriteString("@@ before\n")
		writeRows(&b, rec.before)
	}
	b.WriteString("@@ screen\n")
	writeRows(&b, rec.screen)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatalf("save screen: %v", err)
	}
	t.Logf("saved %s", path)
}

// writeRows writes rows one a line, trailing blank rows left out.
func writeRows(b *strings.Builder, rows []string) {
	end := len(rows)
	for end > 0 && strings.TrimSpace(rows[end-1]) == "" {
		end--
	}
	for _, r := range rows[:end] {
		b.WriteString(strings.TrimRight(r, " "))
		b.WriteByte('\n')
	}
}
