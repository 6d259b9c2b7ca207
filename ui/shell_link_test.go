package ui

// Linking every pane (--link, prefix L) leaves the shells out, and the status line
// says so: a linked shell would run an agent's answer ("touch PWNED") as a command.
// Prefix l N links a shell only once the person answers y.

import (
	"strings"
	"testing"
)

func TestLinkAtStartLeavesShellsOut(t *testing.T) {
	hs := newRelayHarness(t, true, "claude", "codex", "bash")
	if hs.member(1).Group == 0 || hs.member(1).Group != hs.member(2).Group {
		t.Fatalf("the agents are not linked: groups %d %d", hs.member(1).Group, hs.member(2).Group)
	}
	if g := hs.member(3).Group; g != 0 {
		t.Fatalf("the bash pane is linked (group %d)", g)
	}
	if s := hs.statusLine(); !strings.Contains(s, "left out 3 bash") {
		t.Errorf("status line %q does not say the shell was left out", s)
	}
}

func TestLinkAllLeavesShellsOut(t *testing.T) {
	hs := newRelayHarness(t, false, "claude", "zsh", "codex")
	hs.press(testPrefix, runeKey('L'))
	if hs.member(1).Group == 0 || hs.member(1).Group != hs.member(3).Group {
		t.Fatalf("the agents are not linked: groups %d %d", hs.member(1).Group, hs.member(3).Group)
	}
	if g := hs.member(2).Group; g != 0 {
		t.Fatalf("the zsh pane is linked (group %d)", g)
	}
	if s := hs.statusLine(); !strings.Contains(s, "left out 2 zsh") {
		t.Errorf("status line %q does not say the shell was left out", s)
	}
}

func TestLinkShellAsksFirst(t *testing.T) {
	hs := newRelayHarness(t, false, "claude", "bash")
	hs.press(testPrefix, runeKey('l'), runeKey('2'))
	if s := hs.statusLine(); !strings.Contains(s, "pane 2 bash runs a shell") || !strings.Contains(s, "(y/n)") {
		t.Fatalf("status line %q: want the question", s)
	}
	if hs.member(2).Group != 0 {
		t.Fatal("linked before the answer")
	}
	hs.press(runeKey('n'))
	if hs.member(2).Group != 0 {
		t.Fatal("linked after n")
	}
	if s := hs.statusLine(); strings.Contains(s, "link with pane") {
		t.Errorf("status line %q after n: link mode's reminder is still there, but link mode ended", s)
	}
	hs.press(testPrefix, runeKey('l'), runeKey('2'))
	hs.press(runeKey('y'))
	if hs.member(2).Group == 0 || hs.member(2).Group != hs.member(1).Group {
		t.Fatal("not linked after y")
	}
}
