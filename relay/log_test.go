package relay

// Strategy: the relay log, status and configuration rendered and checked as text and
// values, independent of any scenario.

import (
	"strings"
	"testing"
	"time"
)

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
