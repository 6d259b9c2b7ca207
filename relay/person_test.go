package relay

// Strategy: fake-clock scenarios (sim_test.go) seen from the person who lives with the
// relay: a delivery that arrives while they type in the target waits through their own
// message and its answer; a group whose budget was spent starts afresh when they relink
// it; a pane closed between Type and Submit drops its delivery with a note; an
// unconfirmed delivery is not submitted a second time over keys they typed since.

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDeliveryWaitsThroughPersonsOwnMessage(t *testing.T) {
	h := newHarness(t, Config{Turns: 2})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, think: 5 * time.Second, reply: counter("bob")})
	h.run(2 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	// The person starts a draft in bob, then asks alice something.
	for _, r := range "my own question" {
		bob.draft += string(r)
		h.handle(Keystroke{Pane: 2, Draft: true})
		h.output(2)
	}
	h.person(1, "hi")
	h.run(20 * time.Second) // alice answered long ago; bob still has the draft
	if len(h.typed) != 0 {
		t.Fatalf("typed over the person's draft: %+v", h.typed)
	}
	if got := h.phases(); !reflect.DeepEqual(got, []string{"1→2 waiting for the person"}) {
		t.Fatalf("phases %q", got)
	}
	// The person sends their own message in bob: bob works on it for 5 s.
	h.handle(Sent{Pane: 2, Text: bob.draft})
	bob.enter()
	sent := h.now
	h.run(60 * time.Second)
	var toBob []typedRec
	for _, d := range h.typed {
		if d.to == 2 {
			toBob = append(toBob, d)
		}
	}
	if len(toBob) != 1 || toBob[0].text != "alice (1):\n\nalice reply 1" {
		t.Fatalf("bob was typed %+v, want alice's answer once", toBob)
	}
	if answered := sent.Add(5 * time.Second); toBob[0].at.Before(answered) {
		t.Errorf("typed into bob at %v, before bob finished the person's message at %v", toBob[0].at.Sub(t0), answered.Sub(t0))
	}
	if got := bob.inputs; !reflect.DeepEqual(got, []string{"my own question", "alice (1):\n\nalice reply 1"}) {
		t.Errorf("bob got %q: want the person's message, then alice's answer, each whole", got)
	}
	// bob's answer to the person went to alice: the group's second turn.
	if len(h.typed) != 2 || h.typed[0].to != 1 || h.typed[0].text != "bob (2):\n\nbob reply 1" {
		t.Errorf("typed %+v", h.typed)
	}
}

func TestRelinkAfterBudgetStartsAfresh(t *testing.T) {
	h := newHarness(t, Config{Turns: 2})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.run(2 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "start")
	h.run(60 * time.Second)
	if len(h.typed) != 2 || !containsNote(h.notes(), "budget spent (2/2): 1⇄2 severed") {
		t.Fatalf("typed %d, notes %q", len(h.typed), h.notes())
	}
	// bob's answer to the last delivery was not relayed (severed); the person relinks.
	h.handle(Link{Pane: 2, With: 1})
	if s := h.r.Status().String(); !strings.Contains(s, "1⇄2 0/2") {
		t.Fatalf("status after relinking %q, want a fresh budget 0/2", s)
	}
	h.person(1, "again")
	h.run(120 * time.Second)
	want := []string{
		"alice (1):\n\nalice reply 1", "bob (2):\n\nbob reply 1",
		// alice's answer to bob's last words (reply 2) came while unlinked: never relayed.
		"alice (1):\n\nalice reply 3", "bob (2):\n\nbob reply 2",
	}
	var got []string
	for _, d := range h.typed {
		got = append(got, d.text)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("typed %q\nwant  %q", got, want)
	}
	if n := strings.Count(strings.Join(h.notes(), "\n"), "severed"); n != 2 {
		t.Errorf("%d severed notices, want 2: %q", n, h.notes())
	}
}

func TestExitBetweenTypeAndSubmitIsNoted(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "hi")
	for i := 0; len(h.typed) == 0 && i < 100; i++ {
		h.run(h.now.Sub(t0) + 100*time.Millisecond)
	}
	if len(h.typed) != 1 || len(h.submits) != 0 {
		t.Fatalf("typed %d, submitted %d", len(h.typed), len(h.submits))
	}
	h.handle(Exit{Pane: 2})
	for _, e := range h.r.Log() {
		if e.Delivery > 0 && (e.Phase != Dropped || e.Note != "target exited") {
			t.Errorf("delivery log entry %q: want dropped, target exited", e.String())
		}
	}
	if ps, _ := h.r.Pane(2); ps.Typed {
		t.Error("an exited pane still has a delivery waiting for its submit")
	}
}

func TestNoSecondSubmitOverPersonsKeys(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, deaf: true}) // takes the Enter as a newline
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "hi")
	for i := 0; len(h.submits) == 0 && i < 200; i++ {
		h.run(h.now.Sub(t0) + 100*time.Millisecond)
	}
	if len(h.submits) != 1 {
		t.Fatalf("%d submits", len(h.submits))
	}
	// The person starts their own words in bob after the submit.
	h.now = h.now.Add(time.Second)
	bob.draft += " and mine"
	h.handle(Keystroke{Pane: 2, Draft: true})
	h.output(2)
	h.run(h.now.Sub(t0) + 20*time.Second)
	if len(h.submits) != 1 {
		t.Fatalf("%d carriage returns sent: the second would submit the person's draft", len(h.submits))
	}
	if got := h.phases(); !reflect.DeepEqual(got, []string{"1→2 failed"}) {
		t.Errorf("phases %q", got)
	}
	if !strings.Contains(lastDeliveryNote(h), "a person is typing there") {
		t.Errorf("no note on why it was not submitted again: %q", lastDeliveryNote(h))
	}
}

// lastDeliveryNote returns the note of the log's last delivery entry.
func lastDeliveryNote(h *harness) string {
	note := ""
	for _, e := range h.r.Log() {
		if e.Delivery > 0 {
			note = e.Note
		}
	}
	return note
}

// TestClosedPaneIsNotedAsClosed: a pane a person closed is "closed" in the notices and
// the drop reasons, not "exited", which would say its program ended by itself.
func TestClosedPaneIsNotedAsClosed(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "bob", &fakeAgent{titled: true})
	h.agent(3, "carol", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Exit{Pane: 2, Closed: true})
	h.handle(Exit{Pane: 3})
	notes := strings.Join(h.notes(), "\n")
	if !strings.Contains(notes, "2 bob closed") || strings.Contains(notes, "2 bob exited") {
		t.Errorf("notices %q: want 2 bob closed", notes)
	}
	if !strings.Contains(notes, "3 carol exited") {
		t.Errorf("notices %q: want 3 carol exited", notes)
	}
}

// TestExitNoticeSaysHow: the notice of a program's end says how it ended, as its border
// does ("killed (SIGSEGV)"), not a bare "exited" beside a border that says killed.
func TestExitNoticeSaysHow(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Exit{Pane: 1, Status: "killed (SIGSEGV)"})
	if notes := strings.Join(h.notes(), "\n"); !strings.Contains(notes, "1 alice killed (SIGSEGV)") {
		t.Errorf("notices %q: want 1 alice killed (SIGSEGV)", notes)
	}
}
