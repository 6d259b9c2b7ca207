package ui

// Strategy: the headless harness (harness_test.go) with its fake clock. Relay notices
// are handed to the model as the session's events: a link's end and a spent budget
// stay on the status line against the routine notices of cross-session deliveries for
// noticeHold, then yield. The new-pane prompt (prefix c) given a line it cannot start
// stays open with the error, and the next Esc cancels it without reaching the pane.

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

func (hs *harness) notice(note string) {
	hs.m.Update(sessionMsg{Events: []session.Event{session.Notice{Entry: session.Entry{Note: note}}}})
}

func TestSeveredOutranksDeliveryNotices(t *testing.T) {
	hs := newHarness(t, 120, 12, "alice")
	severed := "budget spent (8/8): 1 alice⇄bob@beta severed; relink to continue"
	hs.notice(severed)
	hs.advance(300 * time.Millisecond)
	hs.notice(`1 alice → bob@beta (other session)  turn 8/8  12 chars  "last words"`)
	hs.advance(300 * time.Millisecond)
	hs.notice("bob@beta: confirmed")
	if got := hs.statusLine(); !strings.Contains(got, "severed") {
		t.Fatalf("a delivery notice pushed the severed link off the status line: %q", got)
	}
	hs.notice("link 1 alice⇄bob@beta ended: bob@beta unlinked") // an end replaces an end
	if got := hs.statusLine(); !strings.Contains(got, "ended: bob@beta unlinked") {
		t.Fatalf("a link's end did not replace the budget notice: %q", got)
	}
	hs.advance(5 * time.Second) // noticeHold
	hs.notice("bob@beta: typed")
	if got := hs.statusLine(); !strings.Contains(got, "bob@beta: typed") {
		t.Fatalf("after 5s a routine notice still waits: %q", got)
	}
}

// A pane that came to run a shell leaves its group: the group's end comes first, and
// why must stay on the status line rather than yield to it.
func TestShellUnlinkSaysWhy(t *testing.T) {
	hs := newHarness(t, 160, 12, "alice")
	hs.notice("1⇄2 ended: pane 2 left")
	hs.notice("2 bot now runs a shell (bash), which would run agents' answers as commands: unlinked (prefix l then 2 links it, asking first)")
	if got := hs.statusLine(); !strings.Contains(got, "2 bot now runs a shell (bash)") {
		t.Fatalf("the group's end hid why: %q", got)
	}
}

func TestNewPanePromptStaysOpenOnError(t *testing.T) {
	hs := newHarness(t, 120, 12, "alice")
	hs.m.cfg.ParsePane = func(line string) (session.PaneSpec, error) {
		return session.PaneSpec{}, errors.New(`program "nosuch" not found`)
	}
	hs.procs[1].Sent() // what start-up sent
	hs.press(testPrefix, runeKey('c'))
	for _, r := range "nosuch" {
		hs.press(runeKey(r))
	}
	hs.press(codeKey(keys.KeyEnter))
	if got := hs.statusLine(); !strings.Contains(got, `program "nosuch" not found`) || !strings.HasPrefix(got, " ^A  ? help  PROMPT  new pane: program") || !strings.Contains(got, "nosuch▏") {
		t.Fatalf("the prompt closed or hid the error: %q", got)
	}
	hs.press(codeKey(keys.KeyEscape))
	if got := hs.statusLine(); strings.Contains(got, "new pane") {
		t.Fatalf("Esc did not cancel the prompt: %q", got)
	}
	if sent := hs.procs[1].Sent(); sent != "" {
		t.Fatalf("the pane was sent %q while the prompt was open", sent)
	}
}

// A name refused by the rename prompt (prefix ,) keeps it open with why, so the retry
// typed next is the prompt's and not the agent's, Enter included.
func TestRenamePromptStaysOpenOnError(t *testing.T) {
	hs := newHarness(t, 160, 12, "alice", "bob")
	hs.procs[1].Sent()
	hs.press(testPrefix, runeKey(','), keys.Key{Code: keys.KeyRune, Rune: 'u', Mod: keys.ModCtrl})
	for _, r := range "my bot" {
		hs.press(runeKey(r))
	}
	hs.press(codeKey(keys.KeyEnter))
	if got := hs.statusLine(); hs.m.prompt == nil || string(hs.m.prompt.buf) != "my bot" || !strings.Contains(got, "PROMPT  rename pane 1: rename 1: pane name") {
		t.Fatalf("the prompt closed on a refused name: %q", got)
	}
	hs.press(keys.Key{Code: keys.KeyRune, Rune: 'u', Mod: keys.ModCtrl})
	for _, r := range "bot2" {
		hs.press(runeKey(r))
	}
	hs.press(codeKey(keys.KeyEnter))
	if m, _ := hs.m.s.Member(1); m.Name != "bot2" {
		t.Fatalf("the retry did not rename the pane: %q", m.Name)
	}
	if sent := hs.procs[1].Sent(); sent != "" {
		t.Fatalf("the pane was sent %q while the prompt was open", sent)
	}
}

// The prefix typed in a prompt leaves it for the key after it (here prefix c again, a
// new prompt): neither the prefix nor that key is taken as text.
func TestPrefixLeavesAPrompt(t *testing.T) {
	hs := newHarness(t, 160, 12, "alice")
	hs.press(testPrefix, runeKey('c'), runeKey('x'), testPrefix, runeKey('c'))
	if got := hs.statusLine(); !strings.Contains(got, "new pane") || strings.Contains(got, "xc") || !strings.Contains(got, "COMMAND): ▏") {
		t.Fatalf("the prefix was not taken as the prefix: %q", got)
	}
	hs.press(codeKey(keys.KeyEscape))
	if sent := hs.procs[1].Sent(); sent != "" {
		t.Fatalf("the pane was sent %q", sent)
	}
}

// A prompt opened from a hint (prefix l, then $) shows no more of the hint.
func TestPromptReplacesTheHint(t *testing.T) {
	hs := newHarness(t, 200, 12, "alice", "bob")
	if err := hs.m.s.LinkAll(); err != nil {
		t.Fatal(err)
	}
	hs.settle()
	hs.press(testPrefix, runeKey('l'))
	if got := hs.statusLine(); !strings.Contains(got, "link with pane") {
		t.Fatalf("no link hint: %q", got)
	}
	hs.press(runeKey('$'))
	if got := hs.statusLine(); !strings.Contains(got, "spend budget of") || strings.Contains(got, "link with pane") {
		t.Fatalf("the budget prompt kept the link hint: %q", got)
	}
}
