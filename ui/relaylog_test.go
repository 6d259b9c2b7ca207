package ui

// Strategy: the relay harness (fake panes, real relay, fake clock) fills the relay log
// with notices one second apart (prefix p holds and releases a pane: one notice each), so
// every entry is known by its time; the test opens the overlay with prefix r and checks
// which times the screen shows after each scrolling key, that keys do not leak into the
// focused pane while it is shown, and that delivery rows keep their state word on a
// narrow screen.

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// fillLog makes n notices, one a second; it returns the clock times they carry.
func fillLog(hs *harness, n int) []string {
	var times []string
	for range n {
		hs.clock.Set(hs.clock.Now().Add(time.Second))
		times = append(times, hs.clock.Now().Format("15:04:05"))
		hs.press(testPrefix, runeKey('p'))
	}
	return times
}

// shownTimes reports which of times the overlay shows.
func shownTimes(hs *harness, times []string) (shown []int) {
	txt := hs.text()
	for i, ts := range times {
		if strings.Contains(txt, ts+"  deliveries into") {
			shown = append(shown, i)
		}
	}
	return shown
}

func TestRelayLogScrolls(t *testing.T) {
	hs := newRelayHarness(t, false, "alice", "bob")
	hs.startBoth()
	times := fillLog(hs, 40)
	hs.procs[1].Sent()
	hs.press(testPrefix, runeKey('r'))
	n := hs.m.logRowsShown()
	check := func(what string, first, last int) {
		t.Helper()
		got := shownTimes(hs, times)
		if len(got) == 0 || got[0] != first || got[len(got)-1] != last || len(got) != last-first+1 {
			t.Fatalf("%s: entries %v shown, want %d..%d\n%s", what, got, first, last, hs.text())
		}
	}
	check("opened", 40-n, 39)
	hs.press(codeKey(keys.KeyPgUp))
	check("PgUp", 40-n-(n-1), 39-(n-1))
	hs.press(codeKey(keys.KeyDown))
	check("Down", 40-n-(n-1)+1, 39-(n-1)+1)
	hs.press(runeKey('g'))
	check("g", 0, n-1)
	hs.press(codeKey(keys.KeyUp))
	check("Up at the top", 0, n-1)
	if !strings.Contains(hs.text(), "relay log 1-") {
		t.Errorf("the title does not say which entries are shown:\n%s", hs.text())
	}
	// New entries do not move a scrolled view.
	hs.advance(0)
	hs.press(testPrefix, runeKey('1'))
	hs.press(runeKey('x')) // not a log key: a hint, and nothing sent
	if got := hs.procs[1].Sent(); got != "" {
		t.Fatalf("a key typed while the log was shown reached the pane: %q", got)
	}
	if !strings.Contains(hs.statusLine(), "q or Esc closes") {
		t.Errorf("no hint on the status line: %q", hs.statusLine())
	}
	hs.press(codeKey(keys.KeyPgDn))
	check("PgDn", n-1, 2*n-2)
	hs.press(runeKey('G'))
	check("G", 40-n, 39)
	// The wheel over the box scrolls it.
	hs.input(keys.Mouse{X: 10, Y: hs.m.logv.y0 + 2, Button: keys.WheelUp, Action: keys.MousePress})
	check("wheel up", 40-n-wheelLines, 39-wheelLines)
	hs.press(runeKey('q'))
	if strings.Contains(hs.text(), "relay log") {
		t.Fatalf("q did not close the log:\n%s", hs.text())
	}
	hs.press(runeKey('y'))
	if got := hs.procs[1].Sent(); got != "y" {
		t.Errorf("after closing, a key reached pane 1 as %q, want \"y\"", got)
	}
	for _, closeKey := range [][]keys.Key{{codeKey(keys.KeyEscape)}, {testPrefix, runeKey('r')}} {
		hs.press(testPrefix, runeKey('r'))
		hs.press(closeKey...)
		if hs.m.logv.open || strings.Contains(hs.text(), "relay log") {
			t.Errorf("%v did not close the log", closeKey)
		}
	}
}

// TestRelayLogShowsStateOnNarrowScreen queues a delivery behind a person's draft on an
// 80-column screen: its row must end in view with its state word, the long first words
// cut instead.
func TestRelayLogShowsStateOnNarrowScreen(t *testing.T) {
	hs := newHarness(t, 80, 30, "alice", "bob")
	hs.output(1, "> ")
	hs.output(2, "> ")
	hs.advance(2 * time.Second)
	hs.press(testPrefix, runeKey('l'), runeKey('2'))
	hs.press(testPrefix, runeKey('2'))
	hs.press(textKeys("draft")...)
	hs.output(1, "\r\nalice has a great deal to say about this, more than fits in one row of the log\r\n> ")
	hs.advance(10 * time.Second)
	hs.press(testPrefix, runeKey('r'))
	var row string
	for _, l := range strings.Split(hs.text(), "\n") {
		if strings.Contains(l, "1 alice → 2 bob") {
			row = l
		}
	}
	if !strings.Contains(row, "waiting for the person") || !strings.Contains(row, "alice has") {
		t.Fatalf("delivery row %q lacks its state or first words:\n%s", row, hs.text())
	}
}

// TestRelayLogOpensAnEntryWhole: a delivery longer than a log row is cut with …; Up
// selects it, Enter shows its whole text (every line, the last one included) in a view
// that scrolls and that q leaves for the log again, Esc then closing the log.
func TestRelayLogOpensAnEntryWhole(t *testing.T) {
	hs := newHarness(t, 80, 16, "alice", "bob")
	hs.startBoth()
	hs.press(testPrefix, runeKey('l'), runeKey('2'))
	var turn strings.Builder
	turn.WriteString("\r\n")
	for i := 1; i <= 20; i++ {
		turn.WriteString("finding " + itoa(i) + ": alice has a great deal to say about this\r\n")
	}
	hs.output(1, turn.String()+"> ")
	hs.advance(10 * time.Second)
	hs.press(testPrefix, runeKey('r'))
	if txt := hs.text(); !strings.Contains(txt, "finding 1") || strings.Contains(txt, "finding 20") {
		t.Fatalf("the log row is not the cut first words:\n%s", txt)
	}
	// The delivery is not the newest entry (its phase notices may follow): select it.
	for range 10 {
		sel, base, _ := hs.m.selected()
		if log, _ := hs.s.Log(); log[sel-base].Delivery == 1 {
			break
		}
		hs.press(codeKey(keys.KeyUp))
	}
	if row := hs.selectedRow(); !strings.Contains(row, "1 alice → 2 bob") {
		t.Fatalf("the selected row %q is not the delivery", row)
	}
	hs.press(codeKey(keys.KeyEnter))
	txt := hs.text()
	if !strings.Contains(txt, "delivery 1") || !strings.Contains(txt, "finding 1:") {
		t.Fatalf("Enter did not open the delivery:\n%s", txt)
	}
	hs.press(runeKey('G'))
	if txt := hs.text(); !strings.Contains(txt, "finding 20: alice has a great deal to say about this") {
		t.Fatalf("G did not show the delivery's last line:\n%s", txt)
	}
	hs.press(runeKey('q'))
	if !hs.m.logv.open || hs.m.logv.detail != nil || !strings.Contains(hs.text(), "relay log") {
		t.Fatalf("q did not go back to the log:\n%s", hs.text())
	}
	hs.press(codeKey(keys.KeyEscape))
	if hs.m.logv.open {
		t.Error("Esc did not close the log")
	}
}

// selectedRow is the log row whose time is drawn selected (reverse video).
func (hs *harness) selectedRow() string {
	for _, l := range strings.Split(hs.view(), "\n") {
		if strings.Contains(l, "\x1b[7m") && strings.Contains(l, "→") {
			return ansi.Strip(l)
		}
	}
	return ""
}

// TestRelayLogColumnsAlign: delivery rows whose routes and sizes differ in width still
// show their states and sizes in one column each, so the log reads as a table.
func TestRelayLogColumnsAlign(t *testing.T) {
	hs := newHarness(t, 160, 30, "a", "b", "python3")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	entries := []session.Entry{
		{At: at, Delivery: 1, From: 1, FromName: "a", To: 2, ToName: "b", Phase: session.Confirmed, Size: 57, Words: "a answer 1"},
		{At: at, Delivery: 2, From: 1, FromName: "a", To: 3, ToName: "python3", Phase: session.Confirmed, Size: 57, Words: "a answer 1"},
		{At: at, Delivery: 3, From: 3, FromName: "python3", To: 1, ToName: "a", Phase: session.WaitingPerson, Size: 147, Words: "File"},
		{At: at, Note: "budget spent (4/4): 1⇄2⇄3 severed; relink to continue"},
	}
	rows := hs.m.logRows(entries, 150, -1, 0)
	col := func(row, s string) int { return ansi.StringWidth(row[:strings.Index(row, s)]) }
	state, size := -1, -1
	for i, r := range rows[:3] {
		r = ansi.Strip(r)
		st := col(r, "  "+entries[i].Phase.String()) + 2
		sz := col(r, " chars") // sizes right-aligned
		if i == 0 {
			state, size = st, sz
		}
		if st != state || sz != size {
			t.Errorf("row %q: state at column %d, size at %d; want %d and %d as the first row", r, st, sz, state, size)
		}
	}
	if r := ansi.Strip(rows[3]); !strings.HasPrefix(r, "03:04:05  budget spent") {
		t.Errorf("notice row %q", r)
	}
}

// TestRelayLogBriefFromAgentmux: a brief comes from agentmux itself, not from a pane 0.
func TestRelayLogBriefFromAgentmux(t *testing.T) {
	hs := newHarness(t, 160, 30, "a", "b")
	e := session.Entry{At: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Delivery: 1, From: 0, FromName: "agentmux",
		To: 2, ToName: "b", Phase: session.Confirmed, Size: 525, Words: "agentmux: you are b"}
	if r := ansi.Strip(hs.m.logRows([]session.Entry{e}, 150, -1, 0)[0]); !strings.HasPrefix(r, "03:04:05  agentmux → 2 b  confirmed") {
		t.Errorf("brief row %q: want it from agentmux, with no pane number", r)
	}
	if h := detailHead(&e); !strings.HasPrefix(h, "delivery 1 · 03:04:05 · agentmux → 2 b · confirmed") {
		t.Errorf("brief opened: head %q", h)
	}
}
