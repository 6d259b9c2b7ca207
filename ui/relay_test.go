package ui

// Strategy: the headless harness (fake panes whose output the test writes into their real
// emulators, a fake clock, Update driven by hand) over a real session and its relay.
// Panes run plain line programs (the generic profile: idle after --idle of quiet), so a
// turn ends when the clock passes --idle; the session's one timer fires as the fake
// clock passes it, and the fake processes record what was typed into them.

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// newRelayHarness is newHarness on a 120×30 screen, linked at start with link.
func newRelayHarness(t testing.TB, link bool, names ...string) *harness {
	t.Helper()
	return newHarnessWith(t, 120, 30, Config{}, session.Options{Link: link}, names...)
}

// wake fires the session's armed timer, moving the clock to it; it reports whether one
// was armed.
func (hs *harness) wake() bool {
	at, ok := hs.clock.Next()
	if !ok {
		return false
	}
	if at.After(hs.clock.Now()) {
		hs.clock.Set(at)
	} else {
		hs.clock.Set(hs.clock.Now())
	}
	hs.settle()
	return true
}

// member is pane id's member as the session says it now.
func (hs *harness) member(id int) session.Member {
	hs.t.Helper()
	m, ok := hs.s.Member(id)
	if !ok {
		hs.t.Fatalf("no member %d", id)
	}
	return m
}

// statusLine is the last row of the view, without escapes.
func (hs *harness) statusLine() string {
	lines := strings.Split(hs.text(), "\n")
	return lines[len(lines)-1]
}

// startBoth makes panes 1 and 2 print a prompt and go quiet long enough to count as
// started.
func (hs *harness) startBoth() {
	hs.output(1, "> ")
	hs.output(2, "> ")
	hs.advance(2 * time.Second)
}

func TestLinkKeysShowGroupOnStatusLine(t *testing.T) {
	hs := newRelayHarness(t, false, "a", "b")
	hs.press(testPrefix, runeKey('l'), runeKey('2'))
	if s := hs.statusLine(); !strings.Contains(s, "1⇄2 0/8") {
		t.Fatalf("status line %q lacks the group 1⇄2 0/8", s)
	}
	if hs.member(1).Group == 0 {
		t.Fatal("pane 1 is not linked")
	}
	if !strings.Contains(hs.text(), "linked") {
		t.Errorf("no border says linked:\n%s", hs.text())
	}
	hs.press(testPrefix, runeKey('u'))
	if s := hs.statusLine(); strings.Contains(s, "1⇄2 0/8") || !strings.Contains(s, "1⇄2 ended: pane 1 left") {
		t.Errorf("status line %q still shows the group after unlink, or does not name it ended", s)
	}
}

func TestLinkAtStartLinksAll(t *testing.T) {
	hs := newRelayHarness(t, true, "a", "b", "c")
	if s := hs.statusLine(); !strings.Contains(s, "1⇄2⇄3 0/8") {
		t.Fatalf("status line %q: want all three panes in one group", s)
	}
}

func TestDeliveryTypedIntoOtherPane(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	hs.startBoth()
	hs.procs[1].Sent()
	hs.procs[2].Sent()
	hs.output(1, "\r\nhello from alice\r\n> ")
	hs.advance(2 * time.Second) // alice's turn ends; bob is idle: typed, then submitted
	got := hs.procs[2].Sent()
	if !strings.Contains(got, "alice (1): ") || !strings.Contains(got, "hello from alice") || !strings.HasSuffix(got, "\r") {
		t.Fatalf("bob was sent %q: want the attributed words, then a carriage return", got)
	}
	if s := hs.procs[1].Sent(); s != "" {
		t.Errorf("alice was sent %q: nothing goes back to the sender", s)
	}
	if s := hs.statusLine(); !strings.Contains(s, "1⇄2 1/8") {
		t.Errorf("status line %q: one turn spent", s)
	}
}

func TestDraftHoldsDelivery(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	hs.startBoth()
	hs.press(testPrefix, runeKey('2')) // focus bob
	hs.press(textKeys("half a thought")...)
	hs.procs[2].Sent()
	if !hs.member(2).Typing {
		t.Fatal("the relay did not hear the person typing in bob")
	}
	hs.output(1, "\r\nhello from alice\r\n> ")
	hs.advance(10 * time.Second)
	if got := hs.procs[2].Sent(); strings.Contains(got, "alice (1)") {
		t.Fatalf("typed into bob while a draft was there: %q", got)
	}
	if !strings.Contains(hs.statusLine(), "1 waiting") {
		t.Errorf("status line %q: want 1 waiting", hs.statusLine())
	}
	// Erasing the draft with Ctrl+U frees it after the typing hold.
	hs.press(keys.Key{Code: keys.KeyRune, Rune: 'u', Mod: keys.ModCtrl})
	hs.advance(5 * time.Second)
	if got := hs.procs[2].Sent(); !strings.Contains(got, "alice (1)") {
		t.Fatalf("not delivered after the draft was cleared: %q", got)
	}
}

func TestSentDraftIsNoTurn(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	hs.startBoth()
	hs.press(textKeys("hi")...)
	hs.press(codeKey(keys.KeyEnter))
	hs.output(1, "hi\r\n> ") // the echo of what the person typed
	hs.advance(10 * time.Second)
	if got := hs.procs[2].Sent(); strings.Contains(got, "alice (1)") {
		t.Errorf("the echo of a person's input was relayed: %q", got)
	}
}

func TestHoldKey(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	hs.startBoth()
	hs.press(testPrefix, runeKey('2'), testPrefix, runeKey('p'))
	if !hs.member(2).Held {
		t.Fatal("prefix p did not hold bob")
	}
	if !strings.Contains(hs.text(), "held") {
		t.Errorf("bob's border does not say held")
	}
	hs.procs[2].Sent()
	hs.output(1, "\r\nhello from alice\r\n> ")
	hs.advance(10 * time.Second)
	if got := hs.procs[2].Sent(); got != "" {
		t.Fatalf("typed into a held pane: %q", got)
	}
	hs.press(testPrefix, runeKey('p'))
	hs.advance(5 * time.Second)
	if got := hs.procs[2].Sent(); !strings.Contains(got, "hello from alice") {
		t.Fatalf("not delivered after release: %q", got)
	}
}

func TestRelayLogOverlay(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	hs.startBoth()
	hs.output(1, "\r\nhello from alice\r\n> ")
	hs.advance(5 * time.Second)
	hs.press(testPrefix, runeKey('r'))
	txt := hs.text()
	if !strings.Contains(txt, "relay log") || !strings.Contains(txt, "1 alice → 2 bob") || !strings.Contains(txt, "hello from alice") {
		t.Fatalf("relay log overlay missing or incomplete:\n%s", txt)
	}
	hs.press(testPrefix, runeKey('r'))
	if strings.Contains(hs.text(), "relay log") {
		t.Errorf("prefix r did not hide the log")
	}
}

func TestNoTimerWhenQuiet(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	hs.startBoth()
	hs.output(1, "\r\nhello\r\n> ")
	hs.advance(30 * time.Second) // delivered, submitted, confirm window over
	hs.settle()
	if at, ok := hs.clock.Next(); ok {
		log, _ := hs.s.Log()
		t.Fatalf("linked quiet panes keep a timer (at %v, now %v): %v", at, hs.clock.Now(), log)
	}
}

func TestExitLeavesGroup(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	hs.startBoth()
	hs.exit(2, 0)
	if s := hs.statusLine(); strings.Contains(s, "1⇄2") {
		t.Errorf("status line %q: the group should end when bob exits", s)
	}
	if hs.member(2).State != session.Exited {
		t.Error("the session does not say bob exited")
	}
}

// typeIntoBob runs alice's turn until the relay has typed it into bob (bracketed paste
// on) and not yet submitted it, and returns what bob was sent.
func typeIntoBob(t *testing.T, hs *harness) string {
	t.Helper()
	hs.output(2, "\x1b[?2004h")
	hs.startBoth()
	hs.procs[2].Sent()
	hs.output(1, "\r\nhello from alice\r\n> ")
	for i := 0; i < 10 && !strings.Contains(hs.procs[2].Peek(), "hello from alice"); i++ {
		if !hs.wake() {
			t.Fatal("no wake-up armed before the delivery was typed")
		}
	}
	got := hs.procs[2].Sent()
	if !strings.HasPrefix(got, "\x1b[200~alice (1):") || !strings.HasSuffix(got, "\x1b[201~") {
		t.Fatalf("bob was sent %q: want one bracketed paste", got)
	}
	return got
}

func TestKeysBetweenTypeAndSubmitFollowTheSubmit(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	paste := typeIntoBob(t, hs)
	// The person moves to bob (the prefix still works) and types there before the
	// submit: a key, a paste, another key.
	hs.press(testPrefix, runeKey('2'))
	if hs.m.focus != 2 {
		t.Fatalf("prefix 2 did not focus bob (focus %d)", hs.m.focus)
	}
	hs.press(runeKey('x'))
	hs.input(keys.Paste{Text: "yz"})
	hs.press(runeKey('!'))
	if got := hs.procs[2].Sent(); got != "" {
		t.Fatalf("the person's input reached bob before the submit: %q", got)
	}
	if !hs.member(2).Typing {
		t.Error("the relay did not hear the person start a draft in bob")
	}
	hs.advance(time.Second) // the submit
	want := "\r" + "x" + "\x1b[200~yz\x1b[201~" + "!"
	if got := hs.procs[2].Sent(); got != want {
		t.Fatalf("after the paste %q bob was sent %q, want %q", paste, got, want)
	}
	// Keys go straight through again.
	hs.press(runeKey('?'))
	if got := hs.procs[2].Sent(); got != "?" {
		t.Errorf("a key after the submit: bob was sent %q, want %q", got, "?")
	}
	// The draft the person started holds alice's next delivery.
	hs.output(1, "\r\nsecond from alice\r\n> ")
	hs.advance(10 * time.Second)
	if got := hs.procs[2].Sent(); strings.Contains(got, "second from alice") {
		t.Errorf("typed into bob over the person's draft: %q", got)
	}
	if w := hs.member(2).Waiting; w != 1 {
		t.Errorf("bob has %d deliveries waiting, want 1", w)
	}
}

func TestKeysHeldForClosedPaneAreDropped(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	typeIntoBob(t, hs)
	hs.press(testPrefix, runeKey('2'), runeKey('x'))
	hs.exit(2, 0)
	hs.advance(5 * time.Second)
	if got := hs.procs[2].Sent(); got != "" {
		t.Errorf("an exited pane was sent %q", got)
	}
	log, _ := hs.s.Log()
	if e := log[len(log)-1]; e.Delivery == 0 && !strings.Contains(e.String(), "exited") {
		t.Errorf("last log entry %q", e.String())
	}
	found := false
	for _, e := range log {
		if e.Delivery != 0 && e.Phase == session.Dropped && strings.Contains(e.Note, "exited") {
			found = true
		}
	}
	if !found {
		t.Errorf("the typed delivery was not logged dropped:\n%v", log)
	}
}

// TestAddressAndBriefKeys: prefix a turns the focused pane's own addressing on (its
// border says so) and off again; prefix b queues its brief, typed once it is idle.
func TestAddressAndBriefKeys(t *testing.T) {
	hs := newRelayHarness(t, false, "alice", "bob")
	hs.startBoth()
	hs.press(testPrefix, runeKey('a'))
	if !hs.member(1).Addressing {
		t.Fatal("prefix a did not turn addressing on for pane 1")
	}
	if top := strings.Split(hs.text(), "\n")[0]; !strings.Contains(top, "addressing") {
		t.Errorf("pane 1's border does not say addressing: %q", top)
	}
	hs.press(testPrefix, runeKey('a'))
	if hs.member(1).Addressing || strings.Contains(strings.Split(hs.text(), "\n")[0], "addressing") {
		t.Error("prefix a again did not turn addressing off")
	}
	hs.press(testPrefix, runeKey('2'), testPrefix, runeKey('b'))
	hs.advance(2 * time.Second)
	if got := hs.procs[2].Sent(); !strings.Contains(got, "you are bob, pane 2") {
		t.Errorf("prefix b typed %q into bob, want the brief", got)
	}
}

// TestKilledPaneNoticeSaysKilled: a program a signal ended is "killed (SIGSEGV)" in the
// relay's notice too, as on its border, not "exited".
func TestKilledPaneNoticeSaysKilled(t *testing.T) {
	hs := newRelayHarness(t, true, "alice", "bob")
	hs.startBoth()
	hs.exit(2, -11)
	log, _ := hs.s.Log()
	found := false
	for _, e := range log {
		found = found || e.Note == "2 bob killed (SIGSEGV)"
	}
	if !found {
		t.Errorf("no notice '2 bob killed (SIGSEGV)' in the log: %v", log)
	}
}

func TestStatusLineNamesTheSession(t *testing.T) {
	hs := newHarnessCfg(t, 80, 10, Config{Session: "proj-2"}, "a")
	if s := hs.statusLine(); !strings.Contains(s, "[proj-2]") {
		t.Fatalf("status line %q does not name the session proj-2", s)
	}
}
