package relay_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/demo"
	"github.com/agentmux/agentmux/relay"
)

// draft is what a person typed into pane id and left there, as the ui reports it.
func (s *sim) draft(id int, text string) {
	p := s.panes[id-1]
	typed := ""
	for _, r := range text {
		typed += string(r)
		s.apply(s.r.Handle(relay.Keystroke{Pane: id, Draft: true, Text: typed}, s.now))
		s.input(p, []byte(string(r)))
	}
}

// shownDraft returns the draft in a bot's input: the bot's own, or for the line style
// its terminal's line.
func shownDraft(p *simPane) string {
	if p.style == demo.Line {
		return string(p.line)
	}
	return p.bot.Draft()
}

// draftBehindDelivery links alice (a line-mode REPL) with bob (configured by the style and
// input quirks of b), leaves a person's draft in bob's input three seconds in, starts the
// conversation in alice's pane and runs for wait.
func draftBehindDelivery(t *testing.T, b demo.Config, wait time.Duration) *sim {
	t.Helper()
	b.Reply, b.Name, b.Seed, b.Cols, b.Rows, b.Think, b.Pace = "corpus", "bob", 4, 90, 20, 200*time.Millisecond, 30*time.Millisecond
	alice := demo.Config{Reply: "corpus", Name: "alice", Style: demo.Line, Seed: 3, Cols: 90, Rows: 20, Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
	s := newSim(t, relay.Config{Turns: 2}, nil, alice, b)
	s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
	s.run(3 * time.Second)
	s.now = later(s.now, start.Add(3*time.Second))
	s.draft(2, "my half-typed thought")
	s.person(1, "hello there")
	s.run(wait)
	return s
}

// A person's draft left in the receiving program's input, in every screen style (an
// input box with the cursor parked under it, a full-screen program that clears its
// screen, a REPL's line), is found, set aside once stale, and put back after the answer
// to the delivery that waited behind it: the delivery and the answer are exact, and the
// draft is in the input again, whole.
func TestStaleDraftSetAsideInEveryStyle(t *testing.T) {
	for _, st := range chatStyles {
		t.Run(st.String(), func(t *testing.T) {
			s := draftBehindDelivery(t, demo.Config{Style: st}, 10*time.Minute)
			alice, bob := s.panes[0], s.panes[1]
			log := s.logText()
			if len(bob.bot.Inputs()) != 1 || len(alice.bot.Replies()) == 0 {
				t.Fatalf("bob received %q, alice answered %q\nlog:\n%s\nbob's screen:\n%s", bob.bot.Inputs(), alice.bot.Replies(),
					log, strings.Join(bob.term.ScreenText(), "\n"))
			}
			want := fmt.Sprintf("alice (1):\n\n%s", alice.bot.Replies()[0])
			if st == demo.Line {
				want = strings.ReplaceAll(want, "\n", " ") // no bracketed paste: one line
			}
			if bob.bot.Inputs()[0] != want {
				t.Fatalf("bob received %q, want %q\nlog:\n%s", bob.bot.Inputs()[0], want, log)
			}
			if got := shownDraft(bob); got != "my half-typed thought" {
				t.Fatalf("bob's draft is %q after the delivery, want it put back\nlog:\n%s\nscreen:\n%s", got, log,
					strings.Join(bob.term.ScreenText(), "\n"))
			}
			if !strings.Contains(log, "was kept aside for 1 message and put back") {
				t.Fatalf("the log does not say the draft was put back:\n%s", log)
			}
		})
	}
}

// An urgent message into a program busy with an answer, in every style that takes
// Escape: the program is interrupted once, and the message is typed once it is ready
// again and answered; it is never marked failed.
func TestUrgentAfterInterruptInEveryStyle(t *testing.T) {
	for _, st := range chatStyles[1:] {
		t.Run(st.String(), func(t *testing.T) {
			cfg := demo.Config{Reply: "corpus", Name: "bob", Style: st, Seed: 5, Cols: 90, Rows: 20, Think: 20 * time.Second, Pace: 30 * time.Millisecond}
			s := newSim(t, relay.Config{}, nil, cfg)
			s.run(3 * time.Second)
			s.now = later(s.now, start.Add(3*time.Second))
			s.person(1, "hello there")
			s.run(5 * time.Second)
			bob := s.panes[0]
			if !bob.bot.Busy() {
				t.Fatal("bob should be busy with the person's message")
			}
			_, acts, err := s.r.Message(relay.Send{FromName: "cli", To: 1, Text: "stop and read this", Options: relay.Options{Mode: relay.Urgent}}, s.now)
			if err != nil {
				t.Fatal(err)
			}
			s.apply(acts)
			s.run(10 * time.Minute)
			log := s.logText()
			if bob.bot.Interrupted() != 1 {
				t.Fatalf("bob was interrupted %d times, want 1\nlog:\n%s", bob.bot.Interrupted(), log)
			}
			in := bob.bot.Inputs()
			if len(in) != 2 || in[1] != "cli:\n\nstop and read this" {
				t.Fatalf("bob received %q, want the urgent message second\nlog:\n%s\nscreen:\n%s", in, log, strings.Join(bob.term.ScreenText(), "\n"))
			}
			if strings.Contains(log, "failed") || !strings.Contains(log, "confirmed") {
				t.Fatalf("the urgent message should be confirmed, never failed:\n%s", log)
			}
		})
	}
}

// A draft in an input the profile cannot read (no echo prefix opens its row, the cursor
// is parked elsewhere) is still found: the relay saw every key of it, and the screen
// shows it in the box. It is set aside and put back.
func TestStaleDraftInAnUnknownInput(t *testing.T) {
	s := draftBehindDelivery(t, demo.Config{Style: demo.Boxed, Label: "Message: "}, 10*time.Minute)
	bob := s.panes[1]
	if len(bob.bot.Inputs()) != 1 || bob.bot.Draft() != "my half-typed thought" || !strings.Contains(s.logText(), "put back") {
		t.Fatalf("bob received %q, draft %q\nlog:\n%s", bob.bot.Inputs(), bob.bot.Draft(), s.logText())
	}
}

// A draft the screen does not show (a masked field) cannot be set aside as others are:
// the relay says so, on the status line and in its log, once; the delivery waits, and
// goes in as soon as the person sends their draft (within twice the stale time).
func TestUnreadableDraftSaysSo(t *testing.T) {
	s := draftBehindDelivery(t, demo.Config{Style: demo.Boxed, Masked: true}, 3*time.Minute)
	bob := s.panes[1]
	const says = "your draft in 2 bob is not on its screen where agentmux can find it: 1 waiting go in once you send or clear it, or after 2m0s more with it untouched"
	if len(bob.bot.Inputs()) != 0 || strings.Count(s.logText(), says) != 1 {
		t.Fatalf("bob received %q; want nothing yet and the log saying why once\nlog:\n%s", bob.bot.Inputs(), s.logText())
	}
	s.apply(s.r.Handle(relay.Sent{Pane: 2, Text: "my half-typed thought"}, s.now))
	s.input(bob, []byte{'\r'})
	s.run(10 * time.Minute)
	if in := bob.bot.Inputs(); len(in) != 2 || in[0] != "my half-typed thought" || !strings.HasPrefix(in[1], "alice (1):") {
		t.Fatalf("bob received %q; want the draft sent by the person, then the delivery\nlog:\n%s", in, s.logText())
	}
}

// An urgent message into a program whose input line does not clear (its draft stays)
// is never marked failed: it waits, saying why, and goes in once the person sent their
// draft.
func TestUrgentIntoAnInputThatDoesNotClear(t *testing.T) {
	cfg := demo.Config{Reply: "corpus", Name: "bob", Style: demo.Boxed, IgnoreKill: true, Seed: 5, Cols: 90, Rows: 20, Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
	s := newSim(t, relay.Config{}, nil, cfg)
	s.run(3 * time.Second)
	s.now = later(s.now, start.Add(3*time.Second))
	s.draft(1, "my draft")
	s.now = s.now.Add(10 * time.Second) // not being typed: set aside at once for an urgent message
	_, acts, err := s.r.Message(relay.Send{FromName: "cli", To: 1, Text: "stop and read this", Options: relay.Options{Mode: relay.Urgent}}, s.now)
	if err != nil {
		t.Fatal(err)
	}
	s.apply(acts)
	s.run(time.Minute)
	bob := s.panes[0]
	log := s.logText()
	if len(bob.bot.Inputs()) != 0 || strings.Contains(log, "failed") || !strings.Contains(log, "did not clear") {
		t.Fatalf("bob received %q; want nothing yet, the message waiting and the log saying why\nlog:\n%s", bob.bot.Inputs(), log)
	}
	s.apply(s.r.Handle(relay.Sent{Pane: 1, Text: "my draft"}, s.now))
	s.input(bob, []byte{'\r'})
	s.run(10 * time.Minute)
	if in := bob.bot.Inputs(); len(in) != 2 || in[1] != "cli:\n\nstop and read this" || strings.Contains(s.logText(), "failed") {
		t.Fatalf("bob received %q; want the draft, then the message\nlog:\n%s", in, s.logText())
	}
}

// A draft the screen does not show, left untouched for twice the stale time, no longer
// holds the delivery for ever: it is cleared with the input's keys (the screen's input
// rows change), the delivery goes in exactly, and the draft is typed back after the
// answer, whole.
func TestUnreadableDraftClearedWhenStill(t *testing.T) {
	s := draftBehindDelivery(t, demo.Config{Style: demo.Boxed, Masked: true}, 10*time.Minute)
	alice, bob := s.panes[0], s.panes[1]
	log := s.logText()
	if in := bob.bot.Inputs(); len(in) != 1 || in[0] != "alice (1):\n\n"+alice.bot.Replies()[0] {
		t.Fatalf("bob received %q; want alice's answer alone, exactly\nlog:\n%s", in, log)
	}
	if bob.bot.Draft() != "my half-typed thought" || !strings.Contains(log, "cleared with its keys") || !strings.Contains(log, "put back") {
		t.Fatalf("bob's draft %q; want it put back, the log saying so\nlog:\n%s", bob.bot.Draft(), log)
	}
}

// An unseen draft in an input that does not clear stays: the screen does not change
// after the clear keys, so nothing is typed over it; the log says so, nothing fails,
// and the message that waited behind it, for twice the stale time by then, ends
// expired, saying why: it does not wait for ever.
func TestUnreadableDraftThatDoesNotClear(t *testing.T) {
	s := draftBehindDelivery(t, demo.Config{Style: demo.Boxed, Masked: true, IgnoreKill: true}, 10*time.Minute)
	bob := s.panes[1]
	log := s.logText()
	if len(bob.bot.Inputs()) != 0 || bob.bot.Draft() != "my half-typed thought" || strings.Contains(log, "failed") || !strings.Contains(log, "did not clear") {
		t.Fatalf("bob received %q, draft %q; want nothing typed over the draft, the log saying why\nlog:\n%s", bob.bot.Inputs(), bob.bot.Draft(), log)
	}
	if !strings.Contains(log, "expired (your draft in 2 bob could not be read or set aside)") ||
		!strings.Contains(log, "your draft in 2 bob could not be read or set aside: 1 message waiting behind it expired") {
		t.Fatalf("the delivery should end expired, saying why\nlog:\n%s", log)
	}
}

// A known draft the screen does not show where the relay can find it, and that is not
// masked (two characters in an input labelled its own way, the cursor parked under the
// box: too short to find among the rows), no longer holds the delivery for ever: left
// untouched for twice the stale time it is cleared with the input's keys, the delivery
// goes in exactly, and the draft is typed back after the answer, whole.
func TestUnshownDraftClearedBlindWhenStill(t *testing.T) {
	b := demo.Config{Reply: "corpus", Name: "bob", Seed: 4, Cols: 90, Rows: 20, Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond,
		Style: demo.Boxed, Label: "Message: "}
	alice := demo.Config{Reply: "corpus", Name: "alice", Style: demo.Line, Seed: 3, Cols: 90, Rows: 20, Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
	s := newSim(t, relay.Config{Turns: 2}, nil, alice, b)
	s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
	s.run(3 * time.Second)
	s.now = later(s.now, start.Add(3*time.Second))
	s.draft(2, "ok")
	typed := s.now
	s.person(1, "hello there")
	s.run(typed.Sub(start) + 4*time.Minute - time.Second)
	bob := s.panes[1]
	if len(bob.bot.Inputs()) != 0 || !strings.Contains(s.logText(), "your draft in 2 bob is not on its screen where agentmux can find it") {
		t.Fatalf("bob received %q before twice the stale time; want the draft said\nlog:\n%s", bob.bot.Inputs(), s.logText())
	}
	s.run(typed.Sub(start) + 10*time.Minute)
	log := s.logText()
	if in := bob.bot.Inputs(); len(in) != 1 || in[0] != "alice (1):\n\n"+s.panes[0].bot.Replies()[0] {
		t.Fatalf("bob received %q; want alice's answer alone, exactly\nlog:\n%s", in, log)
	}
	if bob.bot.Draft() != "ok" || !strings.Contains(log, "cleared with its keys") || !strings.Contains(log, "put back") {
		t.Fatalf("bob's draft %q; want it put back, the log saying so\nlog:\n%s", bob.bot.Draft(), log)
	}
}

// A draft the screen shows masked in an input box, cleared blind and typed back after
// the answer while the conversation goes on, is then sent by the person: bob's turn is
// his answer alone, never his input box redrawn with the draft put back (its edges, the
// masked row, the hint under it), whatever the draft, the screen's size or when the
// person presses Enter.
func TestMaskedDraftPutBackThenSentRelaysTheAnswerOnly(t *testing.T) {
	for _, tc := range []struct {
		draft      string
		cols, rows int
		wait       time.Duration
	}{
		{"my half-typed thought", 90, 20, 2 * time.Second},
		{"abc", 47, 13, 2 * time.Second},
		{"ok", 60, 9, 500 * time.Millisecond},
	} {
		b := demo.Config{Reply: "corpus", Name: "bob", Style: demo.Boxed, Masked: true, Seed: 4, Cols: tc.cols, Rows: tc.rows,
			Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
		alice := demo.Config{Reply: "corpus", Name: "alice", Style: demo.Line, Seed: 3, Cols: 90, Rows: 20, Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
		s := newSim(t, relay.Config{Turns: 6}, nil, alice, b)
		s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
		s.run(3 * time.Second)
		s.now = later(s.now, start.Add(3*time.Second))
		s.draft(2, tc.draft)
		s.person(1, "hello there")
		for !strings.Contains(s.logText(), "and put back") {
			if s.now.Sub(start) > 10*time.Minute {
				t.Fatalf("%q: the draft was never put back\nlog:\n%s", tc.draft, s.logText())
			}
			s.run(s.now.Sub(start) + time.Second)
			s.now = s.now.Add(time.Second)
		}
		s.run(s.now.Sub(start) + tc.wait) // the box redrawn with the draft put back stands
		s.now = s.now.Add(tc.wait)
		bob := s.panes[1]
		s.apply(s.r.Handle(relay.Sent{Pane: 2, Text: tc.draft}, s.now))
		s.input(bob, []byte{'\r'})
		s.run(s.now.Sub(start) + 10*time.Minute)
		if in := bob.bot.Inputs(); len(in) < 2 || in[1] != tc.draft {
			t.Fatalf("%q: bob received %q; want the delivery, then the draft sent\nlog:\n%s", tc.draft, in, s.logText())
		}
		if text, stray := s.strayTurn(bob, 1); stray {
			t.Fatalf("%q %dx%d: relayed to alice %q, none of bob's answers %q\nlog:\n%s\nbob's screen:\n%s", tc.draft, tc.cols, tc.rows,
				text, bob.bot.Replies(), s.logText(), strings.Join(bob.term.ScreenText(), "\n"))
		}
	}
}

// A person's draft left a while in an input that shows it masked, then sent: the turn
// the Enter starts does not end on the quiet from before the Enter (the program has not
// read it yet, and its box still shows the masked draft); what is relayed is the answer,
// and no turn is noted as having nothing to relay.
func TestMaskedDraftSentAfterAWhileRelaysTheAnswer(t *testing.T) {
	for _, wait := range []time.Duration{2 * time.Second, time.Minute} {
		b := demo.Config{Reply: "corpus", Name: "bob", Style: demo.Boxed, Masked: true, Seed: 4, Cols: 70, Rows: 16,
			Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
		alice := demo.Config{Reply: "corpus", Name: "alice", Style: demo.Line, Seed: 3, Cols: 90, Rows: 20, Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
		s := newSim(t, relay.Config{Turns: 1}, nil, alice, b)
		s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
		s.run(3 * time.Second)
		s.now = later(s.now, start.Add(3*time.Second))
		s.draft(2, "my masked words")
		s.run(s.now.Sub(start) + wait)
		s.now = later(s.now, start.Add(3*time.Second+wait))
		s.apply(s.r.Handle(relay.Sent{Pane: 2, Text: "my masked words"}, s.now))
		s.input(s.panes[1], []byte{'\r'})
		s.run(s.now.Sub(start) + 10*time.Minute)
		bob := s.panes[1]
		if len(s.types) != 1 || len(bob.bot.Replies()) != 1 ||
			s.types[0].Text != strings.ReplaceAll("bob (2):\n\n"+bob.bot.Replies()[0], "\n", " ") {
			t.Fatalf("after %v: relayed %+v; want bob's answer %q alone\nlog:\n%s", wait, s.types, bob.bot.Replies(), s.logText())
		}
		if strings.Contains(s.logText(), "nothing new found") {
			t.Fatalf("after %v: a turn was ended at the Enter, before the program read it\nlog:\n%s", wait, s.logText())
		}
	}
}
