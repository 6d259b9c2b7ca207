package relay

import (
	"strings"
	"testing"
	"time"
)

// A pane with hooks: its turn ends when its hook says so, with the hook's text, at
// once; without the hook its turn waits HookWait past the screen's idle, then goes
// with the screen's delta; the log says which.

// hookedPair links alice (hooks, answers "alice reply N" 2 s after each input) with
// bob (whose answers are empty: nothing goes back), and has a person send alice "work" at 2 s.
func hookedPair(t *testing.T) (*harness, *fakeAgent, *fakeAgent) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, hooks: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: func(string) string { return "" }})
	h.run(2 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "work")
	return h, alice, bob
}

func TestHookEndsTheTurnAtOnceWithTheExactText(t *testing.T) {
	h, _, bob := hookedPair(t)
	h.run(4*time.Second + 500*time.Millisecond) // alice answered at 4 s; her screen says idle
	if len(bob.inputs) != 0 {
		t.Fatalf("bob got %q before alice's hook said her turn ended", bob.inputs)
	}
	exact := "**alice reply 1**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfmt.Println(1)\n```"
	h.handle(TurnEnd{Pane: 1, Text: exact, Source: "test Stop hook"})
	if len(h.typed) == 0 || h.typed[len(h.typed)-1].to != 2 {
		t.Fatalf("nothing typed into bob at the hook's turn end: %+v", h.typed)
	}
	if got := h.typed[len(h.typed)-1]; got.at != h.now || !strings.Contains(got.text, exact) {
		t.Errorf("typed at %v %q, want the hook's text at once (%v)", got.at.Sub(t0), got.text, h.now.Sub(t0))
	}
	var e Entry
	for _, x := range h.r.Log() {
		if x.To == 2 && x.Delivery > 0 {
			e = x
		}
	}
	if e.Source != SourceHook || !strings.Contains(e.Note, "answer as the model wrote it, from its test Stop hook") {
		t.Errorf("log entry source %q note %q", e.Source, e.Note)
	}
	h.run(time.Minute)
	if len(bob.inputs) != 1 {
		t.Errorf("bob got %q: the turn went twice", bob.inputs)
	}
}

func TestWithoutItsHookATurnGoesFromTheScreenAfterHookWait(t *testing.T) {
	h, _, bob := hookedPair(t)
	h.run(time.Minute)
	if want := "alice (1):\n\nalice reply 1"; len(bob.inputs) != 1 || bob.inputs[0] != want {
		t.Fatalf("bob got %q, want %q", bob.inputs, want)
	}
	first := h.typed[0]
	if d := first.at.Sub(t0); d < 5*time.Second || d > 5*time.Second+100*time.Millisecond {
		t.Errorf("typed at %v: want the answer at 4 s, then HookWait (1 s)", d)
	}
	for _, x := range h.r.Log() {
		if x.To == 2 && x.Delivery > 0 && (x.Source != SourceScreen || !strings.Contains(x.Note, "answer read from the screen: no answer from its hook")) {
			t.Errorf("log entry source %q note %q", x.Source, x.Note)
		}
	}
}

func TestALateHookIsNotTheNextTurns(t *testing.T) {
	h, _, bob := hookedPair(t)
	h.run(10 * time.Second) // ended on the screen at 5 s
	h.handle(TurnEnd{Pane: 1, Text: "stale text", Source: "test"})
	h.person(1, "more") // the next turn ends on the screen: its hook never comes
	h.run(time.Minute)
	if want := []string{"alice (1):\n\nalice reply 1", "alice (1):\n\nalice reply 2"}; strings.Join(bob.inputs, "|") != strings.Join(want, "|") {
		t.Errorf("bob got %q, want %q", bob.inputs, want)
	}
}

// A person who types into a pane before it counted as started (its screen not yet
// quiet for --idle) still gets its turn relayed from the hook: the hook says it runs.
func TestHookBeforeThePaneCountedAsStarted(t *testing.T) {
	h := newHarness(t, Config{Idle: 10 * time.Second})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, hooks: true, think: time.Second, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: func(string) string { return "" }})
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "work")
	h.run(1500 * time.Millisecond) // alice answered at 1 s; started would take 10 s of quiet
	if st, _ := h.r.Pane(1); st.Started {
		t.Fatal("alice counts as started already: the test needs her not to")
	}
	h.handle(TurnEnd{Pane: 1, Text: "the exact answer", Source: "test hook"})
	h.run(30 * time.Second)
	if len(bob.inputs) == 0 || bob.inputs[0] != "alice (1):\n\nthe exact answer" {
		t.Errorf("bob got %q, want the hook's text", bob.inputs)
	}
}

// Gemini CLI runs its AfterAgent hook while it still shows itself busy, a status row
// ("Executing Hook: …") under the answer, and redraws that row (half overwritten by
// its footer) and its title once the hook has reported the turn's end. That tail of
// the turn is no new turn: nothing more goes, and the next turn is whole.
func TestTheScreenAfterTheHooksTurnEndIsNoNewTurn(t *testing.T) {
	h, alice, bob := hookedPair(t)
	h.run(4*time.Second + 100*time.Millisecond) // alice answered at 4 s
	alice.busy = true
	alice.print("⠏ Executing Hook: agentmux hook after-agent")
	h.run(4*time.Second + 200*time.Millisecond)
	h.handle(TurnEnd{Pane: 1, Text: "alice reply 1", Source: "test AfterAgent hook"})
	h.run(4*time.Second + 300*time.Millisecond)
	alice.lines[len(alice.lines)-1] = "? for shortcutsk: agentmux hook after-agent"
	h.output(1)
	h.run(4*time.Second + 400*time.Millisecond)
	alice.lines[len(alice.lines)-1] = "  Executing Hook: agentmux hook after-agent     ? for shortcuts"
	h.output(1)
	h.run(4*time.Second + 500*time.Millisecond)
	alice.lines = alice.lines[:len(alice.lines)-1]
	alice.busy = false
	h.output(1)
	h.run(10 * time.Second)
	if want := []string{"alice (1):\n\nalice reply 1"}; strings.Join(bob.inputs, "|") != strings.Join(want, "|") {
		t.Errorf("bob got %q, want %q once", bob.inputs, want)
	}
	h.person(1, "more") // answered at 12 s; its hook says so at once
	h.run(12*time.Second + 100*time.Millisecond)
	h.handle(TurnEnd{Pane: 1, Text: "alice reply 2", Source: "test AfterAgent hook"})
	h.run(time.Minute)
	want := []string{"alice (1):\n\nalice reply 1", "alice (1):\n\nalice reply 2"}
	if strings.Join(bob.inputs, "|") != strings.Join(want, "|") {
		t.Errorf("bob got %q, want %q", bob.inputs, want)
	}
}

// A turn a hooked program takes by itself (nothing typed into it since its last turn's
// hook) is drawn while the relay takes the screen as the last turn's tail: its hook's
// text still goes, once.
func TestATurnOfItsOwnAfterAHookedTurnGoesByItsHook(t *testing.T) {
	h, alice, bob := hookedPair(t)
	h.run(4*time.Second + 100*time.Millisecond)
	h.handle(TurnEnd{Pane: 1, Text: "alice reply 1", Source: "test hook"})
	h.run(10 * time.Second)
	alice.busy = true
	alice.print("● a background task finished: all green")
	alice.busy = false
	h.output(1)
	h.run(11 * time.Second)
	if len(bob.inputs) != 1 {
		t.Fatalf("bob got %q before alice's hook said her own turn ended", bob.inputs)
	}
	h.handle(TurnEnd{Pane: 1, Text: "a background task finished: all green", Source: "test hook"})
	h.run(time.Minute)
	want := []string{"alice (1):\n\nalice reply 1", "alice (1):\n\na background task finished: all green"}
	if strings.Join(bob.inputs, "|") != strings.Join(want, "|") {
		t.Errorf("bob got %q, want %q", bob.inputs, want)
	}
}

// A program with hooks that draws its screen again while idle, with nothing typed into it
// and never busy (Gemini CLI redrawing its banner), took no turn: what it drew is not
// relayed.
func TestARedrawWithNoTurnIsNotRelayed(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, hooks: true, lines: []string{"Alice CLI v1"}})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.handle(LinkAll{Panes: []int{1, 2}})
	h.run(5 * time.Second)
	alice.lines = append(alice.lines, "Tips for getting started", "1. Ask coding questions")
	h.output(1)
	h.run(time.Minute)
	if len(bob.inputs) != 0 {
		t.Fatalf("bob got %q: alice's redraw was relayed as a turn", bob.inputs)
	}
	if !containsNote(h.notes(), "1 alice drew its screen again with no turn under way: nothing relayed") {
		t.Errorf("notes %q", h.notes())
	}
}

// A program that answers at once may run its Stop hook before the relay saw it take the
// delivery (its echo and answer drawn while what was typed was still unread, or not yet
// read by the session): the hook ends the turn the delivery started, with its text, and
// the delivery counts as taken. The hook's text used to be dropped there, and the turn
// was read from the screen later, with the message's echo and older rows in it.
func TestHookWhileTheDeliveryIsUnconfirmed(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, hooks: true, deaf: true})
	h.run(2 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "work")
	var submitted bool
	for i := 1; i <= 200 && !submitted; i++ {
		h.run(2*time.Second + time.Duration(i)*100*time.Millisecond)
		submitted = len(h.submits) > 0 && h.submits[len(h.submits)-1].to == 2
	}
	if !submitted {
		t.Fatal("nothing submitted into bob")
	}
	h.handle(TurnEnd{Pane: 2, Text: "bob's exact answer", Source: "test Stop hook"})
	h.run(h.now.Sub(t0) + 10*time.Second)
	if want := "bob (2):\n\nbob's exact answer"; len(alice.inputs) < 2 || alice.inputs[1] != want {
		t.Fatalf("alice got %q, want %q", alice.inputs, want)
	}
	for _, e := range h.r.Log() {
		if e.To == 2 && e.Delivery > 0 {
			if e.Phase != Confirmed {
				t.Errorf("the delivery into bob is %v, want confirmed: its hook says it took it", e.Phase)
			}
			break // the next one goes into bob, deaf, and fails
		}
	}
	if len(bob.inputs) != 0 {
		t.Errorf("bob took %q: the test needs its Enter unseen", bob.inputs)
	}
}

// A program with hooks that shows a delivery as queued, idle, before it takes it up
// (Gemini CLI while its tools still start, seconds under load) has not begun the turn:
// that screen is no answer after HookWait. The turn goes once its hook says it ended,
// with the hook's text. It used to go HookWait after the queued row, the row relayed
// as the answer (and a turn of the link's budget spent on it). The delivery is
// delivered once its input shows it no more: it used to get a second carriage return
// and be marked failed, never having made the program busy.
func TestAQueuedDeliveryWaitsForTheHook(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, hooks: true, reply: counter("bob"), queued: 10 * time.Second})
	h.run(2 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "work")
	h.run(14 * time.Second) // alice's turn went at about 4.5 s; bob shows it queued for 10 s
	if len(bob.inputs) != 0 {
		t.Fatalf("bob took %q before 14 s: the test needs it queued", bob.inputs)
	}
	if len(alice.inputs) != 1 {
		t.Fatalf("alice got %q while bob's delivery was queued, want only the person's", alice.inputs[1:])
	}
	// He took it out of his input into his queue: delivered, with one carriage return.
	for _, e := range h.r.Log() {
		if e.To == 2 && e.Delivery > 0 && e.Phase != Confirmed {
			t.Errorf("the delivery bob queued is %v (%q), want confirmed", e.Phase, e.Note)
		}
	}
	if n := len(h.submits); n != 1 {
		t.Errorf("%d carriage returns into bob, want 1", n)
	}
	answered := false // bob took it at about 14.5 s and answers 2 s later: its hook then
	for i := 1; i <= 100 && !answered; i++ {
		h.run(14*time.Second + time.Duration(i)*100*time.Millisecond)
		answered = len(bob.inputs) == 1 && !bob.busy
	}
	if !answered {
		t.Fatalf("bob never answered (it took %q)", bob.inputs)
	}
	h.handle(TurnEnd{Pane: 2, Text: "bob's exact answer", Source: "test hook"})
	h.run(h.now.Sub(t0) + 5*time.Second)
	if want := "bob (2):\n\nbob's exact answer"; len(alice.inputs) < 2 || alice.inputs[1] != want {
		t.Errorf("alice got %q, want the person's then %q", alice.inputs, want)
	}
}

// A program whose hook says its turn ended while its screen still says it works
// (Gemini CLI draws "Executing Hook" and its spinner while its AfterAgent hook runs)
// is not typed into until its screen says idle: keys typed then were lost (the held
// delivery after an approval never reached Gemini's model). It used to count as idle
// the moment its hook spoke.
func TestNothingIsTypedIntoABusyScreenAfterItsHook(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, hooks: true})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.run(2 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "work") // alice works on it; her hook will say when her turn ends
	h.run(4 * time.Second)
	h.handle(TurnEnd{Pane: 1, Text: "alice's answer", Source: "test hook"})
	// Her screen says busy, its spinner turning, until 10 s; bob answers meanwhile.
	for at := 4*time.Second + 250*time.Millisecond; at < 10*time.Second; at += 250 * time.Millisecond {
		alice.pending = append(alice.pending, simEvent{at: t0.Add(at), fn: func() { h.output(1) }})
	}
	alice.pending = append(alice.pending, simEvent{at: t0.Add(10 * time.Second), fn: func() { alice.busy = false; h.output(1) }})
	h.run(20 * time.Second)
	var toAlice []typedRec
	for _, x := range h.typed {
		if x.to == 1 {
			toAlice = append(toAlice, x)
		}
	}
	if len(toAlice) != 1 || toAlice[0].at.Before(t0.Add(10*time.Second)) || !strings.Contains(toAlice[0].text, "bob reply 1") {
		for _, x := range toAlice {
			t.Logf("typed into alice at %v: %q", x.at.Sub(t0), x.text)
		}
		t.Fatalf("want bob's answer typed into alice once, once her screen said idle at 10 s")
	}
}
