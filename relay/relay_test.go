package relay

// Strategy: fake-clock scenarios on the simulation in sim_test.go. Each test links fake
// agents, starts a conversation the way a person would (typing into one pane), runs the
// clock, and checks exactly what was typed where and when, the log's phases and notices,
// and the status. No sleeps: time only moves through NextWake and scheduled replies.

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/parser"
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
			if len(h.r.Status().Groups) != 0 || !containsNote(h.notes(), "ended: one member left") {
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

func TestPersonTypingHolds(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	// A person starts a draft in bob; alice's words arrive meanwhile.
	bob.draft = "half a thou"
	h.handle(Keystroke{Pane: 2, Draft: true})
	h.output(2)
	h.person(1, "hi")
	h.run(60 * time.Second)
	if len(h.typed) != 0 {
		t.Fatalf("typed into a pane with a draft: %+v", h.typed)
	}
	if got := h.phases(); !reflect.DeepEqual(got, []string{"1→2 waiting for the person"}) {
		t.Fatalf("phases %q", got)
	}
	if _, ok := h.r.NextWake(); ok {
		t.Errorf("a wake-up is pending while only the person can unblock")
	}
	// The person deletes the draft: deliveries wait 3 s after the last keystroke.
	bob.draft = ""
	h.output(2)
	cleared := h.now
	h.handle(Keystroke{Pane: 2, Draft: false})
	h.run(70 * time.Second)
	if len(h.typed) != 1 {
		t.Fatalf("typed %+v", h.typed)
	}
	if d := h.typed[0].at.Sub(cleared); d != 3*time.Second {
		t.Errorf("typed %v after the last keystroke, want 3s", d)
	}
}

func TestHold(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.handle(Hold{Pane: 2, On: true})
	h.person(1, "hi")
	h.run(30 * time.Second)
	if len(h.typed) != 0 || !reflect.DeepEqual(h.phases(), []string{"1→2 held"}) {
		t.Fatalf("typed %+v phases %q", h.typed, h.phases())
	}
	if st, _ := h.r.Pane(2); !st.Held || st.Waiting != 1 {
		t.Errorf("pane status %+v", st)
	}
	released := h.now
	h.handle(Hold{Pane: 2, On: false})
	if len(h.typed) != 1 || !h.typed[0].at.Equal(released) {
		t.Fatalf("not typed on release: %+v", h.typed)
	}
}

func TestMemberNeverIdle(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	bob.busy = true
	h.person(1, "hi")
	for i := 0; i < 50; i++ { // bob keeps printing, forever busy
		h.run(time.Duration(i+2) * time.Second)
		bob.print("still working")
	}
	if len(h.typed) != 0 {
		t.Fatalf("typed into a busy pane: %+v", h.typed)
	}
	if got := h.phases(); !reflect.DeepEqual(got, []string{"1→2 waiting for idle"}) {
		t.Errorf("phases %q", got)
	}
	if st := h.r.Status(); st.Waiting != 1 || st.String() != "1⇄2 1/8 · 1 waiting" {
		t.Errorf("status %+v %q", st, st.String())
	}
	if _, ok := h.r.NextWake(); ok {
		t.Errorf("polling for a busy pane")
	}
}

func TestApprovalBlocks(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	bob.approval = true
	h.output(2)
	if st, _ := h.r.Pane(2); st.State != parser.NeedsApproval {
		t.Fatalf("bob state %v", st.State)
	}
	h.person(1, "hi")
	h.run(30 * time.Second)
	if len(h.typed) != 0 || !reflect.DeepEqual(h.phases(), []string{"1→2 waiting for the person"}) {
		t.Fatalf("typed %+v phases %q", h.typed, h.phases())
	}
	bob.approval = false // the person answered the prompt
	h.output(2)
	h.run(40 * time.Second)
	if len(h.typed) != 1 {
		t.Fatalf("not delivered after the approval: %+v", h.phases())
	}
}

func TestSubmitConfirm(t *testing.T) {
	t.Run("retry then fail", func(t *testing.T) {
		h := newHarness(t, Config{})
		h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
		h.agent(2, "bob", &fakeAgent{titled: true, deaf: true})
		h.run(time.Second)
		h.handle(Link{Pane: 1, With: 2})
		h.person(1, "hi")
		h.run(30 * time.Second)
		if len(h.typed) != 1 || len(h.submits) != 2 {
			t.Fatalf("typed %d, submits %d, want 1 and 2", len(h.typed), len(h.submits))
		}
		if d := h.submits[1].at.Sub(h.submits[0].at); d != 2500*time.Millisecond {
			t.Errorf("second carriage return %v after the first, want 2.5s", d)
		}
		log := h.r.Log()
		last := log[len(log)-1]
		if last.Phase != Failed || !last.Changed.Equal(h.submits[1].at.Add(2500*time.Millisecond)) {
			t.Errorf("last entry %+v", last)
		}
	})
	t.Run("second carriage return works", func(t *testing.T) {
		h := newHarness(t, Config{})
		h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
		bob := h.agent(2, "bob", &fakeAgent{titled: true, deaf: true})
		h.run(time.Second)
		h.handle(Link{Pane: 1, With: 2})
		h.person(1, "hi")
		for len(h.submits) == 0 && h.now.Before(t0.Add(time.Minute)) {
			h.run(h.now.Sub(t0) + 100*time.Millisecond)
		}
		bob.deaf = false // the first return was lost, the second one lands
		h.run(60 * time.Second)
		if len(h.submits) < 2 || len(bob.inputs) != 1 {
			t.Fatalf("submits %d, bob inputs %q", len(h.submits), bob.inputs)
		}
		if got := h.phases()[0]; got != "1→2 confirmed" {
			t.Errorf("phase %q", got)
		}
	})
}

func TestNoFeedbackLoop(t *testing.T) {
	h := newHarness(t, Config{Turns: 20})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	// bob echoes input without a prompt (a cooked terminal) and then parrots it back.
	h.agent(2, "bob", &fakeAgent{titled: true, echoBare: true, reply: func(in string) string { return in }})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "hi")
	h.run(60 * time.Second)
	if len(h.typed) != 1 {
		t.Fatalf("typed %d deliveries, want only alice's: %+v", len(h.typed), h.typed)
	}
	if !containsNote(h.notes(), "repeated what was typed into it") {
		t.Errorf("notes %q", h.notes())
	}
}

func TestNotStartedNotTyped(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	bob := &fakeAgent{titled: true, busy: true}
	h.agent(2, "bob", bob) // still starting up: busy
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "hi")
	h.run(30 * time.Second)
	if st, _ := h.r.Pane(2); st.Started || len(h.typed) != 0 {
		t.Fatalf("typed into a pane that never started: %+v %+v", st, h.typed)
	}
	bob.busy = false
	bob.print("ready")
	h.run(40 * time.Second)
	if len(h.typed) != 1 {
		t.Fatalf("not delivered once started")
	}
}

func TestAltScreenLongAnswer(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, alt: true, rows: 8})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	var want []string
	alice.onSubmit = func(a *fakeAgent, in string) {
		// Stream 30 rows, one frame each, on a screen of 8.
		for i := 0; i < 30; i++ {
			row := "line " + string(rune('A'+i%26)) + strings.Repeat("x", i)
			want = append(want, row)
			prefix := "  "
			if i == 0 {
				prefix = "● "
			}
			a.h.now = a.h.now.Add(10 * time.Millisecond)
			a.print(prefix + row)
		}
		a.busy = false
		a.print("")
	}
	h.person(1, "tell me a long story")
	h.run(30 * time.Second)
	if len(h.typed) != 1 {
		t.Fatalf("typed %+v", h.typed)
	}
	if got, w := h.typed[0].text, "alice (1):\n\n"+strings.Join(want, "\n"); got != w {
		t.Errorf("delivery\n%s\nwant\n%s", got, w)
	}
}

func TestLimitAndSanitize(t *testing.T) {
	h := newHarness(t, Config{Limit: 20})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: func(string) string { return "abcdefghij\x07klmnopqrstuvwxyz\tend" }})
	h.agent(2, "bob", &fakeAgent{titled: true}) // no bracketed paste
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "hi")
	h.run(30 * time.Second)
	want := "alice (1):  abcdefghijklmnopqrst  [… cut by agentmux: 20 of 30 characters shown]"
	if len(h.typed) != 1 || h.typed[0].text != want || h.typed[0].bracketed {
		t.Fatalf("typed %+v, want %q unbracketed", h.typed, want)
	}
	if got := h.writes[2][0]; got != want {
		t.Errorf("bytes %q", got)
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
	h.handle(Link{Pane: 3, With: 1}) // 3 moves: its old group ends
	if got := h.r.Status().String(); got != "1⇄2⇄3 0/8" {
		t.Fatalf("status %q", got)
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
}

func TestTypeBytes(t *testing.T) {
	if got := string(Type{Text: "a\nb", Bracketed: true}.Bytes()); got != "\x1b[200~a\nb\x1b[201~" {
		t.Errorf("bracketed %q", got)
	}
	if got := string((Submit{Pane: 3}).Bytes()); got != "\r" {
		t.Errorf("submit %q", got)
	}
	if got := sanitize("x\x1b[201~y\r\nz\x9b\x00\tw \n", true); got != "xy\nz\uFFFD\tw" {
		t.Errorf("sanitize %q", got)
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

func TestMidFrameNotSampled(t *testing.T) {
	h := newHarness(t, Config{})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, alt: true, bracketed: true})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	alice.onSubmit = func(a *fakeAgent, in string) {
		// A frame caught half drawn: garbage rows while synchronized output is on.
		a.midFrame = true
		saved := a.lines
		a.lines = append(append([]string(nil), saved...), "● half-drawn garbage")
		a.h.output(a.id)
		a.lines, a.midFrame = saved, false
		a.answer("the real answer")
	}
	h.person(1, "hi")
	h.run(20 * time.Second)
	if len(h.typed) != 1 || h.typed[0].text != "alice (1):\n\nthe real answer" {
		t.Fatalf("typed %+v", h.typed)
	}
}

func TestQuietLinkedPanesNeedNoWake(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "bob", &fakeAgent{})
	if at, ok := h.r.NextWake(); !ok || !at.Equal(t0.Add(1500*time.Millisecond)) {
		t.Fatalf("start-up wake %v %v, want --idle after opening", at, ok)
	}
	h.run(10 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	if at, ok := h.r.NextWake(); ok {
		t.Fatalf("linked idle panes want a wake-up at %v", at)
	}
	for _, id := range []int{1, 2} {
		if st, _ := h.r.Pane(id); st.State != parser.Idle || !st.Started || st.Group != 1 {
			t.Errorf("pane %d status %+v", id, st)
		}
	}
	if _, ok := h.r.Pane(7); ok {
		t.Errorf("status for a pane never opened")
	}
}

func TestLogAndStatusText(t *testing.T) {
	e := Entry{At: t0, Delivery: 3, From: 1, FromName: "alice", To: 2, ToName: "bob", Size: 12, Words: "hello there", Phase: Failed, Note: "the target never went busy"}
	if got, want := e.String(), `03:04:05  1 alice → 2 bob  12 chars  "hello there"  failed (the target never went busy)`; got != want {
		t.Errorf("entry %q\nwant  %q", got, want)
	}
	if got := (Entry{At: t0, Note: "linked 1⇄2 (0/8 turns)"}).String(); got != "03:04:05  linked 1⇄2 (0/8 turns)" {
		t.Errorf("notice %q", got)
	}
	st := Status{Groups: []GroupStatus{{ID: 1, Members: []int{1, 2}, Used: 3, Budget: 8}, {ID: 2, Members: []int{3, 4, 5}, Budget: 8}}, Waiting: 2}
	if got := st.String(); got != "1⇄2 3/8 · 3⇄4⇄5 0/8 · 2 waiting" {
		t.Errorf("status %q", got)
	}
	for ph, want := range map[Phase]string{Waiting: "waiting for idle", WaitingPerson: "waiting for the person", Held: "held", Typed: "typed", Submitted: "submitted", Confirmed: "confirmed", Failed: "failed", Dropped: "dropped", Phase(99): "phase(99)"} {
		if ph.String() != want {
			t.Errorf("%d: %q, want %q", int(ph), ph.String(), want)
		}
	}
	if Typed.Final() || !Dropped.Final() {
		t.Errorf("Final wrong")
	}
	if got := summary(strings.Repeat("word ", 30)); len([]rune(got)) != firstWords || !strings.HasSuffix(got, "…") {
		t.Errorf("summary %q", got)
	}
}

func TestLogLimit(t *testing.T) {
	h := newHarness(t, Config{LogLimit: 3})
	h.agent(1, "a", &fakeAgent{titled: true})
	for i := 0; i < 10; i++ {
		h.handle(Hold{Pane: 1, On: i%2 == 0})
	}
	if log := h.r.Log(); len(log) != 3 || log[2].Note != "deliveries into 1 a released" {
		t.Errorf("log %+v", log)
	}
}

func TestConfigDefaults(t *testing.T) {
	c := New(Config{Idle: 100 * time.Millisecond}).Config()
	if c.Turns != 8 || c.Settle != 100*time.Millisecond || c.TypingHold != 3*time.Second || c.SubmitDelay != 200*time.Millisecond ||
		c.Confirm != 2500*time.Millisecond || c.Limit != 8000 || c.Template != DefaultTemplate || c.LogLimit != 500 {
		t.Errorf("defaults %+v", c)
	}
}

func TestStartNeedsOutputAndQuiet(t *testing.T) {
	h := newHarness(t, Config{})
	silent := &fakeAgent{titled: true}
	silent.h, silent.id, silent.rows = h, 1, 12
	h.agents[1] = silent
	h.handle(Open{Pane: 1, Name: "silent", Profile: testProfile(), Screen: fakeScreen{silent}})
	untitled := h.agent(2, "untitled", &fakeAgent{}) // the profile reads titles; this one sets none
	h.run(5 * time.Second)
	if st, _ := h.r.Pane(1); st.Started {
		t.Errorf("a program that printed nothing counts as started")
	}
	if st, _ := h.r.Pane(2); st.Started {
		t.Errorf("a program whose idle title never came started after 5s")
	}
	h.run(6 * time.Second)
	if st, _ := h.r.Pane(2); !st.Started {
		t.Errorf("no fallback start after four times --idle of quiet")
	}
	// A banner painted after an idle title restarts the wait: --idle after the last paint.
	late := h.agent(3, "late", &fakeAgent{titled: true})
	h.run(7 * time.Second)
	late.print("banner line 1")
	h.run(8*time.Second + 400*time.Millisecond)
	if st, _ := h.r.Pane(3); st.Started {
		t.Errorf("started 1.4s after the last paint")
	}
	h.run(8*time.Second + 600*time.Millisecond)
	if st, _ := h.r.Pane(3); !st.Started {
		t.Errorf("not started 1.6s after the last paint")
	}
	_ = untitled
}
