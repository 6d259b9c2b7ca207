package ui

// Strategy: drive the model with keys as an attached terminal would (the attachment set
// on the harness's model) and check how the program ends: prefix d detaches, prefix q
// asks and d detaches or y ends; a fixed terminal (the one a session runs in), prefix d says it cannot detach and the
// program goes on; a read-only terminal's keys reach no pane.

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
)

func TestPrefixDDetachesAnAttachedTerminal(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []keys.Key
		want Ending
	}{
		{"prefix d", []keys.Key{testPrefix, runeKey('d')}, EndDetach},
		{"prefix q then d", []keys.Key{testPrefix, runeKey('q'), runeKey('d')}, EndDetach},
		{"prefix q then y", []keys.Key{testPrefix, runeKey('q'), runeKey('y')}, EndQuit},
	} {
		t.Run(c.name, func(t *testing.T) {
			hs := newHarness(t, 80, 24, "a", "b")
			hs.m.att = attachment{name: "proj", detachable: true}
			for _, k := range c.keys {
				hs.send(inputMsg{Events: []keys.Event{k}})
			}
			if !hs.m.quitting || hs.m.ending != c.want {
				t.Errorf("quitting %v ending %v, want ending %v", hs.m.quitting, hs.m.ending, c.want)
			}
		})
	}
}

func TestPrefixQAsksEndDetachOrCancel(t *testing.T) {
	hs := newHarness(t, 100, 24, "a", "b")
	hs.m.att = attachment{name: "proj", detachable: true}
	hs.send(inputMsg{Events: []keys.Event{testPrefix, runeKey('q')}})
	if !strings.Contains(hs.m.View(), "end session proj and every agent? y: end, d: detach, n: cancel") {
		t.Errorf("no end-or-detach question:\n%s", hs.m.View())
	}
	hs.send(inputMsg{Events: []keys.Event{runeKey('n')}})
	if hs.m.quitting {
		t.Error("n should cancel")
	}
}

func TestPrefixDFixedTerminalCannotDetach(t *testing.T) {
	hs := newHarness(t, 100, 24, "a", "b")
	hs.send(inputMsg{Events: []keys.Event{testPrefix, runeKey('d')}})
	if hs.m.quitting {
		t.Fatal("a fixed terminal detached")
	}
	if !strings.Contains(hs.m.status.text, "cannot detach") {
		t.Errorf("status %q, want a word that it cannot detach", hs.m.status.text)
	}
}

func TestReadOnlyTerminalTypesNothing(t *testing.T) {
	hs := newHarness(t, 80, 24, "a", "b")
	hs.procs[1].SetEcho(true) // what reaches the pane shows in it
	hs.m.att = attachment{name: "proj", detachable: true}
	hs.press(runeKey('x'), runeKey('q'))
	hs.settle()
	// The pane's writer goroutine echoes the keys: wait for the session's events until
	// the echo is drawn, not for a moment.
	for !strings.Contains(hs.m.View(), "xq") {
		hs.await(func(session.Event) bool { return true })
	}
	if !strings.Contains(hs.m.View(), "xq") {
		t.Fatalf("the echo of a writing terminal's keys is missing:\n%s", hs.m.View())
	}
	hs.m.att.readOnly = true
	hs.press(runeKey('z'), runeKey('w'))
	hs.settle()
	if strings.Contains(hs.m.View(), "zw") || strings.Contains(hs.procs[1].Peek(), "zw") {
		t.Errorf("a read-only terminal typed into pane 1:\n%s", hs.m.View())
	}
	hs.send(inputMsg{Events: []keys.Event{testPrefix, runeKey('d')}})
	if !hs.m.quitting || hs.m.ending != EndDetach {
		t.Errorf("prefix d should detach a read-only terminal (ending %v)", hs.m.ending)
	}
}

func TestAPaneClosedFromAnotherTerminalLeavesThisOne(t *testing.T) {
	hs := newHarness(t, 100, 24, "a", "b")
	other := newModel(hs.m.cfg, hs.s, modelOptions{width: 100, height: 24})
	t.Cleanup(other.sub.Close)
	hs.m.closePane(2)
	hs.s.Sync()
	for len(other.views) == 2 {
		select {
		case <-other.sub.Ready():
			other.Update(sessionMsg{Events: other.sub.Next()})
		case <-time.After(5 * time.Second):
			t.Fatal("the other terminal never heard of the close")
		}
	}
	if other.views[2] != nil || len(other.order) != 1 || other.focus != 1 {
		t.Errorf("the other terminal keeps views %v, order %v, focus %d", other.views, other.order, other.focus)
	}
}

// A read-only terminal changes its own view (focus, zoom, scrolling, the relay log,
// help), never the session: the commands that would are refused, typing reaches no
// pane and is said once, and the status line says read-only from the start.
func TestReadOnlyTerminalLooksAround(t *testing.T) {
	hs := newHarness(t, 100, 24, "a", "b")
	hs.m.att = attachment{name: "proj", detachable: true, readOnly: true}
	if got := hs.statusLine(); !strings.Contains(got, "read-only") {
		t.Fatalf("the status line does not say read-only: %q", got)
	}
	hs.press(testPrefix, runeKey('2'))
	hs.advance(time.Second) // a second digit may follow
	if hs.m.focus != 2 {
		t.Errorf("prefix 2 did not focus pane 2 (focus %d)", hs.m.focus)
	}
	hs.press(testPrefix, runeKey('z'))
	if !hs.m.zoomed {
		t.Error("prefix z did not zoom")
	}
	hs.press(testPrefix, runeKey('z'), testPrefix, runeKey('r'))
	if !hs.m.logv.open {
		t.Error("prefix r did not open the relay log")
	}
	hs.press(testPrefix, runeKey('r'), testPrefix, runeKey('?'))
	if hs.m.mode != modeHelp {
		t.Error("prefix ? did not open help")
	}
	hs.press(codeKey(keys.KeyEscape), testPrefix, runeKey('['))
	if v := hs.m.views[2]; v == nil || v.scroll == nil {
		t.Error("prefix [ did not enter scroll mode")
	}
	hs.press(runeKey('q'))
	for _, k := range []rune{'L', 'c', 'x', 'R', 'S', 'p'} {
		hs.press(testPrefix, runeKey(k))
		if hs.m.mode != modeNormal || !strings.Contains(hs.m.status.text, "read-only: that would change the session") {
			t.Errorf("prefix %c on a read-only terminal: mode %v, status %q", k, hs.m.mode, hs.m.status.text)
		}
	}
	if st := hs.s.Status(); st.Summary != "" {
		t.Errorf("the session changed: %q", st.Summary)
	}
	hs.press(runeKey('h'))
	if !strings.Contains(hs.m.status.text, "read-only: what you type reaches no pane") {
		t.Errorf("a dropped key was not said: %q", hs.m.status.text)
	}
	hs.press(runeKey('i'))
	if !strings.Contains(hs.m.status.text, "read-only: what you type reaches no pane") {
		t.Errorf("typing on cleared what it was told: %q", hs.m.status.text)
	}
	hs.press(testPrefix, runeKey('o'), runeKey('j'))
	if hs.m.status.text != "" {
		t.Errorf("a dropped key was said again: %q", hs.m.status.text)
	}
	hs.settle()
	if sent := hs.procs[1].Peek() + hs.procs[2].Peek(); strings.ContainsAny(sent, "hi") {
		t.Errorf("a read-only terminal typed %q", sent)
	}
}
