package relay

// Strategy: fake-clock scenarios on the simulation in sim_test.go. Each test links fake
// agents, starts a conversation the way a person would (typing into one pane), runs the
// clock, and checks exactly what was typed where and when, the log's phases and notices,
// and the status. No sleeps: time only moves through NextWake and scheduled replies. This
// file covers conversations, budgets, groups and their lifecycle.

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestConversationBudget(t *testing.T) {
	for _, titled := range []bool{true, false} {
		name := "quiet-time idle"
		if titled {
			name = "title idle"
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, Config{Turns: 5})
			alice := h.agent(1, "alice", &fakeAgent{titled: titled, bracketed: true, reply: counter("alice")})
			bob := h.agent(2, "bob", &fakeAgent{titled: titled, bracketed: true, reply: counter("bob")})
			h.run(5 * time.Second) // both start
			h.handle(Link{Pane: 1, With: 2})
			h.person(1, "start")
			h.run(120 * time.Second)

			want := []typedRec{
				{to: 2, text: "alice (1):\n\nalice reply 1"},
				{to: 1, text: "bob (2):\n\nbob reply 1"},
				{to: 2, text: "alice (1):\n\nalice reply 2"},
				{to: 1, text: "bob (2):\n\nbob reply 2"},
				{to: 2, text: "alice (1):\n\nalice reply 3"},
			}
			if len(h.typed) != len(want) {
				t.Fatalf("typed %d deliveries, want %d: %+v", len(h.typed), len(want), h.typed)
			}
			for i, w := range want {
				if g := h.typed[i]; g.to != w.to || g.text != w.text || !g.bracketed {
					t.Errorf("delivery %d = %+v, want to %d %q bracketed", i, g, w.to, w.text)
				}
			}
			// Every typed delivery was submitted once, SubmitDelay later.
			if len(h.submits) != len(want) {
				t.Fatalf("%d submits, want %d", len(h.submits), len(want))
			}
			for i, s := range h.submits {
				if d := s.at.Sub(h.typed[i].at); d != 200*time.Millisecond {
					t.Errorf("submit %d came %v after typing, want 200ms", i, d)
				}
			}
			if got := len(bob.inputs) + len(alice.inputs); got != len(want)+1 {
				t.Errorf("agents got %d inputs, want %d", got, len(want)+1)
			}
			for _, p := range h.phases() {
				if !strings.HasSuffix(p, "confirmed") {
					t.Errorf("delivery not confirmed: %s", p)
				}
			}
			if st := h.r.Status(); len(st.Groups) != 0 || st.Waiting != 0 || st.InFlight != 0 {
				t.Errorf("status after the budget: %+v", st)
			}
			if !containsNote(h.notes(), "budget spent (5/5): 1⇄2 severed") {
				t.Errorf("no budget notice in %q", h.notes())
			}
			if _, ok := h.r.NextWake(); ok {
				t.Errorf("a wake-up is pending after the conversation ended")
			}
		})
	}
}

func TestThreeMembers(t *testing.T) {
	h := newHarness(t, Config{Turns: 3})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	silent := func(string) string { return "" } // goes idle without a word
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: silent})
	carol := h.agent(3, "carol", &fakeAgent{titled: true, bracketed: true, reply: silent})
	h.run(time.Second)
	h.handle(LinkAll{Panes: []int{1, 2, 3, 2}})
	if got := h.r.Status().String(); got != "1⇄2⇄3 0/3" {
		t.Fatalf("status %q", got)
	}
	h.person(1, "go")
	h.run(30 * time.Second)
	if len(h.typed) != 2 || h.typed[0].to != 2 || h.typed[1].to != 3 {
		t.Fatalf("typed %+v, want alice's words into 2 then 3", h.typed)
	}
	if carol.inputs[0] != "alice (1):\n\nalice reply 1" {
		t.Errorf("carol got %q", carol.inputs)
	}
	if got := h.r.Status().String(); got != "1⇄2⇄3 2/3" {
		t.Errorf("status %q, want 2 of 3 turns used", got)
	}
	// The third turn spends the budget: one more delivery, then the group is severed.
	h.person(1, "again")
	h.run(60 * time.Second)
	if len(h.typed) != 3 || h.typed[2].to != 2 {
		t.Fatalf("typed %+v, want a third delivery to 2 only", h.typed)
	}
	if len(h.r.Status().Groups) != 0 {
		t.Errorf("group not severed: %+v", h.r.Status())
	}
}

func TestEmptyAndRepeatedDeltas(t *testing.T) {
	h := newHarness(t, Config{})
	same := func(string) string { return "the same words" }
	alice := h.agent(1, "alice", &fakeAgent{titled: true, reply: same})
	h.agent(2, "bob", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	// Output that is only chrome and the echo of typed input is no turn worth relaying.
	alice.print("", ">")
	h.run(5 * time.Second)
	h.person(1, "")
	h.run(10 * time.Second)
	if len(h.typed) != 0 {
		t.Fatalf("typed %+v for chrome only", h.typed)
	}
	h.person(1, "first")
	h.run(20 * time.Second)
	h.person(1, "second")
	h.run(30 * time.Second)
	if len(h.typed) != 1 {
		t.Fatalf("typed %d deliveries, want 1 (the repeat skipped): %+v", len(h.typed), h.typed)
	}
	if got := h.r.Status().Groups[0].Used; got != 1 {
		t.Errorf("used %d turns, want 1", got)
	}
	if !containsNote(h.notes(), "said the same as the last delivery") {
		t.Errorf("no repeat notice: %q", h.notes())
	}
}

func TestUnlinkAndExitMidQueue(t *testing.T) {
	for _, how := range []string{"unlink", "exit"} {
		t.Run(how, func(t *testing.T) {
			h := newHarness(t, Config{})
			h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
			bob := h.agent(2, "bob", &fakeAgent{titled: true})
			h.run(time.Second)
			h.handle(Link{Pane: 1, With: 2})
			bob.busy = true // bob is working on something of its own
			bob.print("working")
			h.person(1, "hi")
			h.run(10 * time.Second)
			if got := h.phases(); !reflect.DeepEqual(got, []string{"1→2 waiting for idle"}) {
				t.Fatalf("phases %q", got)
			}
			if how == "unlink" {
				h.handle(Unlink{Pane: 2})
			} else {
				h.handle(Exit{Pane: 2})
			}
			bob.answer("done") // bob goes idle: nothing may be typed into it now
			h.run(20 * time.Second)
			if len(h.typed) != 0 {
				t.Fatalf("typed %+v after %s", h.typed, how)
			}
			if got := h.phases(); !reflect.DeepEqual(got, []string{"1→2 dropped"}) {
				t.Errorf("phases %q", got)
			}
			if len(h.r.Status().Groups) != 0 || !containsNote(h.notes(), "1⇄2 ended: pane 2 left") {
				t.Errorf("group did not end: %+v %q", h.r.Status(), h.notes())
			}
		})
	}
}

func TestExitBetweenTypeAndSubmit(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "hi")
	for len(h.typed) == 0 && h.now.Before(t0.Add(20*time.Second)) {
		at, ok := h.r.NextWake()
		next := t0.Add(20 * time.Second)
		if ok && at.Before(next) {
			next = at
		}
		for _, a := range h.agents {
			for _, e := range a.pending {
				if e.at.Before(next) {
					next = e.at
				}
			}
		}
		h.run(next.Sub(t0))
	}
	if len(h.typed) != 1 || len(h.submits) != 0 {
		t.Fatalf("typed %d, submitted %d", len(h.typed), len(h.submits))
	}
	h.handle(Exit{Pane: 2})
	h.run(40 * time.Second)
	if len(h.submits) != 0 {
		t.Fatalf("a carriage return went to an exited pane")
	}
	if got := h.phases(); !reflect.DeepEqual(got, []string{"1→2 dropped"}) {
		t.Errorf("phases %q", got)
	}
}

func TestLinkMoves(t *testing.T) {
	h := newHarness(t, Config{})
	for i, n := range []string{"a", "b", "c", "d"} {
		h.agent(i+1, n, &fakeAgent{titled: true})
	}
	h.handle(Link{Pane: 1, With: 2})
	h.handle(Link{Pane: 3, With: 4})
	if got := h.r.Status().String(); got != "1⇄2 0/8 · 3⇄4 0/8" {
		t.Fatalf("status %q", got)
	}
	h.handle(Link{Pane: 3, With: 1}) // 3 moves: its old group ends, and the notice says so
	if got := h.r.Status().String(); got != "1⇄2⇄3 0/8" {
		t.Fatalf("status %q", got)
	}
	if log := h.r.Log(); !strings.Contains(log[len(log)-1].Note, "linked 1⇄2⇄3 (0/8 turns); pane 3 left 3⇄4, which ended") {
		t.Errorf("the link's notice %q does not say pane 3 left 3⇄4, which ended", log[len(log)-1].Note)
	}
	if st, _ := h.r.Pane(4); st.Group != 0 {
		t.Errorf("4 still in group %d", st.Group)
	}
	h.handle(Link{Pane: 3, With: 2}) // already together: nothing changes
	h.handle(Link{Pane: 9, With: 1}) // unknown pane: ignored
	h.handle(Unlink{Pane: 1})
	if got := h.r.Status().String(); got != "2⇄3 0/8" {
		t.Fatalf("status %q", got)
	}
	h.handle(Link{Pane: 4, With: 2})
	h.handle(Link{Pane: 4, With: 1}) // 4 leaves 2⇄3⇄4, which goes on without it
	if log := h.r.Log(); !strings.Contains(log[len(log)-1].Note, "linked 1⇄4 (0/8 turns); pane 4 left 2⇄3⇄4, now 2⇄3") {
		t.Errorf("the link's notice %q does not say what pane 4 left", log[len(log)-1].Note)
	}
}

func containsNote(notes []string, sub string) bool {
	for _, n := range notes {
		if strings.Contains(n, sub) {
			return true
		}
	}
	return false
}
