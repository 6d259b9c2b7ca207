package relay

// Strategy: fake-clock scenarios (sim_test.go) for what holds a delivery back: a person's
// draft and recent keys, a hold, a busy or approval-waiting target, a program that has not
// finished starting; and that waiting costs no wake-ups.

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/parser"
)

func TestPersonTypingHolds(t *testing.T) {
	h := newHarness(t, Config{})
	h.agent(1, "alice", &fakeAgent{titled: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true})
	h.run(time.Second)
	h.handle(Link{Pane: 1, With: 2})
	// A person starts a draft in bob; alice's words arrive meanwhile.
	bob.draft = "half a thou"
	h.handle(Keystroke{Pane: 2, Draft: true})
	keyed := h.now
	h.output(2)
	h.person(1, "hi")
	h.run(60 * time.Second)
	if len(h.typed) != 0 {
		t.Fatalf("typed into a pane with a draft: %+v", h.typed)
	}
	if got := h.phases(); !reflect.DeepEqual(got, []string{"1→2 waiting for the person"}) {
		t.Fatalf("phases %q", got)
	}
	// The one wake-up is the draft's stale time: a draft the host does not know is
	// said then, and holds no delivery for ever (drafts_test.go).
	if at, ok := h.r.NextWake(); !ok || !at.Equal(keyed.Add(h.r.Config().InputStale)) {
		t.Errorf("next wake-up %v (%v), want the draft's stale time only", at.Sub(keyed), ok)
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

// A program no profile knows that printed nothing since it started (a read loop with
// no prompt) waits for input: once it stayed quiet for 4×Idle it has started, and what
// waits for it is typed. A program its profile knows (an agent CLI) draws something
// first: one that printed nothing has not started.
func TestASilentProgramStartsOnceQuiet(t *testing.T) {
	for _, known := range []bool{false, true} {
		h := newHarness(t, Config{})
		bot := &fakeAgent{reply: func(s string) string { return "got: " + s }}
		bot.h, bot.id, bot.rows, bot.think = h, 1, 12, time.Second
		h.agents[1] = bot
		prof := parser.Generic()
		if known {
			prof = testProfile()
		}
		h.handle(Open{Pane: 1, Name: "bot", Profile: prof, Screen: fakeScreen{bot}})
		h.handle(Send{FromName: "ops", To: 1, Text: "hi"})
		h.run(4*1500*time.Millisecond - time.Millisecond) // 4×Idle (1.5 s by default) from the start
		if got := h.typedTo(1); len(got) != 0 {
			t.Fatalf("known %v: typed %q before the program was quiet for 4×Idle", known, got)
		}
		h.run(time.Minute)
		got := h.typedTo(1)
		switch {
		case known && len(got) != 0:
			t.Errorf("typed %q into an agent CLI that drew nothing yet", got)
		case !known && (len(got) != 1 || !strings.Contains(got[0], "hi")):
			t.Errorf("typed %q into the silent read loop, want the message", got)
		}
	}
}
