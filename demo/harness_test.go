package demo

// Test harness: an agent driven directly through its methods with a fake clock, its
// output fed to hinshun/vt10x (a third-party emulator, so the demo's tests do not depend
// on our own vterm) to check what a terminal would show. vt10x reads CSI … u as "restore
// cursor", so the kitty keyboard sequences are removed before it sees them; tests that
// care about those sequences check the raw output instead.

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hinshun/vt10x"
)

type harness struct {
	t   *testing.T
	a   *agent
	now time.Time
	raw bytes.Buffer // every byte the agent wrote
	vt  vt10x.Terminal
}

// newHarness starts an agent with args on a cols×rows screen.
func newHarness(t *testing.T, cols, rows int, args ...string) *harness {
	t.Helper()
	cfg, err := parseFlags(args, io.Discard)
	if err != nil {
		t.Fatalf("parseFlags(%q): %v", args, err)
	}
	h := &harness{t: t, now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	h.a = newAgent(cfg, cols, rows, func() time.Time { return h.now })
	h.vt = vt10x.New(vt10x.WithSize(cols, rows))
	h.a.start()
	h.flush()
	return h
}

var kittySeq = regexp.MustCompile(`\x1b\[[?<>=]?[0-9;]*u`)

// flush moves the agent's pending output to the raw log and the emulator, and returns it.
func (h *harness) flush() string {
	out := h.a.out.String()
	h.a.out.Reset()
	h.raw.WriteString(out)
	if _, err := h.vt.Write([]byte(kittySeq.ReplaceAllString(out, ""))); err != nil {
		h.t.Fatalf("vt10x write: %v", err)
	}
	return out
}

// typ feeds input bytes and returns the output they caused.
func (h *harness) typ(s string) string {
	h.a.input([]byte(s))
	return h.flush()
}

// finish ends the busy turn after d of fake time.
func (h *harness) finish(d time.Duration) string {
	h.now = h.now.Add(d)
	h.a.finishTurn()
	return h.flush()
}

// tick advances the spinner by n ticks of the style's period.
func (h *harness) tick(n int) string {
	for range n {
		h.now = h.now.Add(h.a.draw.tickEvery())
		h.a.tick()
	}
	return h.flush()
}

// rows returns the emulator's screen, one string per row, trailing spaces trimmed.
func (h *harness) rows() []string {
	rows := strings.Split(strings.TrimSuffix(h.vt.String(), "\n"), "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	return rows
}

func (h *harness) screen() string { return strings.Join(h.rows(), "\n") }

// row returns the index of the first screen row containing s, or -1.
func (h *harness) row(s string) int {
	for i, r := range h.rows() {
		if strings.Contains(r, s) {
			return i
		}
	}
	return -1
}

// count returns how many screen rows contain s.
func (h *harness) count(s string) int {
	n := 0
	for _, r := range h.rows() {
		if strings.Contains(r, s) {
			n++
		}
	}
	return n
}

// want fails unless the screen has a row containing each of ss.
func (h *harness) want(ss ...string) {
	h.t.Helper()
	for _, s := range ss {
		if h.row(s) < 0 {
			h.t.Fatalf("screen has no row with %q:\n%s", s, h.screen())
		}
	}
}

// wantNot fails if the screen has a row containing any of ss.
func (h *harness) wantNot(ss ...string) {
	h.t.Helper()
	for _, s := range ss {
		if i := h.row(s); i >= 0 {
			h.t.Fatalf("screen row %d has %q:\n%s", i, s, h.screen())
		}
	}
}

// title is the last window title the agent set.
func (h *harness) title() string { return h.vt.Title() }

// fixedNow is a clock that never moves.
func fixedNow() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }
