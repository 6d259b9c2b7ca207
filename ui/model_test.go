package ui

// Model tests drive Update with the messages bubbletea would deliver (decoded input
// events, pane output, exits, window sizes) over fake panes whose emulators are real, and
// check what each pane's program was sent, the model's state, and golden View()s at
// 120×40.

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/tty"
)

func TestViewTwoPanes(t *testing.T) {
	hs := newHarness(t, 120, 40, "claude", "codex")
	hs.output(1, "\x1b[1;32mClaude Code\x1b[m ready\r\n\x1b[38;2;255;128;0m> \x1b[mhello")
	hs.output(2, "\x1b[?1049h\x1b[H\x1b[44m codex \x1b[m\x1b[3;1Hwide: 世界 ok")
	hs.golden()
	txt := hs.text()
	for _, want := range []string{"1 claude", "2 codex", "running", "Claude Code ready", "> hello", "wide: 世界 ok", "^A", "? help"} {
		if !strings.Contains(txt, want) {
			t.Errorf("view lacks %q", want)
		}
	}
}

func TestPanesStartAtTheirLayoutSize(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	for id, want := range map[int][2]int{1: {58, 37}, 2: {58, 37}} {
		if got := hs.procs[id].LastSize(); got != want {
			t.Errorf("pane %d started at %v, want %v", id, got, want)
		}
		if sn := hs.m.views[id].screen.Snapshot(); sn.Cols != want[0] || sn.Rows != want[1] {
			t.Errorf("pane %d emulator is %dx%d, want %v", id, sn.Cols, sn.Rows, want)
		}
	}
}

func TestTypingGoesToTheFocusedPaneOnly(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.press(textKeys("hi")...)
	hs.press(codeKey(keys.KeyEnter))
	if got := hs.procs[1].Sent(); got != "hi\r" {
		t.Errorf("pane 1 got %q, want %q", got, "hi\r")
	}
	if got := hs.procs[2].Sent(); got != "" {
		t.Errorf("pane 2 got %q, want nothing", got)
	}
	hs.press(testPrefix, runeKey('2'))
	hs.press(runeKey('x'))
	if got := hs.procs[2].Sent(); got != "x" {
		t.Errorf("after prefix 2, pane 2 got %q, want x", got)
	}
	if got := hs.procs[1].Sent(); got != "" {
		t.Errorf("after prefix 2, pane 1 got %q", got)
	}
}

func TestKeysHonourThePaneModes(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	hs.press(codeKey(keys.KeyUp))
	hs.output(1, "\x1b[?1h") // DECCKM
	hs.press(codeKey(keys.KeyUp))
	hs.press(keys.Key{Code: keys.KeyTab, Mod: keys.ModShift}, keys.Key{Code: keys.KeyRune, Rune: 'x', Mod: keys.ModAlt}, codeKey(keys.KeyF5))
	if got, want := hs.procs[1].Sent(), "\x1b[A\x1bOA\x1b[Z\x1bx\x1b[15~"; got != want {
		t.Errorf("sent %q, want %q", got, want)
	}
}

func TestKittyEncodingNeedsTheOuterTerminal(t *testing.T) {
	shiftEnter := keys.Key{Code: keys.KeyEnter, Mod: keys.ModShift}
	hs := newHarness(t, 120, 40, "codex")
	hs.output(1, "\x1b[>7u") // Codex pushes kitty flags
	hs.press(shiftEnter)
	if got := hs.procs[1].Sent(); got != "\r" {
		t.Errorf("legacy outer terminal: shift+enter sent %q, want CR", got)
	}
	hs.input(keys.Reply{Raw: []byte("\x1b[?1u")})
	if !hs.m.probed.Kitty {
		t.Fatal("a CSI ? u answer did not turn kitty support on")
	}
	hs.press(shiftEnter)
	if got := hs.procs[1].Sent(); got != "\x1b[13;2u" {
		t.Errorf("kitty outer terminal: shift+enter sent %q, want CSI 13;2u", got)
	}
}

func TestPrefixStateMachine(t *testing.T) {
	cases := []struct {
		name   string
		keys   []keys.Key
		focus  int
		mode   inputMode
		sent   [3]string // what panes 1..3 were sent (index 0 unused)
		status string
	}{
		{name: "prefix alone waits", keys: []keys.Key{testPrefix}, focus: 1, mode: modePrefix},
		{name: "prefix prefix sends the prefix", keys: []keys.Key{testPrefix, testPrefix}, focus: 1, sent: [3]string{"", "\x01"}},
		{name: "prefix digit focuses", keys: []keys.Key{testPrefix, runeKey('2'), runeKey('z')}, focus: 2, sent: [3]string{"", "", "z"}},
		{name: "prefix missing pane", keys: []keys.Key{testPrefix, runeKey('7')}, focus: 1, status: "no pane 7"},
		{name: "unknown command eats one key only", keys: []keys.Key{testPrefix, runeKey('k'), runeKey('j')}, focus: 1, sent: [3]string{"", "j"}},
		{name: "prefix o cycles", keys: []keys.Key{testPrefix, runeKey('o'), testPrefix, runeKey('o'), testPrefix, runeKey('o')}, focus: 1},
		{name: "prefix arrow moves right", keys: []keys.Key{testPrefix, codeKey(keys.KeyRight)}, focus: 2},
		{name: "prefix arrow at the edge stays", keys: []keys.Key{testPrefix, codeKey(keys.KeyLeft)}, focus: 1},
		{name: "link waits for a pane", keys: []keys.Key{testPrefix, runeKey('l')}, focus: 1, mode: modeLink},
		{name: "link then digit", keys: []keys.Key{testPrefix, runeKey('l'), runeKey('2')}, focus: 1, status: "linked 1⇄2 (0/8 turns)"},
		{name: "link all", keys: []keys.Key{testPrefix, runeKey('L')}, focus: 1, status: "linked 1⇄2⇄3 (0/8 turns)"},
		{name: "link with itself", keys: []keys.Key{testPrefix, runeKey('l'), runeKey('1')}, focus: 1, status: "a pane cannot be linked with itself: prefix l then another pane's number"},
		{name: "help then any key closes it", keys: []keys.Key{testPrefix, runeKey('?'), runeKey('x'), runeKey('y')}, focus: 1, sent: [3]string{"", "y"}},
		{name: "close asks", keys: []keys.Key{testPrefix, runeKey('x')}, focus: 1, mode: modeConfirm},
		{name: "close cancelled", keys: []keys.Key{testPrefix, runeKey('x'), runeKey('n'), runeKey('a')}, focus: 1, sent: [3]string{"", "a"}},
		{name: "ctrl+A matches like ctrl+a", keys: []keys.Key{{Code: keys.KeyRune, Rune: 'A', Mod: keys.ModCtrl}, runeKey('3')}, focus: 3},
		{name: "a release is ignored", keys: []keys.Key{{Code: keys.KeyRune, Rune: 'a', Mod: keys.ModCtrl, Event: keys.KeyRelease}, runeKey('3')}, focus: 1, sent: [3]string{"", "3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hs := newHarness(t, 120, 40, "a", "b", "c")
			for _, k := range c.keys {
				hs.press(k)
			}
			if hs.m.focus != c.focus {
				t.Errorf("focus %d, want %d", hs.m.focus, c.focus)
			}
			if hs.m.mode != c.mode {
				t.Errorf("mode %d, want %d", hs.m.mode, c.mode)
			}
			for id := 1; id <= 2; id++ {
				if got := hs.procs[id].Sent(); got != c.sent[id] {
					t.Errorf("pane %d was sent %q, want %q", id, got, c.sent[id])
				}
			}
			if c.status != "" && hs.m.status.text != c.status {
				t.Errorf("status %q, want %q", hs.m.status.text, c.status)
			}
		})
	}
}

func TestCloseAndQuit(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.press(testPrefix, runeKey('x'))
	if !strings.Contains(hs.text(), "close pane 1 a? (y/n)") {
		t.Fatalf("no close question on the status line:\n%s", hs.text())
	}
	hs.send(inputMsg{Events: []keys.Event{runeKey('y')}})
	if hs.s.Screen(1) != nil || hs.m.views[1] != nil || hs.m.focus != 2 {
		t.Fatalf("pane 1 not closed (focus %d)", hs.m.focus)
	}
	if !hs.procs[1].IsClosed() {
		hs.await(func(ev session.Event) bool { c, ok := ev.(session.Closed); return ok && c.Done })
	}
	if !hs.procs[1].IsClosed() {
		t.Fatal("closing did not end the process")
	}
	if got := rectsString(hs.m.rects); got != "2:0,0 120x39" {
		t.Errorf("after close, layout %s", got)
	}
	if got := hs.procs[2].LastSize(); got != [2]int{118, 37} {
		t.Errorf("pane 2 not resized to the full width: %v", got)
	}
	hs.press(testPrefix, runeKey('q'))
	if !strings.Contains(hs.text(), "quit agentmux? (y/n)") {
		t.Fatal("no quit question")
	}
	hs.press(runeKey('y'))
	if !hs.m.quitting {
		t.Error("y to quit did not quit")
	}
}

func TestClosingTheLastPaneQuits(t *testing.T) {
	hs := newHarness(t, 80, 24, "a")
	hs.press(testPrefix, runeKey('x'), runeKey('y'))
	if !hs.m.quitting || hs.m.ending != EndClosed {
		t.Errorf("closing the last pane: quitting %v, ending %v; want EndClosed (not prefix q's)", hs.m.quitting, hs.m.ending)
	}
}

func TestExitedPaneKeepsItsCode(t *testing.T) {
	hs := newHarness(t, 120, 40, "ok", "fails")
	hs.output(2, "error: no API key\r\n")
	hs.exit(2, 3)
	hs.golden()
	if !strings.Contains(hs.text(), "exited (3)") {
		t.Error("no exit code in the border")
	}
	hs.press(testPrefix, runeKey('2'))
	hs.press(runeKey('x'))
	if got := hs.procs[2].Sent(); got != "" {
		t.Errorf("an exited pane was sent %q", got)
	}
	if !strings.Contains(hs.m.status.text, "has exited") {
		t.Errorf("status %q does not say the pane exited", hs.m.status.text)
	}
	// Closing it asks nothing: no program runs there.
	hs.press(testPrefix, runeKey('x'))
	if hs.m.mode == modeConfirm || hs.m.views[2] != nil {
		t.Errorf("closing the exited pane asked (mode %d) or left it open", hs.m.mode)
	}
}

func TestWindowResizeRelaysOut(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b", "c", "d")
	hs.send(tea.WindowSizeMsg{Width: 200, Height: 51})
	want := "1:0,0 100x25 2:100,0 100x25 3:0,25 100x25 4:100,25 100x25"
	if got := rectsString(hs.m.rects); got != want {
		t.Errorf("layout %s, want %s", got, want)
	}
	for id := 1; id <= 4; id++ {
		if got := hs.procs[id].LastSize(); got != [2]int{98, 23} {
			t.Errorf("pane %d resized to %v, want 98x23", id, got)
		}
	}
	hs.view() // geometry checked by view()
}

func TestZoom(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.press(testPrefix, runeKey('2'), testPrefix, runeKey('z'))
	if got := rectsString(hs.m.rects); got != "2:0,0 120x39" {
		t.Errorf("zoomed layout %s", got)
	}
	if got := hs.procs[2].LastSize(); got != [2]int{118, 37} {
		t.Errorf("zoomed pane size %v", got)
	}
	if !strings.Contains(hs.text(), "ZOOM") {
		t.Error("no ZOOM on the status line")
	}
	hs.press(testPrefix, runeKey('z'))
	if got := rectsString(hs.m.rects); got != "1:0,0 60x39 2:60,0 60x39" {
		t.Errorf("unzoomed layout %s", got)
	}
}

func TestOuterColoursReachTheEmulators(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	hs.input(keys.Reply{Raw: []byte("\x1b]11;rgb:1e1e/2020/3030\x1b\\")})
	hs.output(1, "\x1b]11;?\x1b\\")
	if got := hs.procs[1].Sent(); !strings.Contains(got, "rgb:1e1e/2020/3030") {
		t.Errorf("OSC 11 answer %q does not carry the outer background", got)
	}
}

func TestHelpOverlay(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.output(1, "some text under the help")
	hs.press(testPrefix, runeKey('?'))
	hs.golden()
	txt := hs.text()
	for _, b := range keymap {
		if !strings.Contains(txt, b.desc) {
			t.Errorf("help lacks %q", b.desc)
		}
	}
}

// TestOuterCursorFollowsTheFocusedProgram: no reverse block is drawn; the frame puts
// the outer terminal's cursor where the focused program has it, in its DECSCUSR shape
// (in scroll mode: the copy cursor, a block), and hides it when the program hides it
// or the pane is overlaid.
func TestOuterCursorFollowsTheFocusedProgram(t *testing.T) {
	hs := newHarness(t, 120, 40, "a", "b")
	hs.output(1, "ab")
	hs.output(2, "cd\r\nxyz")
	cursor := func() tty.Cursor { hs.view(); return hs.m.cursor }
	if v := hs.view(); strings.Contains(v, "\x1b[7m") {
		t.Error("a reverse block is still drawn for the cursor")
	}
	// Pane 1's content starts at (1,1): after "ab" its cursor is at (3,1).
	if c := cursor(); c != (tty.Cursor{X: 3, Y: 1, Visible: true}) {
		t.Errorf("cursor %+v, want (3,1) shown in the default shape", c)
	}
	hs.output(1, "\x1b[6 q")
	if c := cursor(); c.Shape != 6 || !c.Visible {
		t.Errorf("cursor %+v after ESC[6 q, want the bar (6)", c)
	}
	hs.press(testPrefix, runeKey('2'))
	if c := cursor(); c != (tty.Cursor{X: 61 + 3, Y: 2, Visible: true}) {
		t.Errorf("cursor %+v after focusing pane 2, want (64,2) in its default shape", c)
	}
	hs.press(testPrefix, runeKey('['))
	if c := cursor(); c != (tty.Cursor{X: 61 + 3, Y: 2, Visible: true, Shape: 2}) {
		t.Errorf("cursor %+v in scroll mode, want the copy cursor (a steady block) where the program's was", c)
	}
	hs.press(runeKey('q'), testPrefix, runeKey('?'))
	if cursor().Visible {
		t.Error("cursor shown under the help")
	}
	hs.press(runeKey('x'))
	hs.output(2, "\x1b[?25l")
	if cursor().Visible {
		t.Error("cursor shown although the program hid it")
	}
}

func TestOutputIsCoalescedToTheFrameRate(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	hs.output(1, "one")
	before := hs.text()
	// More output within the same frame interval: held until the frame tick.
	hs.outputNow(1, " two")
	if !hs.m.pace.armed {
		t.Fatal("no frame tick armed for output inside the frame interval")
	}
	if hs.text() != before {
		t.Error("view changed before the frame interval passed")
	}
	hs.advance(frameInterval)
	if !strings.Contains(hs.text(), "one two") {
		t.Error("the output was not drawn once the interval passed")
	}
}

func TestSynchronizedOutputHoldsTheFrame(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	hs.output(1, "old")
	hs.output(1, "\x1b[?2026h\x1b[2J\x1b[Hhalf")
	if txt := hs.text(); !strings.Contains(txt, "old") || strings.Contains(txt, "half") {
		t.Error("a half-drawn synchronized frame was shown")
	}
	hs.output(1, " done\x1b[?2026l")
	if txt := hs.text(); !strings.Contains(txt, "half done") {
		t.Error("the finished synchronized frame was not shown")
	}
}

func TestTinyScreenNeverOverflows(t *testing.T) {
	for _, size := range [][2]int{{1, 1}, {2, 2}, {5, 3}, {7, 4}, {3, 10}} {
		hs := newHarness(t, size[0], size[1], "a", "b", "c", "d")
		hs.output(1, "hello 世界")
		hs.press(testPrefix, runeKey('?'))
		hs.view() // checks every line is exactly the width
		hs.press(runeKey('x'))
		hs.send(tea.WindowSizeMsg{Width: size[0] + 1, Height: size[1] + 1})
		hs.view()
	}
}

// itoa avoids strconv in the table-building helpers above.
func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// A terminal size past any real terminal's is drawn at the largest the ui draws.
func TestWindowSizeIsBounded(t *testing.T) {
	hs := newHarness(t, 120, 40, "a")
	hs.send(tea.WindowSizeMsg{Width: 65535, Height: 65535})
	if hs.m.width != maxWidth || hs.m.height != maxHeight {
		t.Errorf("drawn at %dx%d, want %dx%d", hs.m.width, hs.m.height, maxWidth, maxHeight)
	}
}
