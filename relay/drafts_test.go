package relay

// Strategy: fake-clock scenarios (sim_test.go) for the drafts the relay cannot set aside
// as aside.go does (drafts.go): an input the settled screen shows empty gives way; a
// known draft the screen does not show is cleared blind; any other holds the messages
// behind it for twice InputStale at most, then they end expired, the draft untouched.
// Each checks the exact writes into the pane, the phases and the notices, and the
// harness runs the relay only through its own wake-ups (run), so a missed wake-up
// fails as a stall.

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// inputOf returns the resets the relay gave the host for pane id, in order.
func resetsOf(r *Relay, id int) []string {
	var out []string
	for _, in := range r.TakeInputResets() {
		if in.Pane == id {
			out = append(out, in.Text)
		}
	}
	return out
}

// phaseNotes returns the phases of the log's deliveries into pane to, an expired one
// with its note: "expired (why)".
func phaseNotes(h *harness, to int) []string {
	var out []string
	for _, e := range h.r.Log() {
		switch {
		case e.Delivery == 0 || e.To != to:
		case e.Phase == Expired:
			out = append(out, e.Phase.String()+" ("+e.Note+")")
		default:
			out = append(out, e.Phase.String())
		}
	}
	return out
}

// The screen wins over a draft it shows gone: the program emptied its input by itself
// (a key it took as a command, a reply it read without Enter). Once the person's typing
// hold passed and the pane is quiet, the draft is taken as gone, the host told, the log
// says so, and the message waiting behind it goes.
func TestInputShownEmptyDropsTheDraft(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.draft(2, "y")
	typed := h.now
	h.r.TakeInputResets()
	h.handle(Send{FromName: "ops", To: 2, Text: "hi"})
	h.run(typed.Sub(t0) + time.Second)
	bob.draft = "" // the program took the key and emptied its input
	h.output(2)
	h.run(typed.Sub(t0) + h.r.Config().TypingHold - time.Millisecond)
	if len(h.writes[2]) != 0 {
		t.Fatalf("wrote %q into bob while the person's keys still hold it", h.writes[2])
	}
	h.run(typed.Sub(t0) + time.Minute)
	if want := []string{"\x1b[200~ops:\n\nhi\x1b[201~", "\r"}; !reflect.DeepEqual(h.writes[2], want) {
		t.Fatalf("writes to bob %q, want %q\nnotes %q", h.writes[2], want, h.notes())
	}
	if at := h.typed[0].at; !at.Equal(typed.Add(h.r.Config().TypingHold)) {
		t.Errorf("typed %v after the key, want at the end of the typing hold", at.Sub(typed))
	}
	if !containsNote(h.notes(), `the input in 2 bob shows empty: the draft agentmux counted there ("y") is taken as gone`) {
		t.Errorf("notes %q", h.notes())
	}
	if got := resetsOf(h.r, 2); !reflect.DeepEqual(got, []string{""}) {
		t.Errorf("resets for bob %q, want one to an empty input", got)
	}
}

// A turn a pane finished while a draft that is gone held it ends: its answer is relayed.
func TestInputShownEmptyLetsATurnEnd(t *testing.T) {
	h, alice, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.handle(Link{Pane: 1, With: 2})
	h.person(2, "go")
	h.draft(2, "x") // typed while bob works
	h.run(h.now.Sub(t0) + time.Second)
	bob.draft = "" // bob's answer redrew the input, empty
	h.output(2)
	h.run(h.now.Sub(t0) + time.Minute)
	if len(alice.inputs) == 0 || alice.inputs[0] != "bob (2):\n\nbob reply 1" {
		t.Fatalf("alice got %q, want bob's answer\nnotes %q", alice.inputs, h.notes())
	}
}

// Only a settled screen counts: while the program holds a frame half drawn, or has not
// read every key typed, an empty input row is no proof the draft is gone.
func TestInputShownEmptyOnlyWhenSettled(t *testing.T) {
	t.Run("mid-frame", func(t *testing.T) {
		h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
		h.draft(2, "abc")
		h.handle(Send{FromName: "ops", To: 2, Text: "hi"})
		bob.draft, bob.midFrame = "", true
		h.output(2)
		h.run(h.now.Sub(t0) + time.Minute)
		if len(h.writes[2]) != 0 {
			t.Fatalf("wrote %q into bob mid-frame", h.writes[2])
		}
		bob.midFrame = false
		h.output(2)
		h.run(h.now.Sub(t0) + time.Minute)
		if len(h.typed) != 1 {
			t.Fatalf("typed %+v once the frame was whole, want the message", h.typed)
		}
	})
	t.Run("keys unread", func(t *testing.T) {
		r := New(Config{Idle: 100 * time.Millisecond})
		scr := &queueScreen{rows: []string{"ready", "> "}}
		now := t0
		r.Handle(Open{Pane: 1, Name: "rx", Screen: scr}, now)
		r.Handle(Output{Pane: 1}, now)
		now = now.Add(time.Second)
		r.Tick(now)
		for _, d := range []string{"h", "hi"} {
			r.Handle(Keystroke{Pane: 1, Draft: true, Text: d}, now)
			scr.rows[1] = "> " + d
			r.Handle(Output{Pane: 1}, now)
		}
		r.Post(Send{FromName: "ops", To: 1, Text: "m"}, now)
		now = now.Add(time.Second)
		scr.rows[1], scr.unread = "> ", 2 // redrawn, two keys not read yet
		r.Handle(Output{Pane: 1}, now)
		now = now.Add(time.Minute)
		if acts := r.Tick(now); len(acts) != 0 {
			t.Fatalf("wrote %#v with the person's keys unread", acts)
		}
		scr.unread = 0
		if acts := r.Tick(now); len(acts) != 1 {
			t.Fatalf("wrote %#v once every key was read, want the message", acts)
		}
	})
}

// A program no profile knows: its cursor's row showing the prompt the draft followed,
// alone again after it echoed the draft, is its input emptied. One that never echoed
// (a password read) shows the prompt alone with the draft in it: never taken as gone.
func TestInputShownEmptyAtAPrompt(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{prompt: "bot> ", reply: counter("bob")})
	h.draft(2, "ab")
	h.handle(Send{FromName: "ops", To: 2, Text: "hi"})
	bob.draft = ""
	h.output(2)
	h.run(h.now.Sub(t0) + time.Minute)
	if want := []string{"ops:  hi", "\r"}; !reflect.DeepEqual(h.writes[2], want) {
		t.Fatalf("writes to bob %q, want %q\nnotes %q", h.writes[2], want, h.notes())
	}
}

// A known draft on one line the screen does not show and does not contradict (an input
// that echoes nothing): said once at InputStale; left untouched for twice that, cleared
// blind with the clear keys. Here the screen does not change after them, so nothing is
// typed over the draft: the clear is said to have failed and the message, waiting
// behind it for twice InputStale, ends expired, saying why. Before that bound nothing
// expires.
func TestUnechoedDraftClearedBlindOrExpires(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{prompt: "Password: ", noEcho: true, reply: counter("bob")})
	h.draft(2, "hunter2")
	typed := h.now
	h.handle(Send{FromName: "ops", To: 2, Text: "hi"})
	stale := h.r.Config().InputStale
	h.run(typed.Sub(t0) + 2*stale - time.Millisecond)
	if len(h.writes[2]) != 0 || !containsNote(h.notes(), "your draft in 2 bob is not on its screen where agentmux can find it: 1 waiting go in once you send or clear it, or after 2m0s more with it untouched (cleared with its keys, put back after)") {
		t.Fatalf("writes %q, notes %q: want nothing written, the draft said once", h.writes[2], h.notes())
	}
	if got := phaseNotes(h, 2); !reflect.DeepEqual(got, []string{"waiting for the person"}) {
		t.Fatalf("phases %q before the bound", got)
	}
	h.run(typed.Sub(t0) + 30*time.Minute)
	if !reflect.DeepEqual(h.writes[2], []string{"\x15"}) || bob.draft != "" && len(bob.inputs) != 0 {
		t.Fatalf("writes to bob %q, inputs %q: want the clear keys only", h.writes[2], bob.inputs)
	}
	if got := phaseNotes(h, 2); !reflect.DeepEqual(got, []string{"expired (your draft in 2 bob could not be read or set aside)"}) {
		t.Fatalf("phases %q\nnotes %q", got, h.notes())
	}
	if !containsNote(h.notes(), "your draft in 2 bob could not be read or set aside: 1 message waiting behind it expired, untouched for 4m0s") {
		t.Errorf("notes %q", h.notes())
	}
}

// A draft the relay cannot put back (unknown: a key the host cannot follow; on more
// lines; one its screen contradicts) is said once at InputStale, never touched, and
// each message behind it ends expired once the draft stayed untouched for twice
// InputStale since the message came, whatever its mode; the status then shows none
// waiting.
func TestUnreadableDraftExpiresWhatWaits(t *testing.T) {
	for _, tc := range []struct {
		name, says string
		draft      func(h *harness)
		mode       Mode
	}{
		{"unknown", "could not be read (a key agentmux cannot follow was pressed there)", func(h *harness) {
			h.agents[2].draft = "git status"
			h.handle(Keystroke{Pane: 2, Draft: true}) // Up recalled a line the host cannot know
			h.output(2)
		}, Sequential},
		{"unknown, urgent", "could not be read (a key agentmux cannot follow was pressed there)", func(h *harness) {
			h.agents[2].draft = "git status"
			h.handle(Keystroke{Pane: 2, Draft: true})
			h.output(2)
		}, Urgent},
		{"more lines", "has more than one line, which its clear keys do not clear", func(h *harness) {
			h.draft(2, "a")
			h.agents[2].draft += "\nb"
			h.handle(Keystroke{Pane: 2, Draft: true, Text: "a\nb"})
			h.output(2)
		}, Sequential},
		{"contradicted", "is not what its screen shows", func(h *harness) {
			h.draft(2, "abc")
			h.handle(Keystroke{Pane: 2, Draft: true, Text: "abcd"}) // the host lost track
		}, Important},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
			tc.draft(h)
			typed, shown := h.now, bob.draft
			stale := h.r.Config().InputStale
			h.handle(Send{FromName: "ops", To: 2, Text: "first", Options: Options{Mode: tc.mode}})
			h.run(typed.Sub(t0) + 3*time.Minute)
			h.handle(Send{FromName: "ops", To: 2, Text: "second", Options: Options{Mode: tc.mode}}) // its own bound
			h.run(typed.Sub(t0) + 2*stale - time.Millisecond)
			says := "your draft in 2 bob " + tc.says + ": 1 waiting go in once you send or clear it, or end expired after 2m0s more with it untouched"
			if n := strings.Count(strings.Join(h.notes(), "\n"), says); n != 1 {
				t.Fatalf("said %d times, want once: %q\nnotes %q", n, says, h.notes())
			}
			if got := phaseNotes(h, 2); got[0] != "waiting for the person" {
				t.Fatalf("phases %q before the bound", got)
			}
			h.run(typed.Sub(t0) + 2*stale)
			why := "expired (your draft in 2 bob could not be read or set aside)"
			if got := phaseNotes(h, 2); len(got) != 2 || got[0] != why || got[1] == why {
				t.Fatalf("phases %q at the first message's bound", got)
			}
			h.run(typed.Sub(t0) + 3*time.Minute + 2*stale)
			if got := phaseNotes(h, 2); !reflect.DeepEqual(got, []string{why, why}) {
				t.Fatalf("phases %q at the second message's bound", got)
			}
			if len(h.writes[2]) != 0 || bob.draft != shown {
				t.Errorf("writes to bob %q, draft %q: the draft is never touched", h.writes[2], bob.draft)
			}
			if s := h.r.Status().String(); strings.Contains(s, "waiting") {
				t.Errorf("status %q", s)
			}
		})
	}
}

// A key the person types before the bound starts it again: nothing expires while they
// work on their draft, however long.
func TestUnreadableDraftBoundRestartsWithAKey(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	bob.draft = "git status"
	h.handle(Keystroke{Pane: 2, Draft: true})
	h.output(2)
	h.handle(Send{FromName: "ops", To: 2, Text: "hi"})
	h.run(h.now.Sub(t0) + 3*time.Minute)
	bob.draft += "!"
	h.handle(Keystroke{Pane: 2, Draft: true})
	h.output(2)
	again := h.now
	h.run(again.Sub(t0) + 4*time.Minute - time.Millisecond)
	if got := phaseNotes(h, 2); !reflect.DeepEqual(got, []string{"waiting for the person"}) {
		t.Fatalf("phases %q: the key should have started the bound again", got)
	}
	h.run(again.Sub(t0) + 4*time.Minute)
	if got := phaseNotes(h, 2); got[0] != "expired (your draft in 2 bob could not be read or set aside)" {
		t.Fatalf("phases %q", got)
	}
}

// A draft the host does not know, sent (Enter): what the input showed is what was
// typed, so its echo never goes out as part of the turn it starts.
func TestUnknownDraftSentIsNoPartOfTheTurn(t *testing.T) {
	h, alice, bob := twoAgents(t, Config{}, &fakeAgent{prompt: "bot> ", reply: counter("bob")})
	h.run(10 * time.Second) // started: a program with no title waits four times --idle
	h.handle(Link{Pane: 1, With: 2})
	h.draft(2, "g")
	bob.draft = "git status --short" // Up recalled a line
	h.handle(Keystroke{Pane: 2, Draft: true})
	h.output(2)
	h.handle(Sent{Pane: 2})
	bob.enter()
	h.run(h.now.Sub(t0) + time.Minute)
	if len(alice.inputs) == 0 || alice.inputs[0] != "bob (2):\n\nbob reply 1" {
		t.Fatalf("alice got %q, want bob's answer alone\nnotes %q", alice.inputs, h.notes())
	}
}

// A draft taken as gone that comes back (the program only redrew its input: opencode,
// starting on a loaded machine, drew its input empty for a moment) and is sent: the host,
// told the input was empty, sends the Enter with no text, yet what the person typed is
// still no part of the turn it starts: its echo is not relayed.
func TestDraftTakenAsGoneThenSentIsNoPartOfTheTurn(t *testing.T) {
	h, alice, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, echoBare: true, reply: counter("bob")})
	h.handle(Link{Pane: 1, With: 2})
	h.draft(2, "hello from the person")
	typed := h.now
	bob.draft = "" // redrawn empty for a moment
	h.output(2)
	h.run(typed.Sub(t0) + time.Minute)
	if !containsNote(h.notes(), `the input in 2 bob shows empty: the draft agentmux counted there ("hello from the person") is taken as gone`) {
		t.Fatalf("the draft was not taken as gone: notes %q", h.notes())
	}
	bob.draft = "hello from the person" // drawn again: it was there all along
	h.output(2)
	h.handle(Sent{Pane: 2}) // the host's input was reset: no text
	bob.enter()
	h.run(h.now.Sub(t0) + time.Minute)
	if len(alice.inputs) == 0 || alice.inputs[0] != "bob (2):\n\nbob reply 1" {
		t.Fatalf("alice got %q, want bob's answer alone\nnotes %q", alice.inputs, h.notes())
	}
}
