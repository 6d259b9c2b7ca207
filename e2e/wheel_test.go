package e2e

// The wheel through a real PTY: SGR mouse bytes written as a terminal sends them, over
// less (a full-screen program without mouse mode), must scroll less itself, three lines
// a notch.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWheelScrollsLess(t *testing.T) {
	file := filepath.Join(t.TempDir(), "numbers")
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "number %d\n", i)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	s := start(t, "less "+file)
	s.waitScreen("less shows the file", func(scr *screen) bool {
		p, ok := scr.pane(1)
		return ok && len(p.lines) > 0 && strings.HasPrefix(p.lines[0], "number 1")
	}, waitLong)
	s.send("\x1b[<65;10;5M\x1b[<65;10;5M") // two notches of the wheel down over the pane
	s.waitScreen("less scrolled by six lines", func(scr *screen) bool {
		p, ok := scr.pane(1)
		return ok && len(p.lines) > 0 && strings.HasPrefix(p.lines[0], "number 7")
	}, waitLong)
}
