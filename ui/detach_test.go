package ui

// Strategy: drive the model with keys as an attached terminal would (the attachment set
// on the harness's model) and check how the program ends: prefix d detaches, prefix q
// asks and d detaches or y ends; in-process, prefix d says it cannot detach and the
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

func TestPrefixDInProcessCannotDetach(t *testing.T) {
	hs := newHarness(t, 100, 24, "a", "b")
	hs.send(inputMsg{Events: []keys.Event{testPrefix, runeKey('d')}})
	if hs.m.quitting {
		t.Fatal("an in-process session detached")
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
