package relay

// Strategy: fake-clock scenarios (sim_test.go) for how a delivery is made: typing, the
// submit and its confirmation, the words that go (whole answers from full-screen programs,
// never half-drawn frames, never an echo), the limit and the bytes written.

import (
	"strings"
	"testing"
	"time"
)

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
