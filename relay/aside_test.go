package relay

// Strategy: fake-clock scenarios (sim_test.go) for a person's draft and the deliveries
// behind it: a stale draft is set aside, what waits goes in one paste and the draft
// comes back as it was, without Enter, once the answer is complete (the exact bytes
// written, in order); the final check lets a key typed at the last moment win; a draft
// the relay cannot verify on the screen, or a screen that does not clear, keeps the
// deliveries waiting and the draft whole. An urgent message does the same at once.

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// staleSetup links alice and bob, types a draft into bob and has alice answer three
// questions while it sits there: three deliveries wait for bob. It returns when the
// draft's last key was typed.
func staleSetup(t *testing.T, bob *fakeAgent) (*harness, *fakeAgent, time.Time) {
	h, _, _ := twoAgents(t, Config{}, bob)
	h.handle(Link{Pane: 1, With: 2})
	h.draft(2, "my draft")
	typed := h.now
	for _, q := range []string{"q1", "q2", "q3"} {
		h.person(1, q)
		h.run(h.now.Sub(t0) + 10*time.Second)
	}
	return h, bob, typed
}

func TestStaleDraftSetAsideAndPutBack(t *testing.T) {
	h, bob, typed := staleSetup(t, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.run(typed.Sub(t0) + 2*time.Minute - time.Millisecond)
	if len(h.writes[2]) != 0 {
		t.Fatalf("wrote %q into bob before the draft was stale", h.writes[2])
	}
	h.run(typed.Sub(t0) + 3*time.Minute) // bob's answer, relayed to alice, brings one more for bob
	batch := "alice (1):\n\nalice reply 1\n\nalice (1):\n\nalice reply 2\n\nalice (1):\n\nalice reply 3"
	want := []string{"\x15", "\x1b[200~" + batch + "\x1b[201~", "\r", "my draft"}
	if got := h.writes[2]; !reflect.DeepEqual(got, want) {
		t.Fatalf("writes to bob %q\nwant            %q", got, want)
	}
	if !reflect.DeepEqual(bob.inputs, []string{batch}) || bob.draft != "my draft" {
		t.Errorf("bob got %q, input row %q: want the batch sent and the draft back unsent", bob.inputs, bob.draft)
	}
	if h.typed[0].at != typed.Add(2*time.Minute) {
		t.Errorf("batch typed %v after the draft's last key, want 2m", h.typed[0].at.Sub(typed))
	}
	if !containsNote(h.notes(), "your draft in 2 bob is kept aside while 3 messages go in; it comes back after the answer") ||
		!containsNote(h.notes(), "your draft in 2 bob was kept aside for 3 messages and put back") {
		t.Errorf("notes %q", h.notes())
	}
	// bob's answer went to alice (turn 4) and hers waits for bob (turn 5) behind the
	// draft; nothing of the draft went anywhere.
	if s := h.r.Status().String(); !strings.Contains(s, "1⇄2 5/8 · 1 waiting") {
		t.Errorf("status %q", s)
	}
	for _, d := range h.typed {
		if strings.Contains(d.text, "my draft") {
			t.Errorf("the draft went into a delivery: %+v", d)
		}
	}
	// The draft is the person's again: nothing more is typed over it for a while.
	if ps, _ := h.r.Pane(2); ps.Aside || !ps.Typing {
		t.Errorf("bob after the put-back: %+v", ps)
	}
}

func TestStaleDraftFinalCheck(t *testing.T) {
	t.Run("a key at the deadline wins", func(t *testing.T) {
		h, _, typed := staleSetup(t, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
		h.run(typed.Sub(t0) + 2*time.Minute - time.Millisecond)
		h.now = typed.Add(2*time.Minute + 5*time.Millisecond)        // the timer is late; the key comes first
		h.handle(Keystroke{Pane: 2, Draft: true, Text: "my draft!"}) // the host reports it as it forwards it,
		h.agents[2].draft += "!"                                     // and the screen shows it after
		h.output(2)
		if len(h.writes[2]) != 0 {
			t.Fatalf("cleared under the person's key: %q", h.writes[2])
		}
		again := h.now
		h.run(again.Sub(t0) + 3*time.Minute)
		if got := h.writes[2]; len(got) != 4 || got[3] != "my draft!" || h.typed[0].at != again.Add(2*time.Minute) {
			t.Errorf("writes %q at %v: want the draft kept aside 2m after the last key, then put back whole", got, h.typed[0].at.Sub(again))
		}
	})
	t.Run("a key after the clear stops the delivery", func(t *testing.T) {
		h, bob, typed := staleSetup(t, &fakeAgent{titled: true, bracketed: true, reply: counter("bob"), clearLag: time.Second})
		h.run(typed.Sub(t0) + 2*time.Minute + 500*time.Millisecond)
		// The key reaches bob after the clear keys: the host's tracker started again
		// from an empty input at the clear (InputReset), and bob shows the key alone.
		h.handle(Keystroke{Pane: 2, Draft: true, Text: "x"})
		h.run(typed.Sub(t0) + 2*time.Minute + 1500*time.Millisecond)
		bob.draft = "x"
		h.output(2)
		h.run(typed.Sub(t0) + 3*time.Minute) // less than the stale time after the key
		if got := h.writes[2]; !reflect.DeepEqual(got, []string{"\x15"}) || len(bob.inputs) != 0 {
			t.Errorf("writes to bob %q, inputs %q: want the clear only", got, bob.inputs)
		}
		if !containsNote(h.notes(), `you typed there since it was cleared; it was not put back over your words: "my draft"`) {
			t.Errorf("notes %q", h.notes())
		}
		if got := h.phases(); got[0] != "1→2 waiting for the person" {
			t.Errorf("phases %q", got)
		}
	})
	t.Run("a screen that does not clear", func(t *testing.T) {
		h, bob, _ := staleSetup(t, &fakeAgent{titled: true, bracketed: true, reply: counter("bob"), noClear: true})
		h.run(30 * time.Minute)
		if got := h.writes[2]; !reflect.DeepEqual(got, []string{"\x15"}) || bob.draft != "my draft" {
			t.Errorf("writes to bob %q, input row %q: want one clear, the draft untouched", got, bob.draft)
		}
		if !containsNote(h.notes(), "the input line in 2 bob did not clear: your draft stays there; messages wait for you") {
			t.Errorf("notes %q", h.notes())
		}
	})
	t.Run("an empty row showing a placeholder", func(t *testing.T) {
		h, bob, _ := staleSetup(t, &fakeAgent{titled: true, bracketed: true, reply: counter("bob"), placeholder: "Ask me anything"})
		h.run(30 * time.Minute)
		if got := h.writes[2]; len(got) < 4 || got[3] != "my draft" || len(bob.inputs) == 0 {
			t.Errorf("writes to bob %q: want the clear, the batch, its submit, the draft back", got)
		}
	})
	t.Run("a clear that leaves part of the draft", func(t *testing.T) {
		h, bob, _ := staleSetup(t, &fakeAgent{titled: true, bracketed: true, reply: counter("bob"), clearKeep: 5})
		h.run(30 * time.Minute)
		if got := h.writes[2]; !reflect.DeepEqual(got, []string{"\x15"}) || bob.draft != "draft" {
			t.Errorf("writes to bob %q, input row %q: want one clear and nothing typed after it", got, bob.draft)
		}
		if !containsNote(h.notes(), `the input line in 2 bob did not clear as expected: your draft was "my draft"; messages wait for you`) {
			t.Errorf("notes %q", h.notes())
		}
	})
	t.Run("a draft the host does not know", func(t *testing.T) {
		h, _, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true})
		h.agents[2].draft = "my draft"
		h.handle(Keystroke{Pane: 2, Draft: true}) // no Text
		h.handle(Send{FromName: "ops", To: 2, Text: "hi"})
		h.run(30 * time.Minute)
		if len(h.writes[2]) != 0 {
			t.Errorf("wrote %q over a draft it does not know", h.writes[2])
		}
	})
	t.Run("a draft the screen does not show", func(t *testing.T) {
		h, _, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true})
		h.draft(2, "abc")
		h.handle(Keystroke{Pane: 2, Draft: true, Text: "abcd"}) // the host lost track (a cursor key)
		h.handle(Send{FromName: "ops", To: 2, Text: "hi"})
		h.run(30 * time.Minute)
		if len(h.writes[2]) != 0 {
			t.Errorf("wrote %q over a draft the screen does not show", h.writes[2])
		}
	})
}

func TestUrgentKeepsDraft(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.draft(2, "half a thought")
	h.run(h.now.Sub(t0) + 10*time.Second)
	h.handle(Send{FromName: "ops", To: 2, Text: "stop", Options: Options{Mode: Urgent}})
	h.run(h.now.Sub(t0) + time.Minute)
	want := []string{"\x15", "\x1b[200~ops:\n\nstop\x1b[201~", "\r", "half a thought"}
	if got := h.writes[2]; !reflect.DeepEqual(got, want) {
		t.Fatalf("writes to bob %q\nwant            %q", got, want)
	}
	if !reflect.DeepEqual(bob.inputs, []string{"ops:\n\nstop"}) || bob.draft != "half a thought" {
		t.Errorf("bob got %q, input row %q", bob.inputs, bob.draft)
	}
	if !containsNote(h.notes(), "your draft in 2 bob was kept aside for 1 message and put back") {
		t.Errorf("notes %q", h.notes())
	}
}

// Clear keys into an input row already empty draw nothing, so the screen cannot say
// when the program read them. What follows them must not come right behind, whatever
// event wakes the relay meanwhile (another pane's output, the target's own hook): a
// program that reads the clear keys and the message at once may take them all as one
// paste and type the keys as text (Claude Code's 32 Ctrl+U). It waits SubmitDelay. A
// draft the keys visibly erase needs no wait (TestUrgentKeepsDraft).
func TestNothingRightBehindClearKeys(t *testing.T) {
	paste := "\x1b[200~ops:\n\nstop\x1b[201~"
	for _, tc := range []struct {
		name string
		then func(h *harness) // right after the clear keys, at the same moment
	}{
		{"another pane prints", func(h *harness) { h.agents[1].print("alice's output") }},
		{"its hook says its turn ended", func(h *harness) { h.handle(TurnEnd{Pane: 2, Source: "test hook"}) }},
		{"the next tick", func(h *harness) { h.apply(h.r.Tick(h.now)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, hooks: true, reply: counter("bob")})
			h.handle(Send{FromName: "ops", To: 2, Text: "stop", Options: Options{Mode: Urgent}})
			sent := h.now
			if got := h.writes[2]; !reflect.DeepEqual(got, []string{"\x15"}) {
				t.Fatalf("writes to bob %q: want the clear keys at once", got)
			}
			tc.then(h) // nothing may follow them into bob now
			if got := h.writes[2]; len(got) != 1 {
				t.Fatalf("writes to bob %q: something came right behind the clear keys", got)
			}
			h.run(h.now.Sub(t0) + 10*time.Second)
			if got, want := h.writes[2], []string{"\x15", paste, "\r"}; !reflect.DeepEqual(got, want) {
				t.Errorf("writes to bob %q\nwant            %q", got, want)
			}
			if len(h.typed) != 1 || h.typed[0].at != sent.Add(h.r.Config().SubmitDelay) {
				t.Errorf("typed %+v: want the message SubmitDelay after the clear keys", h.typed)
			}
		})
	}
}

// A draft the clear keys erase on the screen says the program read them, but only once
// the pane's output after them came in: a screen read before that may show the row
// emptied by something else (or by output the host has not reported yet). Then the
// message waits for that output or SubmitDelay, as for a row that was empty.
func TestClearedDraftCountsWithTheOutputAfterIt(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob"), noClear: true})
	h.draft(2, "half a thought")
	h.run(h.now.Sub(t0) + 10*time.Second)
	h.handle(Send{FromName: "ops", To: 2, Text: "stop", Options: Options{Mode: Urgent}})
	sent := h.now
	bob.draft = "" // the row shows empty; no output from bob reported yet
	h.apply(h.r.Tick(h.now))
	if got := h.writes[2]; !reflect.DeepEqual(got, []string{"\x15"}) {
		t.Fatalf("writes to bob %q: want the clear keys alone until bob's output comes", got)
	}
	h.output(2)
	if got, want := h.writes[2], []string{"\x15", "\x1b[200~ops:\n\nstop\x1b[201~"}; !reflect.DeepEqual(got, want) {
		t.Errorf("writes to bob %q\nwant            %q", got, want)
	}
	if len(h.typed) != 1 || h.typed[0].at != sent {
		t.Errorf("typed %+v: want the message with bob's output, no SubmitDelay", h.typed)
	}
}

// A program no profile knows (a shell's read loop with a "bot> " prompt, python3 -q):
// no echo prefix marks its input row, but the cursor sits on it, after the prompt and
// the draft. Its draft is set aside like an agent CLI's, for an urgent message and
// when stale, and the row counts as cleared when it shows the prompt alone.
func TestDraftAsideInAProgramNoProfileKnows(t *testing.T) {
	for _, tc := range []struct {
		name  string
		send  Options
		after time.Duration // from the draft's last key to the clear keys (urgent: at once)
	}{
		{"urgent", Options{Mode: Urgent}, 10 * time.Second},
		{"stale", Options{}, 2 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _, bob := twoAgents(t, Config{}, &fakeAgent{prompt: "bot> ", reply: counter("bob")})
			h.draft(2, "half a thought")
			typed := h.now
			h.run(typed.Sub(t0) + 10*time.Second)
			h.handle(Send{FromName: "ops", To: 2, Text: "stop", Options: tc.send})
			if tc.send.Mode != Urgent {
				h.run(typed.Sub(t0) + tc.after - time.Millisecond)
				if len(h.writes[2]) != 0 {
					t.Fatalf("wrote %q into bob before the draft was stale", h.writes[2])
				}
			}
			h.run(typed.Sub(t0) + tc.after + time.Minute)
			// No bracketed paste in a read loop: one line, each newline a space.
			want := []string{"\x15", "ops:  stop", "\r", "half a thought"}
			if got := h.writes[2]; !reflect.DeepEqual(got, want) {
				t.Fatalf("writes to bob %q\nwant            %q", got, want)
			}
			if !reflect.DeepEqual(bob.inputs, []string{"ops:  stop"}) || bob.draft != "half a thought" {
				t.Errorf("bob got %q, input row %q", bob.inputs, bob.draft)
			}
			if !containsNote(h.notes(), "your draft in 2 bob was kept aside for 1 message and put back") {
				t.Errorf("notes %q", h.notes())
			}
		})
	}
}

// An urgent message that comes while a person is typing waits for the typing hold, then
// sets the draft aside at once: the relay wakes for that moment, not only when the draft
// goes stale minutes later.
func TestUrgentSetsAsideADraftOnceTheTypingStops(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.draft(2, "half a thought")
	typed := h.now
	h.handle(Send{FromName: "ops", To: 2, Text: "stop", Options: Options{Mode: Urgent}})
	h.run(typed.Sub(t0) + time.Minute)
	want := []string{"\x15", "\x1b[200~ops:\n\nstop\x1b[201~", "\r", "half a thought"}
	if got := h.writes[2]; !reflect.DeepEqual(got, want) {
		t.Fatalf("writes to bob %q\nwant            %q", got, want)
	}
	if len(h.typed) != 1 || h.typed[0].at != typed.Add(h.r.Config().TypingHold) {
		t.Errorf("typed %+v: want the message once the typing hold (%v) passed", h.typed, h.r.Config().TypingHold)
	}
	if bob.draft != "half a thought" {
		t.Errorf("bob's input row %q", bob.draft)
	}
}

func TestMaskedDraft(t *testing.T) {
	rows := func(r ...string) Reading { return Reading{Rows: append(r, "", "")} }
	for _, tc := range []struct {
		rd    Reading
		draft string
		want  bool
	}{
		{rows("banner", "│ > ••••• │", "hint"), "hello", true},
		{rows("│ Password: ***** │"), "hello", true},
		{rows("│ > •••• │"), "hello", false},   // one short: not this draft
		{rows("│ > •••••• │"), "hello", false}, // one long
		{rows("│ > hello │"), "hello", false},  // shown as typed
		{rows("│ > x │"), "my draftx", false},  // the person typed over it
		{Reading{Info: Info{MidFrame: true}, Rows: []string{"> •••••"}}, "hello", false},
	} {
		if got := masked(tc.rd, tc.draft); got != tc.want {
			t.Errorf("masked(%q, %q) = %v, want %v", tc.rd.Rows, tc.draft, got, tc.want)
		}
	}
}

// The person's cursor inside their draft (Left keys): readline's Ctrl+U kills only what
// is before it, so the rest stayed on the line, nothing was typed, and what the clear
// killed was lost. The end key goes first: the whole draft is set aside and comes back.
func TestDraftAsideWithTheCursorInside(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{prompt: ">>> ", reply: counter("bob")})
	h.draft(2, "print('hello world')")
	h.left(2, 8)
	typed := h.now
	h.run(typed.Sub(t0) + 10*time.Second)
	h.handle(Send{FromName: "ops", To: 2, Text: "3+3", Options: Options{Mode: Urgent}})
	h.run(typed.Sub(t0) + time.Minute)
	want := []string{"\x05\x15", "ops:  3+3", "\r", "print('hello world')"}
	if got := h.writes[2]; !reflect.DeepEqual(got, want) {
		t.Fatalf("writes to bob %q\nwant            %q", got, want)
	}
	if !reflect.DeepEqual(bob.inputs, []string{"ops:  3+3"}) || bob.draft != "print('hello world')" {
		t.Errorf("bob got %q, input row %q", bob.inputs, bob.draft)
	}
}
