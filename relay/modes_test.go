package relay

// Strategy: fake-clock scenarios (sim_test.go) for the delivery rules of messages sent
// with options: modes and their order, urgent interrupts, batching and its limits and
// budget, timeouts, notices to the sender and reminders. Each checks the exact texts a
// fake agent receives and when.

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// twoAgents opens alice (1) and bob (2), both started, bob with the given agent.
func twoAgents(t *testing.T, cfg Config, bob *fakeAgent) (*harness, *fakeAgent, *fakeAgent) {
	h := newHarness(t, cfg)
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	h.agent(2, "bob", bob)
	h.run(2 * time.Second)
	return h, alice, bob
}

// at returns the time d after t0.
func at(d time.Duration) time.Time { return t0.Add(d) }

func TestModesOrder(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, think: 20 * time.Second, reply: counter("bob")})
	h.person(2, "work") // bob is busy for 20 s
	h.run(5 * time.Second)
	for _, s := range []Send{
		{FromName: "ops", To: 2, Text: "s1"},
		{FromName: "ops", To: 2, Text: "s2"},
		{FromName: "ops", To: 2, Text: "i1", Options: Options{Mode: Important}},
		{FromName: "ops", To: 2, Text: "i2", Options: Options{Mode: Important}},
	} {
		h.handle(s)
	}
	h.run(2 * time.Minute)
	want := []string{"work", "ops:\n\ni1\n\nops:\n\ni2", "ops:\n\ns1\n\nops:\n\ns2"}
	if !reflect.DeepEqual(bob.inputs, want) {
		t.Errorf("bob got %q\nwant      %q", bob.inputs, want)
	}
	var modes []string
	for _, e := range h.r.Log() {
		if e.Delivery > 0 {
			modes = append(modes, e.Words+" "+e.Mode.String())
		}
	}
	if want := []string{"s1 sequential", "s2 sequential", "i1 important", "i2 important"}; !reflect.DeepEqual(modes, want) {
		t.Errorf("log modes %q", modes)
	}
}

func TestUrgent(t *testing.T) {
	paste := "\x1b[200~ops:\n\nstop and look at the build\x1b[201~"
	for _, tc := range []struct {
		name   string
		agent  fakeAgent
		busy   bool
		writes []string
		typeAt time.Duration // after the message was sent
	}{
		// The clear keys go once it settled (300 ms) or after urgent_delay (500 ms); its
		// empty input row draws nothing when cleared, so the message follows them
		// SubmitDelay (200 ms) later.
		{"busy, interrupt taken: typed once idle", fakeAgent{}, true, []string{"\x1b", "\x15", paste, "\r"}, 500 * time.Millisecond},
		{"busy, interrupt ignored: typed after urgent_delay", fakeAgent{noInterrupt: true}, true, []string{"\x1b", "\x15", paste, "\r"}, 700 * time.Millisecond},
		{"idle: not interrupted", fakeAgent{}, false, []string{"\x15", paste, "\r"}, 200 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.agent
			a.titled, a.bracketed, a.think, a.reply = true, true, time.Minute, counter("bob")
			h, _, bob := twoAgents(t, Config{}, &a)
			if tc.busy {
				h.person(2, "work")
			}
			h.run(10 * time.Second)
			sent := h.now
			h.handle(Send{FromName: "ops", To: 2, Text: "stop and look at the build", Options: Options{Mode: Urgent}})
			h.run(15 * time.Second)
			if got := h.writes[2]; !reflect.DeepEqual(got, tc.writes) {
				t.Errorf("writes to bob %q\nwant            %q", got, tc.writes)
			}
			if len(h.typed) != 1 || h.typed[0].at.Sub(sent) != tc.typeAt {
				t.Fatalf("typed %+v, want once, %v after it was sent", h.typed, tc.typeAt)
			}
			if last := bob.inputs[len(bob.inputs)-1]; last != "ops:\n\nstop and look at the build" {
				t.Errorf("bob's last input %q", last)
			}
		})
	}
}

func TestUrgentWaitsForTheTypingPerson(t *testing.T) {
	h, _, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.draft(2, "half")
	h.handle(Send{FromName: "ops", To: 2, Text: "now", Options: Options{Mode: Urgent}})
	h.run(h.now.Sub(t0) + 2900*time.Millisecond)
	if len(h.writes[2]) != 0 {
		t.Fatalf("wrote %q into bob while the person was typing", h.writes[2])
	}
	h.run(h.now.Sub(t0) + time.Second)
	if got := h.writes[2]; len(got) == 0 || got[0] != "\x15" {
		t.Errorf("writes %q: want the clear once the typing hold passed", got)
	}
}

func TestBatching(t *testing.T) {
	for _, tc := range []struct {
		max, n int
		want   []int // parts per paste
	}{
		{0, 12, []int{10, 2}}, // max_batch defaults to 10
		{3, 5, []int{3, 2}},
		{1, 2, []int{1, 1}},
	} {
		h, _, bob := twoAgents(t, Config{Turns: 20, Delivery: Delivery{MaxBatch: tc.max}}, // ops's budget: 20 messages
			&fakeAgent{titled: true, bracketed: true, think: 10 * time.Second, reply: func(string) string { return "ok" }})
		h.person(2, "work")
		h.run(5 * time.Second)
		var all []string
		for i := range tc.n {
			text := "m" + string(rune('a'+i))
			all = append(all, "ops:\n\n"+text)
			h.handle(Send{FromName: "ops", To: 2, Text: text})
		}
		h.run(5 * time.Minute)
		var want []string
		for _, k := range tc.want {
			want = append(want, strings.Join(all[:k], "\n\n"))
			all = all[k:]
		}
		if got := bob.inputs[1:]; !reflect.DeepEqual(got, want) {
			t.Errorf("max %d, %d messages: pastes %q\nwant %q", tc.max, tc.n, got, want)
		}
	}
}

func TestBatchSpendsATurnPerPart(t *testing.T) {
	h, _, bob := twoAgents(t, Config{Turns: 8}, &fakeAgent{titled: true, bracketed: true, think: 10 * time.Second, reply: func(string) string { return "" }})
	h.handle(Link{Pane: 1, With: 2})
	h.person(2, "work")
	h.run(5 * time.Second)
	for _, w := range []string{"one", "two", "three"} {
		h.handle(Send{From: 1, To: 2, Text: w})
	}
	h.run(time.Minute)
	if want := []string{"work", "alice (1):\n\none\n\nalice (1):\n\ntwo\n\nalice (1):\n\nthree"}; !reflect.DeepEqual(bob.inputs, want) {
		t.Fatalf("bob got %q", bob.inputs)
	}
	if len(h.typed) != 1 || !reflect.DeepEqual(h.typed[0].parts, []int{1, 2, 3}) {
		t.Errorf("typed %+v: want one paste of deliveries 1, 2, 3", h.typed)
	}
	if s := h.r.Status().String(); !strings.Contains(s, "1⇄2 3/8") {
		t.Errorf("status %q: want 3 turns spent", s)
	}
}

func TestTimeout(t *testing.T) {
	h, _, bob := twoAgents(t, Config{Delivery: Delivery{DefaultTimeout: 20 * time.Second}},
		&fakeAgent{titled: true, bracketed: true, think: 30 * time.Second, reply: func(string) string { return "ok" }})
	h.person(2, "work") // busy until 32 s
	h.run(4 * time.Second)
	h.handle(Send{FromName: "ops", To: 2, Text: "late", Options: Options{Timeout: 10 * time.Second}}) // by 14 s
	h.handle(Send{FromName: "ops", To: 2, Text: "default"})                                           // by 24 s
	h.handle(Send{FromName: "ops", To: 2, Text: "patient", Options: Options{Timeout: time.Hour}})
	h.run(14*time.Second - time.Millisecond)
	if got := h.phases(); !slices.Equal(got, []string{"0→2 waiting for idle", "0→2 waiting for idle", "0→2 waiting for idle"}) {
		t.Fatalf("phases before the timeout %q", got)
	}
	h.run(2 * time.Minute)
	if got, want := bob.inputs, []string{"work", "ops:\n\npatient"}; !reflect.DeepEqual(got, want) {
		t.Errorf("bob got %q, want %q", got, want)
	}
	log := h.r.Log()
	var expired []string
	for _, e := range log {
		if e.Phase == Expired && e.Delivery > 0 {
			expired = append(expired, e.Words+"@"+e.Changed.Sub(t0).String())
		}
	}
	if want := []string{"late@14s", "default@24s"}; !reflect.DeepEqual(expired, want) {
		t.Errorf("expired %q, want %q", expired, want)
	}
}

func TestNotifySender(t *testing.T) {
	const words = "please review the parser tests and tell me what breaks"
	const first = `"please review the parser tests and tell…"`
	h, alice, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: func(string) string { return "" }})
	h.handle(Link{Pane: 1, With: 2})
	h.handle(Send{From: 1, To: 2, Text: words, Options: Options{NotifyOnDelivery: true, NotifyAfter: 5 * time.Minute}})
	h.run(time.Minute)
	delivered := "[agentmux] delivered to bob (2): " + first
	if !reflect.DeepEqual(alice.inputs, []string{delivered}) {
		t.Fatalf("alice got %q, want %q", alice.inputs, delivered)
	}
	confirmed := h.submits[0].at
	h.run(10 * time.Minute)
	reminder := "[agentmux] reminder: your message to bob (2) " + first + " was delivered 5m0s ago; to see what bob did: agentmux capture bob"
	if !reflect.DeepEqual(alice.inputs, []string{delivered, reminder}) {
		t.Fatalf("alice got %q", alice.inputs)
	}
	for _, d := range h.typed {
		if d.text == reminder && d.at.Before(confirmed.Add(5*time.Minute)) {
			t.Errorf("reminder typed at %v, before 5 min after the delivery (%v)", d.at.Sub(t0), confirmed.Sub(t0))
		}
	}
	// alice's answer to the delivery notice is not relayed; her answer to the reminder is.
	if want := []string{"alice (1):\n\n" + words, "alice (1):\n\nalice reply 2"}; !reflect.DeepEqual(bob.inputs, want) {
		t.Errorf("bob got %q\nwant    %q", bob.inputs, want)
	}
}

func TestNotifyMail(t *testing.T) {
	h, _, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	id, acts := h.r.Post(Send{FromName: "ops", To: 2, Text: "hello", Options: Options{NotifyOnDelivery: true, NotifyAfter: time.Minute}}, h.now)
	h.apply(acts)
	h.run(30 * time.Second)
	m := h.r.TakeMail()
	if len(m) != 1 || m[0].To != "ops" || m[0].Delivery != id || m[0].Text != `[agentmux] delivered to bob (2): "hello"` {
		t.Fatalf("mail %+v", m)
	}
	if len(h.r.TakeMail()) != 0 {
		t.Error("mail taken twice")
	}
	h.run(2 * time.Minute)
	if m := h.r.TakeMail(); len(m) != 1 || !strings.HasPrefix(m[0].Text, "[agentmux] reminder: your message to bob (2)") {
		t.Errorf("mail after a minute %+v", m)
	}
	if id, _ := h.r.Post(Send{FromName: "ops", To: 9, Text: "x"}, h.now); id != 0 {
		t.Errorf("a message to no pane got delivery %d", id)
	}
}

func TestRemind(t *testing.T) {
	h, alice, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true})
	h.handle(Remind{Pane: 1, Text: "check the build", After: 10 * time.Minute})
	h.run(10*time.Minute + 2*time.Second - time.Millisecond)
	if len(alice.inputs) != 0 {
		t.Fatalf("reminded early: %q", alice.inputs)
	}
	h.run(11 * time.Minute)
	if want := []string{"[agentmux] reminder: check the build"}; !reflect.DeepEqual(alice.inputs, want) {
		t.Errorf("alice got %q", alice.inputs)
	}
	if h.typed[0].at != at(10*time.Minute+2*time.Second) {
		t.Errorf("typed at %v", h.typed[0].at.Sub(t0))
	}
}

func TestUrgentInterruptsAgainForANewMessage(t *testing.T) {
	h, _, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, think: time.Hour, reply: counter("bob"), noInterrupt: true})
	h.person(2, "work")
	h.run(10 * time.Second)
	h.handle(Send{FromName: "ops", To: 2, Text: "first", Options: Options{Mode: Urgent, Timeout: 100 * time.Millisecond}})
	h.run(20 * time.Second) // expired before urgent_delay passed
	h.handle(Send{FromName: "ops", To: 2, Text: "second", Options: Options{Mode: Urgent}})
	sent := h.now
	h.run(30 * time.Second)
	want := []string{"\x1b", "\x1b", "\x15", "\x1b[200~ops:\n\nsecond\x1b[201~", "\r"}
	if got := h.writes[2]; !reflect.DeepEqual(got, want) {
		t.Errorf("writes to bob %q\nwant            %q", got, want)
	}
	if len(h.typed) != 1 || h.typed[0].at != sent.Add(700*time.Millisecond) {
		t.Errorf("typed %+v: want the second message 700ms after it was sent (urgent_delay, then SubmitDelay after the clear)", h.typed)
	}
}

// A message that replaces an interrupted one gone before urgent_delay passed rides on
// the same interrupt: no second Escape right behind the first.
func TestUrgentReplacingAGoneOneInterruptsOnce(t *testing.T) {
	h, _, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, think: time.Hour, reply: counter("bob"), noInterrupt: true})
	h.person(2, "work")
	h.run(10 * time.Second)
	first := h.now
	h.handle(Send{FromName: "ops", To: 2, Text: "first", Options: Options{Mode: Urgent, Timeout: 100 * time.Millisecond}})
	h.run(first.Sub(t0) + 150*time.Millisecond) // expired; the interrupt went at once
	h.handle(Send{FromName: "ops", To: 2, Text: "second", Options: Options{Mode: Urgent}})
	h.run(30 * time.Second)
	want := []string{"\x1b", "\x15", "\x1b[200~ops:\n\nsecond\x1b[201~", "\r"}
	if got := h.writes[2]; !reflect.DeepEqual(got, want) {
		t.Errorf("writes to bob %q\nwant            %q", got, want)
	}
	if len(h.typed) != 1 || h.typed[0].at != first.Add(700*time.Millisecond) {
		t.Errorf("typed %+v: want the second message once the first interrupt's urgent_delay and SubmitDelay passed", h.typed)
	}
}

func TestImportantNeverOverADraft(t *testing.T) {
	h, _, bob := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.draft(2, "mine")
	typed := h.now
	h.handle(Send{FromName: "ops", To: 2, Text: "now please", Options: Options{Mode: Important}})
	h.run(typed.Sub(t0) + 2*time.Minute - time.Millisecond)
	if len(h.writes[2]) != 0 {
		t.Fatalf("an important message went over the draft: %q", h.writes[2])
	}
	h.run(typed.Sub(t0) + 3*time.Minute)
	if !reflect.DeepEqual(bob.inputs, []string{"ops:\n\nnow please"}) || bob.draft != "mine" {
		t.Errorf("bob got %q, input row %q", bob.inputs, bob.draft)
	}
}

func TestExitWhileDraftAside(t *testing.T) {
	h, _, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true, think: time.Minute, reply: counter("bob")})
	h.draft(2, "keep me")
	h.run(h.now.Sub(t0) + 5*time.Second)
	h.handle(Send{FromName: "ops", To: 2, Text: "now", Options: Options{Mode: Urgent}})
	h.run(h.now.Sub(t0) + 5*time.Second)
	if ps, _ := h.r.Pane(2); !ps.Aside {
		t.Fatalf("bob %+v: want the draft aside while bob answers", ps)
	}
	h.handle(Exit{Pane: 2})
	if !containsNote(h.notes(), `your draft in 2 bob was kept aside: the pane exited: "keep me"`) {
		t.Errorf("notes %q", h.notes())
	}
}

func TestReminderNumberIsTheDeliverysNumber(t *testing.T) {
	h, alice, _ := twoAgents(t, Config{}, &fakeAgent{titled: true, bracketed: true})
	id, _ := h.r.Reminder(Remind{Pane: 1, Text: "look again", After: time.Minute}, h.now)
	if id == 0 {
		t.Fatal("a reminder into a live pane got no number")
	}
	other, _ := h.r.Post(Send{FromName: "ops", To: 2, Text: "meanwhile"}, h.now)
	if other == id {
		t.Fatalf("the reminder's number %d was given again", id)
	}
	h.run(2 * time.Minute)
	if want := []string{"[agentmux] reminder: look again"}; !reflect.DeepEqual(alice.inputs, want) {
		t.Fatalf("alice got %q", alice.inputs)
	}
	var phases []Phase
	for _, e := range h.r.Log() {
		if e.Delivery == id {
			phases = append(phases, e.Phase)
		}
	}
	if len(phases) == 0 || phases[len(phases)-1] != Confirmed && phases[len(phases)-1] != Submitted {
		t.Errorf("delivery %d's log entries: %v", id, phases)
	}
	if n, _ := h.r.Reminder(Remind{Pane: 9, Text: "x"}, h.now); n != 0 {
		t.Errorf("a reminder into no pane got number %d", n)
	}
}

// An urgent message into a pane that has not counted as started yet: a pane busy with
// a turn a person started in it before then (the Enter came before its screen was
// quiet for --idle) runs, and is interrupted as any busy pane; a pane still busy
// starting (its banner, nobody submitted anything) is not, and the message waits until
// it started.
func TestUrgentBeforeStarted(t *testing.T) {
	paste := "\x1b[200~ops:\n\nstop\x1b[201~"
	for _, tc := range []struct {
		name    string
		person  bool          // a person submits "work" 500 ms after the pane opened
		booting time.Duration // the pane shows busy from its start for this long
		writes  []string      // into bob by 20 s
		started time.Duration // bob counts as started from then on
	}{
		{"busy with a person's turn: interrupted", true, 0, []string{"\x1b", "\x15", paste, "\r"}, 3500 * time.Millisecond},
		{"booting: waits until started", false, 10 * time.Second, []string{"\x15", paste, "\r"}, 11500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{}) // --idle 1.5 s: bob would start at 1.5 s if quiet
			bob := &fakeAgent{titled: true, bracketed: true, think: time.Minute, reply: counter("bob"), busy: tc.booting > 0}
			h.agent(2, "bob", bob)
			if tc.booting > 0 {
				bob.pending = append(bob.pending, simEvent{at: t0.Add(tc.booting), fn: func() { bob.busy = false; bob.print("ready") }})
			}
			if tc.person {
				h.run(500 * time.Millisecond)
				h.person(2, "work") // busy for a minute; the typing hold ends at 3.5 s
			}
			h.run(time.Second)
			if st, _ := h.r.Pane(2); st.Started {
				t.Fatal("bob counts as started already: the test needs him not to")
			}
			h.handle(Send{FromName: "ops", To: 2, Text: "stop", Options: Options{Mode: Urgent}})
			h.run(tc.started - time.Millisecond)
			if len(h.writes[2]) != 0 {
				t.Fatalf("wrote %q into bob at %v, before %v", h.writes[2], h.now.Sub(t0), tc.started)
			}
			h.run(20 * time.Second)
			if got := h.writes[2]; !reflect.DeepEqual(got, tc.writes) {
				t.Errorf("writes to bob %q\nwant            %q\nlog:\n%s", got, tc.writes, logText(h.r))
			}
			if want := "ops:\n\nstop"; len(bob.inputs) == 0 || bob.inputs[len(bob.inputs)-1] != want {
				t.Errorf("bob got %q, want %q last", bob.inputs, want)
			}
			if st, _ := h.r.Pane(2); !st.Started {
				t.Error("bob does not count as started after the message went in")
			}
		})
	}
}

// A program whose screen says neither busy nor idle counts as idle after --idle of
// quiet. Interrupted just before that (for an urgent message), it may print nothing for
// the interrupt: its clear keys then wait SubmitDelay after the interrupt, so the two
// are not read as one key.
func TestUrgentClearKeysApartFromTheInterrupt(t *testing.T) {
	h, _, _ := twoAgents(t, Config{}, &fakeAgent{bracketed: true, reply: counter("bob")}) // no titles: Unknown
	h.run(10 * time.Second)                                                               // started (4 × --idle of quiet)
	h.agents[2].print("bob's output")                                                     // quiet for --idle from 11.5 s on
	h.run(11*time.Second + 400*time.Millisecond)
	h.handle(Send{FromName: "ops", To: 2, Text: "stop", Options: Options{Mode: Urgent}})
	if got := h.writes[2]; !reflect.DeepEqual(got, []string{"\x1b"}) {
		t.Fatalf("writes to bob %q: want the interrupt (not quiet yet)", got)
	}
	h.run(11*time.Second + 600*time.Millisecond - time.Millisecond) // quiet at 11.5 s; nothing printed
	if got := h.writes[2]; !reflect.DeepEqual(got, []string{"\x1b"}) {
		t.Errorf("writes to bob %q by 11.6 s: want the clear keys no sooner than SubmitDelay after the interrupt", got)
	}
	h.run(time.Minute)
	if got, want := h.writes[2], []string{"\x1b", "\x15", "\x1b[200~ops:\n\nstop\x1b[201~", "\r"}; !reflect.DeepEqual(got, want) {
		t.Errorf("writes to bob %q\nwant            %q", got, want)
	}
}
