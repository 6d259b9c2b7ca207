package relay

// Strategy: the fake-clock simulation (sim_test.go), each fake agent reporting its
// turn's usage (Spend) while it thinks, as the host does when a hook names the file.
// A link's spend budget must sever it after the turn that crossed it, counting only
// the turns its deliveries started (the person's first turn counts to the pane alone);
// the session's cap must hold every agent's delivery and let the person's through.

import (
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/usage"
)

// spender makes a fake agent report each turn's usage half-way through its thinking.
func spender(h *harness, tokens int64, usd float64) func(a *fakeAgent, in string) {
	return func(a *fakeAgent, in string) {
		a.pending = append(a.pending, simEvent{at: h.now.Add(a.think / 2), fn: func() {
			h.handle(Spend{Pane: a.id, Tokens: usage.Tokens{Input: tokens}, USD: usd, Known: true})
		}})
	}
}

// spendingPair opens alice and bob, each answering every message and spending tokens
// on each turn, and lets them start.
func spendingPair(t *testing.T, cfg Config, tokens int64) *harness {
	h := newHarness(t, cfg)
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	alice.onSubmit, bob.onSubmit = spender(h, tokens, 0), spender(h, tokens, 0)
	h.run(5 * time.Second)
	return h
}

func TestLinkBudgetSeversAfterTheTurnThatCrossedIt(t *testing.T) {
	h := spendingPair(t, Config{Turns: 8, LinkBudget: usage.Budget{Tokens: 5000}}, 3000)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "start") // alice's first turn is the person's: 3000 to her pane only
	h.run(120 * time.Second)

	// bob's turn (3000, the link's) and alice's second (6000: crossed) are the link's;
	// alice's second answer was paid for and still goes, then the link is severed.
	want := []string{"alice (1):\n\nalice reply 1", "bob (2):\n\nbob reply 1", "alice (1):\n\nalice reply 2"}
	if len(h.typed) != len(want) {
		t.Fatalf("typed %d deliveries, want %d: %+v", len(h.typed), len(want), h.typed)
	}
	for i, w := range want {
		if h.typed[i].text != w {
			t.Errorf("delivery %d = %q, want %q", i, h.typed[i].text, w)
		}
	}
	if !containsNote(h.notes(), "spend budget spent (6k tokens, $0.00 of 5k): 1⇄2 severed after 1 alice's turn") {
		t.Errorf("no spend budget notice in %q", h.notes())
	}
	if st := h.r.Status(); len(st.Groups) != 0 {
		t.Errorf("the link still stands: %+v", st)
	}
	if got := h.r.TurnLink(1); got != "1⇄2" {
		t.Errorf("alice's last turn counted to %q, want the link 1⇄2", got)
	}
	// The relay log's line for alice's second answer says what her turn spent.
	found := false
	for _, e := range h.r.Log() {
		if e.Delivery > 0 && e.From == 1 && strings.Contains(e.Body, "alice reply 2") {
			found = strings.Contains(e.Note, "turn spent 3k tokens")
		}
	}
	if !found {
		t.Errorf("the delivery's log line does not say its turn's spend: %+v", h.r.Log())
	}
}

func TestPersonsTurnCountsToThePaneOnly(t *testing.T) {
	h := newHarness(t, Config{Turns: 8, LinkBudget: usage.Budget{Tokens: 2500}})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true}) // never answers
	alice.onSubmit = spender(h, 3000, 0)
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "start")
	h.run(10 * time.Second)
	if got := h.r.TurnLink(1); got != "" {
		t.Errorf("the person's turn counted to link %q", got)
	}
	if st := h.r.Status(); len(st.Groups) != 1 {
		t.Errorf("the person's turn (3000 > 2500) severed the link: %+v %q", st, h.notes())
	}
}

func TestSessionCapHoldsAgentsNotThePerson(t *testing.T) {
	h := newHarness(t, Config{Turns: 8, SessionBudget: usage.Budget{USD: 0.01}})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	alice.onSubmit, bob.onSubmit = spender(h, 100, 0.006), spender(h, 100, 0.006)
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "start")
	h.run(60 * time.Second)
	// alice ($0.006) and bob ($0.012: the cap) answered; bob's answer is held.
	if len(h.typed) != 1 || h.typed[0].to != 2 {
		t.Fatalf("typed %+v, want only alice's first answer into bob", h.typed)
	}
	if !h.r.Capped() || !containsNote(h.notes(), "session spend cap reached") {
		t.Fatalf("no cap: %q", h.notes())
	}
	held := false
	for _, p := range h.phases() {
		held = held || p == "2→1 held"
	}
	if !held {
		t.Errorf("bob's answer is not held: %q", h.phases())
	}
	// The person's own message still goes, and they are told.
	if _, err := h.r.post(Send{FromName: "you", To: 2, Text: "go on", Options: Options{Person: true}}, h.now); err != nil {
		t.Fatal(err)
	}
	h.run(90 * time.Second)
	if last := h.typed[len(h.typed)-1]; last.to != 2 || !strings.Contains(last.text, "go on") {
		t.Errorf("the person's message was not typed: %+v", h.typed)
	}
	if !containsNote(h.notes(), "your message to 2 bob goes") {
		t.Errorf("the person was not told: %q", h.notes())
	}
}

// A link severed by its turn budget as its last delivery was queued still names that
// delivery's turn: the label is the one the status line showed when it was queued.
func TestTurnLinkOfASeveredLinksLastDelivery(t *testing.T) {
	h := newHarness(t, Config{Turns: 1})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "start")
	h.run(60 * time.Second)
	if len(h.typed) != 1 {
		t.Fatalf("typed %+v, want alice's one answer", h.typed)
	}
	if got := h.r.TurnLink(2); got != "1⇄2" {
		t.Errorf("bob's turn counted to %q, want 1⇄2", got)
	}
}

// A pane whose spend reached Config.PaneBudget takes no agent's delivery; the person's
// still goes, and they are told. What a restored session spent before (SpentBefore)
// counts towards the cap.
func TestPaneCapHoldsDeliveriesIntoThatPane(t *testing.T) {
	h := spendingPair(t, Config{Turns: 8, PaneBudget: usage.Budget{Tokens: 5000}}, 1000)
	h.handle(SpentBefore{Pane: 2, Total: SpendTotal{Tokens: usage.Tokens{Output: 3500}}})
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "start")
	h.run(120 * time.Second)
	// alice answers the person, bob takes it (4.5k), alice answers bob, bob takes that
	// (5.5k: capped); his answer still goes into alice, whose next answer is held.
	want := []string{"alice (1):\n\nalice reply 1", "bob (2):\n\nbob reply 1", "alice (1):\n\nalice reply 2", "bob (2):\n\nbob reply 2"}
	if len(h.typed) != len(want) {
		t.Fatalf("typed %d deliveries, want %d: %+v", len(h.typed), len(want), h.typed)
	}
	if !containsNote(h.notes(), "pane spend cap reached (5.5k tokens, $0.00 of 5k): deliveries into 2 bob are held") {
		t.Errorf("no pane cap notice in %q", h.notes())
	}
	held := false
	for _, p := range h.phases() {
		held = held || p == "1→2 held"
	}
	if !held {
		t.Errorf("alice's answer into bob is not held: %q", h.phases())
	}
	if st := h.r.Status(); len(st.Groups) != 1 {
		t.Errorf("a pane cap severed the link: %+v", st)
	}
	if h.r.Capped() {
		t.Error("a pane's cap capped the session")
	}
	if got := h.r.SessionSpent().Tokens.Total(); got != 3500+5*1000 {
		t.Errorf("the session spent %d tokens, want the restored 3500 and five turns of 1000", got)
	}
	n := len(h.typed)
	if _, err := h.r.post(Send{FromName: "you", To: 2, Text: "go on", Options: Options{Person: true}}, h.now); err != nil {
		t.Fatal(err)
	}
	h.run(60 * time.Second)
	if len(h.typed) <= n || h.typed[n].to != 2 || !strings.Contains(h.typed[n].text, "go on") {
		t.Errorf("the person's message was not typed into bob: %+v", h.typed[n:])
	}
	if !containsNote(h.notes(), "your message to 2 bob goes; the agents' deliveries into it are held") {
		t.Errorf("the person was not told: %q", h.notes())
	}
}

// A restored link (LinkAll with Limit and Spent) counts from what it spent before:
// with 4000 of 5000 spent, the first link turn of 1000 severs it.
func TestRestoredLinkCountsFromItsSpend(t *testing.T) {
	h := spendingPair(t, Config{Turns: 8}, 1000)
	h.handle(LinkAll{Panes: []int{1, 2}, Used: 2, Budget: 8, Limit: usage.Budget{Tokens: 5000},
		Spent: SpendTotal{Tokens: usage.Tokens{Input: 4000}}})
	if st := h.r.Status(); len(st.Groups) != 1 || st.Groups[0].String() != "1⇄2 2/8 4k/5k tok" {
		t.Fatalf("restored link: %+v", st)
	}
	h.person(1, "start")
	h.run(120 * time.Second)
	if len(h.typed) != 2 {
		t.Fatalf("typed %+v, want alice's answer and bob's (whose turn crossed the budget)", h.typed)
	}
	if !containsNote(h.notes(), "spend budget spent (5k tokens, $0.00 of 5k): 1⇄2 severed after 2 bob's turn") {
		t.Errorf("no spend budget notice in %q", h.notes())
	}
	// One already spent is not linked again.
	h.handle(LinkAll{Panes: []int{1, 2}, Used: 0, Budget: 8, Limit: usage.Budget{USD: 1}, Spent: SpendTotal{USD: 1.5}})
	if st := h.r.Status(); len(st.Groups) != 0 || !containsNote(h.notes(), "not linked again: its spend budget was spent") {
		t.Errorf("a spent link was linked again: %+v %q", st, h.notes())
	}
}

// SetBudget changes a standing link's budgets: its turns (what was spent stays) and its
// spend limit, which severs it at once when already reached.
func TestSetBudgetOfALink(t *testing.T) {
	h := newHarness(t, Config{Turns: 8})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	alice.onSubmit, bob.onSubmit = spender(h, 1000, 0.01), spender(h, 1000, 0.01)
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.handle(SetBudget{Pane: 1, Turns: 20, Limit: usage.Budget{USD: 0.025}})
	if st := h.r.Status(); len(st.Groups) != 1 || st.Groups[0].String() != "1⇄2 0/20 $0.00/$0.025" {
		t.Fatalf("status: %+v", st)
	}
	if !containsNote(h.notes(), "budget of 1⇄2: 0/20 turns, spend $0.00/$0.025") {
		t.Errorf("no notice of the budget: %q", h.notes())
	}
	h.person(1, "start")
	h.run(120 * time.Second)
	// bob $0.01, alice $0.02, bob $0.03: crossed after bob's second turn.
	if !containsNote(h.notes(), "1⇄2 severed after 2 bob's turn") {
		t.Errorf("not severed after bob's second turn: %q", h.notes())
	}
	// Another link, with no spend budget: a limit under what it spent severs it at once.
	h = newHarness(t, Config{Turns: 8})
	alice = h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob = h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	alice.onSubmit, bob.onSubmit = spender(h, 1000, 0.01), spender(h, 1000, 0.01)
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "start")
	h.run(15 * time.Second)
	st := h.r.Status()
	if len(st.Groups) != 1 || st.Groups[0].Spent.Tokens.IsZero() {
		t.Fatalf("the link spent nothing yet: %+v %q", st, h.notes())
	}
	h.handle(SetBudget{Pane: 2, Limit: usage.Budget{Tokens: 1}})
	if st := h.r.Status(); len(st.Groups) != 0 || !containsNote(h.notes(), "1⇄2 severed; relink to continue") {
		t.Errorf("a link given less than it spent stands: %+v %q", st, h.notes())
	}
}

// A message a linked pane sends its link's other member (agentmux send from the pane, or
// one the store types again after a restart) spends a turn of the link: the turn it
// starts counts to the link's spend too.
func TestLinkMembersMessageCountsToTheLink(t *testing.T) {
	h := newHarness(t, Config{Turns: 8, LinkBudget: usage.Budget{Tokens: 10_000}})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	bob.onSubmit = spender(h, 1000, 0)
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	_, acts, err := h.r.Message(Send{From: 1, To: 2, Text: "over to you"}, h.now)
	if err != nil {
		t.Fatal(err)
	}
	h.apply(acts)
	h.run(30 * time.Second)
	if got := h.r.TurnLink(2); got != "1⇄2" {
		t.Errorf("bob's turn counted to %q, want the link 1⇄2", got)
	}
	if st := h.r.Status(); len(st.Groups) != 1 || st.Groups[0].Spent.Tokens.Total() != 1000 {
		t.Errorf("the link's spend: %+v\n%q\n%+v", st, h.notes(), h.typed)
	}
}
