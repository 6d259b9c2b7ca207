package parser

// Strategy: screens recorded from the real CLIs (by the agents tests, `make test-agents`
// with AGENTS_UPDATE_SCREENS=1) are replayed through the built-in profiles, so CI, which
// has no real CLIs, keeps the knowledge: Classify must give the recorded state (an
// approval prompt must say NeedsApproval), and where a turn was recorded, Since must
// extract exactly the model's words from the screen after the baseline's rows (MainTurn, the
// rows numbered from the screen's top, the cursor not known); where the input line was
// recorded, InputRow must read it and the profile's clear keys must empty it. Each file
// testdata/screens/real-PROFILE-WHAT.txt holds `# ` comment lines, `@@ title "..."`,
// `@@ state NAME`, `@@ typed "..."`, `@@ delta "..."` and `@@ input "..."` (Go-quoted;
// input is what the program's input line held, checked here by checkInput and in relay's
// TestRealInputRows), then `@@ before` and `@@ screen` sections of text rows.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// realScreen is one recorded screen file.
type realScreen struct {
	title, state, typed, delta string
	hasDelta                   bool
	// input is what the input line held ("" for empty); hasInput says it was given.
	input          string
	hasInput       bool
	before, screen []string
}

// readRealScreen parses a recorded screen file.
func readRealScreen(t *testing.T, path string) realScreen {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rs realScreen
	var rows *[]string
	unquote := func(s string) string {
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("%s: bad quoted value %s: %v", path, s, err)
		}
		return u
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if rows == nil && strings.HasPrefix(line, "# ") {
			continue
		}
		key, val, _ := strings.Cut(strings.TrimPrefix(line, "@@ "), " ")
		if !strings.HasPrefix(line, "@@ ") {
			if rows == nil {
				t.Fatalf("%s: row %q outside a section", path, line)
			}
			*rows = append(*rows, line)
			continue
		}
		switch key {
		case "title":
			rs.title = unquote(val)
		case "state":
			rs.state = val
		case "typed":
			rs.typed = unquote(val)
		case "delta":
			rs.delta, rs.hasDelta = unquote(val), true
		case "input":
			rs.input, rs.hasInput = unquote(val), true
		case "before":
			rs.before, rows = []string{}, &rs.before
		case "screen":
			rs.screen, rows = []string{}, &rs.screen
		default:
			t.Fatalf("%s: unknown key %q", path, key)
		}
	}
	return rs
}

func TestRealScreens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "screens", "real-*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded screens: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "real-"), ".txt")
		t.Run(name, func(t *testing.T) {
			prof, _, _ := strings.Cut(name, "-")
			p := ProfileFor(prof)
			if p.Name != prof {
				t.Fatalf("no built-in profile %q for %s", prof, f)
			}
			rs := readRealScreen(t, f)
			if rs.state != "" {
				if got := Classify(p, rs.title, rs.screen).String(); got != rs.state {
					t.Errorf("Classify(title %q) = %s, want %s; live region:\n%s", rs.title, got, rs.state,
						strings.Join(LiveRegion(p, rs.screen), "\n"))
				}
			}
			if rs.hasInput {
				checkInput(t, p, rs)
			}
			if rs.hasDelta {
				var typed []string
				if rs.typed != "" {
					typed = []string{rs.typed}
				}
				if got := since(p, rs.before, rs.screen, typed); got != rs.delta {
					t.Errorf("Since = %q\nwant   %q", got, rs.delta)
				}
			}
		})
	}
}

// checkInput checks a recorded input line: InputRow reads it (empty as empty, a draft as
// itself, a message of several lines by its start), and the profile's clear keys empty
// it. The CLIs' Ctrl+U, measured with agents/keys_test.go, deletes back to the start of
// the cursor's line, or, at a line's start, the line break before it: 2L-1 of them empty
// L lines. Claude Code reads 64 bytes or more arriving at once as a paste and does
// nothing with control keys in it (63 Ctrl+U work, 64 do nothing), so the keys must be
// fewer.
func checkInput(t *testing.T, p Profile, rs realScreen) {
	t.Helper()
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	text, ok := InputRow(p, rs.screen)
	switch {
	case !ok:
		t.Errorf("InputRow found no input row; want %q", rs.input)
	case rs.input == "" && text != "":
		t.Errorf("InputRow = %q, want an empty input row", text)
	case !strings.Contains(rs.input, "\n") && squash(text) != squash(rs.input):
		t.Errorf("InputRow = %q, want the draft %q", text, rs.input)
	case text == "" && rs.input != "" || !strings.HasPrefix(squash(rs.input), squash(text)):
		t.Errorf("InputRow = %q, want the start of %q", text, rs.input)
	}
	if rs.input == "" {
		return
	}
	keys := p.Clear()
	lines := strings.Count(rs.input, "\n") + 1
	clears := 1 // keys other than Ctrl+U alone: counted as clearing one line
	if strings.Trim(keys, "\x15") == "" {
		clears = (len(keys) + 1) / 2
	}
	if clears < lines || len(keys) >= 64 {
		t.Errorf("clear keys %q empty %d lines in %d bytes; the input line holds %d (%q), and 64 bytes are a paste",
			keys, clears, len(keys), lines, rs.input)
	}
}
