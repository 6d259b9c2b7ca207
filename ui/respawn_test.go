package ui

// Prefix R on a pane of a restored session whose command resumes its agent's
// conversation: the person chooses between that conversation (y) and a fresh one (f),
// on a pane that exited as on one that runs; n cancels. Strategy: the fake-process
// harness; which command the pane's next process got tells the answer taken.

import (
	"strings"
	"testing"

	"github.com/agentmux/agentmux/session"
)

func TestRespawnOfARestoredPaneAsksResumeOrFresh(t *testing.T) {
	o := session.Options{Panes: []PaneSpec{{Name: "claude", Argv: []string{"claude", "--resume", "c1"}, Fresh: []string{"claude"}}}}
	hs := newHarnessWith(t, 100, 30, Config{}, o, "sh")
	hs.exit(1, 1)
	hs.press(testPrefix, runeKey('R'))
	if !strings.Contains(hs.text(), "pane 1 claude has exited: y: resume its conversation again, f: start it fresh") {
		t.Fatalf("no choice on the status line:\n%s", hs.text())
	}
	hs.press(runeKey('n'))
	if hs.m.mode == modeConfirm || !strings.Contains(hs.text(), "exited (1)") {
		t.Fatalf("n did not cancel:\n%s", hs.text())
	}

	first := hs.procs[1]
	hs.press(testPrefix, runeKey('R'), runeKey('y'))
	if hs.procs[1] == first || strings.Join(hs.procs[1].Spec.Argv, " ") != "claude --resume c1" {
		t.Fatalf("y: pane 1 runs %q, want its conversation resumed", hs.procs[1].Spec.Argv)
	}

	// Still running, it asks too, and f ends it and starts the program fresh.
	second := hs.procs[1]
	hs.press(testPrefix, runeKey('R'))
	if !strings.Contains(hs.text(), "pane 1 claude still runs (it ends first): y: resume") {
		t.Fatalf("no choice for the running pane:\n%s", hs.text())
	}
	hs.press(runeKey('f'))
	if hs.procs[1] == second || strings.Join(hs.procs[1].Spec.Argv, " ") != "claude" {
		t.Fatalf("f: pane 1 runs %q, want claude fresh", hs.procs[1].Spec.Argv)
	}
	// A pane with nothing to resume keeps the plain question.
	hs.press(testPrefix, runeKey('R'))
	if !strings.Contains(hs.text(), "pane 1 claude still runs: end it and start it again? (y/n)") {
		t.Errorf("after a fresh start the plain question:\n%s", hs.text())
	}
}

// A restored session's agents say on their borders how they came back: on their own
// conversation, or fresh because agentmux could not resume one.
func TestBorderSaysHowARestoredAgentCameBack(t *testing.T) {
	o := session.Options{Panes: []PaneSpec{
		{Name: "claude", Argv: []string{"claude", "--resume", "c1"}, Fresh: []string{"claude"}, Restored: "resumed"},
		{Name: "aider", Argv: []string{"aider"}, Restored: "fresh (not resumed)"},
	}}
	hs := newHarnessWith(t, 180, 30, Config{}, o, "sh")
	text := hs.text()
	for _, want := range []string{"1 claude ─ running · resumed", "2 aider ─ running · fresh (not resumed)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q on the borders:\n%s", want, text)
		}
	}
	if strings.Contains(text, "3 sh ─ running ·") {
		t.Errorf("a pane not restored says something:\n%s", text)
	}
}
