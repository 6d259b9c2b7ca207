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

// A carriage return taken as a new line (Gemini CLI under load takes the Enter after a
// paste so) leaves the delivery in the program's input, and the program then prints
// something else (its banner drawn again), or its screen says busy (the tail of the
// turn before: Gemini CLI runs the hook that ended it while its screen still says it
// works). Neither is a reaction: the carriage return goes again 2.5 s after the first,
// the program takes the delivery and answers, and its answer goes back. Either used to
// confirm the delivery, left in the input unsent: the pane's turn then ended on the
// redraw alone, relayed as its answer, or the delivery never reached the model.
func TestADeliveryLeftInTheInputIsSubmittedAgain(t *testing.T) {
	for name, bob := range map[string]*fakeAgent{
		"a redraw":  {redraw: "Gemini CLI v0.61.0"},
		"busy tail": {busyTail: true},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, Config{Turns: 2})
			alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
			bob.titled, bob.bracketed, bob.reply, bob.newlines = true, true, counter("bob"), 1
			h.agent(2, "bob", bob)
			h.run(2 * time.Second)
			h.handle(Link{Pane: 1, With: 2})
			h.person(1, "work")
			h.run(time.Minute)
			var toBob []typedRec
			for _, s := range h.submits {
				if s.to == 2 {
					toBob = append(toBob, s)
				}
			}
			if len(toBob) != 2 || toBob[1].at.Sub(toBob[0].at) != 2500*time.Millisecond {
				t.Fatalf("carriage returns into bob at %v, want two, 2.5 s apart", toBob)
			}
			if want := "alice (1):\n\nalice reply 1\n"; len(bob.inputs) != 1 || bob.inputs[0] != want {
				t.Errorf("bob took %q, want %q (with the new line)", bob.inputs, want)
			}
			if len(alice.inputs) != 2 || !strings.HasSuffix(alice.inputs[1], "bob reply 1") {
				t.Errorf("alice got %q, want the person's message, then bob's answer", alice.inputs)
			}
		})
	}
}
