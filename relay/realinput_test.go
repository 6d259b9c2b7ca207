package relay

// Strategy: the stale-draft and urgent rules read a real CLI's input row (inputRow,
// inputEmpty). Screens recorded from the real CLIs by the agents tests (`make
// test-agents` with AGENTS_UPDATE_SCREENS=1: agents/keys_test.go) are replayed here:
// parser/testdata/screens/real-*.txt files with an `@@ input "..."` line give what the
// CLI's input line held (a fresh start, a draft typed, the same after the clear keys, a
// message an interrupt put back). An empty input must read as empty, with or without
// a draft set aside (placeholders and bare prompts alike); a draft must read as itself,
// so it can be set aside; a message put back must not read as empty (with no draft
// aside: with one, a row showing none of it counts as a placeholder, by design).

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/parser"
)

// recordedInput is one recorded screen with the input line it showed.
type recordedInput struct {
	title, input string
	screen       []string
}

// readRecordedInput reads the title, the input and the screen rows of a recorded screen
// file (the format parser/real_test.go documents); ok is false when it gives no input.
func readRecordedInput(t *testing.T, path string) (rec recordedInput, ok bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inScreen := false
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		key, val, _ := strings.Cut(strings.TrimPrefix(line, "@@ "), " ")
		switch {
		case !strings.HasPrefix(line, "@@ "):
			if inScreen {
				rec.screen = append(rec.screen, line)
			}
			continue
		case key == "screen":
			inScreen = true
		case key == "title" || key == "input":
			u, err := strconv.Unquote(val)
			if err != nil {
				t.Fatalf("%s: bad %s %s: %v", path, key, val, err)
			}
			if key == "title" {
				rec.title = u
			} else {
				rec.input, ok = u, true
			}
		default:
			inScreen = false
		}
	}
	return rec, ok
}

func TestRealInputRows(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "parser", "testdata", "screens", "real-*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		rec, ok := readRecordedInput(t, f)
		if !ok {
			continue
		}
		n++
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "real-"), ".txt")
		t.Run(name, func(t *testing.T) {
			prog, _, _ := strings.Cut(name, "-")
			r := New(Config{})
			p := &pane{id: 1, name: prog, prof: parser.ProfileFor(prog), scr: &staticScreen{title: rec.title, all: rec.screen, rows: len(rec.screen)}}
			const other = "a draft that is not on this screen"
			text, found := inputRow(p, p.scr.Read(NoLines).Rows)
			switch {
			case rec.input == "":
				if !found || text != "" {
					t.Errorf("inputRow = %q, %v; want an empty input row", text, found)
				}
				if !r.inputEmpty(p) {
					t.Error("inputEmpty is false with no draft aside")
				}
				p.aside = &aside{text: other}
				if !r.inputEmpty(p) {
					t.Error("inputEmpty is false with a draft aside")
				}
			case !strings.Contains(rec.input, "\n"):
				// A draft: shown as itself, so it can be set aside; not empty.
				if squash(text) != squash(rec.input) {
					t.Errorf("inputRow = %q, want the draft %q", text, rec.input)
				}
				p.draft, p.draftText = true, rec.input
				if !r.draftShown(p) {
					t.Error("draftShown is false")
				}
				if r.inputEmpty(p) {
					t.Error("inputEmpty is true with the draft on screen")
				}
			default:
				// Several lines (a message put back): what is read is their start, and not empty.
				if text == "" || !strings.HasPrefix(squash(rec.input), squash(text)) {
					t.Errorf("inputRow = %q, want the start of %q", text, rec.input)
				}
				if r.inputEmpty(p) {
					t.Error("inputEmpty is true with the input line holding text")
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no recorded screen has an input line")
	}
}
