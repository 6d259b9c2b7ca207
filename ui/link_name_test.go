package ui

// Prefix l then a letter asks on the status line for NAME@SESSION, a member of another
// session, and links the focused pane with it through the session's way across
// sessions (session.Across, the mesh in the real program): here a stand-in that links
// this side as the mesh does (an external member, LinkRemote) or answers an error. The
// digits after prefix l keep linking panes of this session.

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

// fakeMesh is the session's way across sessions in these tests. Its calls come from
// the model's Update, on the test's goroutine.
type fakeMesh struct {
	s     *session.Session
	calls []string
	err   error // answered instead of linking when set
}

func (f *fakeMesh) LinkAcross(a int, addr string, shell bool) error {
	f.calls = append(f.calls, fmt.Sprintf("%d %s shell=%v", a, addr, shell))
	if f.err != nil {
		return f.err
	}
	// The mesh learns a member once; a second link with it finds it known.
	if _, err := f.s.RegisterMember(addr, func(session.Message) {}); err != nil && !errors.Is(err, session.ErrNameTaken) {
		return err
	}
	_, _, err := f.s.LinkRemote(fmt.Sprint(a), addr, "tag-"+addr, 0, shell)
	return err
}

// meshed gives hs's session a fakeMesh.
func meshed(hs *harness) *fakeMesh {
	f := &fakeMesh{s: hs.s}
	hs.s.SetAcross(f)
	return f
}

func TestLinkNamePromptLinksAcross(t *testing.T) {
	hs := newRelayHarness(t, false, "claude", "codex")
	f := meshed(hs)
	// A digit still links a pane of this session.
	hs.press(testPrefix, runeKey('l'), runeKey('2'))
	if hs.member(1).Group == 0 || hs.member(1).Group != hs.member(2).Group {
		t.Fatalf("prefix l 2 did not link panes 1 and 2: groups %d %d", hs.member(1).Group, hs.member(2).Group)
	}
	if len(f.calls) != 0 {
		t.Fatalf("a digit went across sessions: %v", f.calls)
	}
	hs.press(testPrefix, runeKey('l'))
	if s := hs.statusLine(); !strings.Contains(s, "NAME@SESSION") {
		t.Errorf("status line %q: want the hint that a name links across sessions", s)
	}
	hs.press(textKeys("bob@buildboz")...)
	hs.press(codeKey(keys.KeyBackspace), runeKey('x'))
	if s := hs.statusLine(); !strings.Contains(s, "link 1 claude with: bob@buildbox▏") {
		t.Fatalf("status line %q: want the name prompt with the name as edited", s)
	}
	if len(f.calls) != 0 {
		t.Fatalf("linked before Enter: %v", f.calls)
	}
	hs.press(codeKey(keys.KeyEnter))
	if want := []string{"1 bob@buildbox shell=false"}; fmt.Sprint(f.calls) != fmt.Sprint(want) {
		t.Fatalf("calls %v, want %v", f.calls, want)
	}
	if sum := hs.s.Status().Summary; !strings.Contains(sum, "1⇄bob@buildbox") {
		t.Errorf("relay summary %q: pane 1 is not linked with bob@buildbox", sum)
	}
	if hs.m.mode != modeNormal {
		t.Errorf("mode %v after Enter, want normal", hs.m.mode)
	}
	// The prompt remembers the name: ↑ brings it back.
	hs.press(testPrefix, runeKey('l'), runeKey('c'), codeKey(keys.KeyUp))
	if s := hs.statusLine(); !strings.Contains(s, "with: bob@buildbox▏") {
		t.Errorf("status line %q: ↑ did not bring back the last name", s)
	}
}

func TestLinkNamePromptEscCancels(t *testing.T) {
	hs := newRelayHarness(t, false, "claude", "codex")
	f := meshed(hs)
	hs.press(testPrefix, runeKey('l'))
	hs.press(textKeys("bob@buildbox")...)
	hs.press(codeKey(keys.KeyEscape))
	if len(f.calls) != 0 {
		t.Fatalf("linked after Esc: %v", f.calls)
	}
	if s := hs.statusLine(); strings.Contains(s, "bob@buildbox") || hs.m.mode != modeNormal {
		t.Errorf("status line %q, mode %v: want the prompt gone", s, hs.m.mode)
	}
	// Typing goes to the pane again.
	hs.press(runeKey('z'))
	if got := hs.procs[1].Sent(); !strings.Contains(got, "z") || strings.Contains(got, "buildbox") {
		t.Errorf("pane 1 got %q: want only the key typed after Esc", got)
	}
}

func TestLinkNameWithoutMeshSaysSo(t *testing.T) {
	hs := newRelayHarness(t, false, "claude", "codex")
	hs.press(testPrefix, runeKey('l'))
	if s := hs.statusLine(); strings.Contains(s, "NAME@SESSION") {
		t.Errorf("status line %q: hints at names in a session that joined no mesh", s)
	}
	hs.press(runeKey('b'))
	if s := hs.statusLine(); !strings.Contains(s, "joined no mesh") {
		t.Errorf("status line %q: want it to say the session joined no mesh", s)
	}
	if hs.m.mode != modeNormal || hs.m.prompt != nil {
		t.Errorf("mode %v, prompt %v: want no prompt", hs.m.mode, hs.m.prompt)
	}
}

func TestLinkNameErrorsOnStatusLine(t *testing.T) {
	hs := newRelayHarness(t, false, "claude", "codex")
	f := meshed(hs)
	f.err = errors.New("link with bob@buildbox: refused by buildbox")
	hs.press(testPrefix, runeKey('l'))
	hs.press(textKeys("bob@buildbox")...)
	hs.press(codeKey(keys.KeyEnter))
	if s := hs.statusLine(); !strings.Contains(s, "refused by buildbox") {
		t.Errorf("status line %q: want the mesh's error", s)
	}
	// A name that is no NAME@SESSION never reaches the mesh.
	hs.press(testPrefix, runeKey('l'))
	hs.press(textKeys("bob")...)
	hs.press(codeKey(keys.KeyEnter))
	if s := hs.statusLine(); !strings.Contains(s, "NAME@SESSION") {
		t.Errorf("status line %q: want how to name a member of another session", s)
	}
	if len(f.calls) != 1 {
		t.Errorf("calls %v: want only the first name to reach the mesh", f.calls)
	}
}

func TestLinkNameShellAsksFirst(t *testing.T) {
	hs := newRelayHarness(t, false, "bash", "codex")
	f := meshed(hs)
	hs.press(testPrefix, runeKey('l'))
	hs.press(textKeys("bob@buildbox")...)
	hs.press(codeKey(keys.KeyEnter))
	if s := hs.statusLine(); !strings.Contains(s, "pane 1 bash runs a shell") || !strings.Contains(s, "(y/n)") {
		t.Fatalf("status line %q: want the question", s)
	}
	hs.press(runeKey('n'))
	if sum := hs.s.Status().Summary; strings.Contains(sum, "bob@buildbox") {
		t.Fatalf("linked after n: %q", sum)
	}
	hs.press(testPrefix, runeKey('l'))
	hs.press(textKeys("bob@buildbox")...)
	hs.press(codeKey(keys.KeyEnter), runeKey('y'))
	if sum := hs.s.Status().Summary; !strings.Contains(sum, "1⇄bob@buildbox") {
		t.Fatalf("not linked after y: %q", sum)
	}
	if last := f.calls[len(f.calls)-1]; last != "1 bob@buildbox shell=true" {
		t.Errorf("last call %q: want the shell linked as asked", last)
	}
}

// Only printable text reaches the prompt: a control or bidi rune typed or pasted is
// dropped, and the name linked is what the status line showed.
func TestLinkNamePromptShowsOnlyPrintable(t *testing.T) {
	hs := newRelayHarness(t, false, "claude", "codex")
	f := meshed(hs)
	hs.press(testPrefix, runeKey('l'), runeKey('b'), runeKey('\u202e'), runeKey('\x1b'))
	hs.input(keys.Paste{Text: "o\x1b]0;pwned\x07b@buildbox\nrm -rf"})
	view := hs.view()
	if strings.Contains(view, "\u202e") || strings.Contains(view, "pwned\x07") {
		t.Fatalf("the frame carries what was typed raw: %q", view)
	}
	if s := hs.statusLine(); !strings.Contains(s, "with: bo]0;pwnedb@buildbox▏") {
		t.Fatalf("status line %q: want the printable text only, first line only", s)
	}
	hs.press(codeKey(keys.KeyEnter))
	if want := "1 bo]0;pwnedb@buildbox shell=false"; len(f.calls) != 1 || f.calls[0] != want {
		t.Errorf("calls %v, want [%s]", f.calls, want)
	}
}
