package relay

// A link a pane's program makes (LinkByPane: `agentmux link` from inside a pane) is on
// the budgets the person gave: it renews none, and unlinking and linking again buys no
// turns; only a person's link starts afresh.

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/usage"
)

// linkByPane is LinkByPane at the harness's clock, its actions carried out.
func (h *harness) linkByPane(a, b int) error {
	acts, err := h.r.LinkByPane(a, b, h.now)
	h.apply(acts)
	return err
}

// quietTrio is trio with bob and carol answering nothing: every turn is alice's
// answer, so the tests count each one.
func quietTrio(t *testing.T, cfg Config) (*harness, *fakeAgent) {
	h := newHarness(t, cfg)
	alice := h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "bob", &fakeAgent{titled: true})
	h.agent(3, "carol", &fakeAgent{titled: true})
	h.run(2 * time.Second)
	return h, alice
}

func TestPaneLinkBuysNoTurns(t *testing.T) {
	h, alice := quietTrio(t, Config{Turns: 3})
	if err := h.linkByPane(1, 2); err != nil {
		t.Fatal(err)
	}
	alice.answer("one")
	h.run(10 * time.Second)
	if s := h.r.Status().String(); !strings.Contains(s, "1⇄2 1/3") {
		t.Fatalf("status %q, want 1⇄2 at 1/3; notes %q", s, h.notes())
	}
	// alice's program unlinks and links again, then with carol: the group goes on
	// from the turn it spent.
	h.handle(Unlink{Pane: 1})
	if err := h.linkByPane(1, 2); err != nil {
		t.Fatal(err)
	}
	if s := h.r.Status().String(); !strings.Contains(s, "1⇄2 1/3") {
		t.Errorf("status after a pane's relink %q, want 1⇄2 still at 1/3", s)
	}
	if err := h.linkByPane(1, 3); err != nil {
		t.Fatal(err)
	}
	if s := h.r.Status().String(); !strings.Contains(s, "1⇄3 1/3") {
		t.Errorf("status after moving to carol %q, want 1⇄3 at 1/3", s)
	}
	alice.answer("two")
	h.run(20 * time.Second)
	alice.answer("three")
	h.run(30 * time.Second)
	if !containsNote(h.notes(), "budget spent (3/3): 1⇄3 severed") {
		t.Fatalf("notes %q: want 1⇄3 severed at 3/3", h.notes())
	}
	// Spent: a pane's program cannot link it again, with either peer.
	for _, with := range []int{2, 3} {
		err := h.linkByPane(1, with)
		if !errors.Is(err, ErrBudgetSpent) {
			t.Errorf("alice's program linking with %d after the budget was spent: %v, want ErrBudgetSpent", with, err)
		}
	}
	if g := h.r.Status().Groups; len(g) != 0 {
		t.Fatalf("groups %+v after refused links", g)
	}
	if !containsNote(h.notes(), "not linked, its budget was spent (3/3); a person links it again") {
		t.Errorf("no notice of the refusal: %q", h.notes())
	}
	// bob and carol's programs link with each other: carol's last link spent it.
	if err := h.linkByPane(2, 3); !errors.Is(err, ErrBudgetSpent) {
		t.Errorf("bob's program linking with carol: %v, want ErrBudgetSpent", err)
	}
	// The person's link starts afresh, and a pane's link after it goes on from there.
	h.handle(Link{Pane: 1, With: 3})
	if s := h.r.Status().String(); !strings.Contains(s, "1⇄3 0/3") {
		t.Fatalf("status after the person linked %q, want 1⇄3 at 0/3", s)
	}
	h.handle(Unlink{Pane: 3})
	if err := h.linkByPane(3, 1); err != nil {
		t.Errorf("carol's program linking with alice after the person's link: %v", err)
	}
}

func TestPaneLinkAfterItsSpendBudget(t *testing.T) {
	h := spendingPair(t, Config{Turns: 8, LinkBudget: usage.Budget{Tokens: 5000}}, 3000)
	if err := h.linkByPane(1, 2); err != nil {
		t.Fatal(err)
	}
	h.person(1, "start")
	h.run(120 * time.Second)
	if !containsNote(h.notes(), "spend budget spent (6k tokens, $0.00 of 5k): 1⇄2 severed") {
		t.Fatalf("notes %q: want 1⇄2 severed by its spend budget", h.notes())
	}
	if err := h.linkByPane(2, 1); !errors.Is(err, ErrBudgetSpent) {
		t.Errorf("bob's program linking with alice after the spend budget was spent: %v, want ErrBudgetSpent", err)
	}
	// 9k: the turn the severed link had already delivered spent its 3k after the sever,
	// and that counts too.
	if !containsNote(h.notes(), "not linked, its spend budget was spent (9k tokens, $0.00 of 5k)") {
		t.Errorf("no notice of the refusal: %q", h.notes())
	}
	h.handle(Link{Pane: 2, With: 1})
	if g := h.r.Status().Groups; len(g) != 1 || !g[0].Spent.Tokens.IsZero() {
		t.Errorf("after the person's link: %+v, want one group that spent nothing", g)
	}
}

// A pane's link goes on under the turn budget the person gave the link it left, tighter
// or wider than the session's.
func TestPaneLinkKeepsThePersonsBudget(t *testing.T) {
	h, alice := quietTrio(t, Config{Turns: 8})
	h.handle(Link{Pane: 1, With: 2})
	h.handle(SetBudget{Pane: 1, Turns: 2})
	spendTwoTurns(t, h, alice)
	if err := h.linkByPane(1, 3); !errors.Is(err, ErrBudgetSpent) {
		t.Errorf("alice's program linking with carol after the person's 2 turns: %v, want ErrBudgetSpent", err)
	}
	h.handle(Link{Pane: 1, With: 3})
	h.handle(SetBudget{Pane: 1, Turns: 20})
	alice.answer("three")
	h.run(30 * time.Second)
	h.handle(Unlink{Pane: 1})
	if err := h.linkByPane(1, 3); err != nil {
		t.Fatal(err)
	}
	if s := h.r.Status().String(); !strings.Contains(s, "1⇄3 1/20") {
		t.Errorf("status %q, want 1⇄3 going on at 1/20", s)
	}
}

// Joining another group by a pane's link does not renew its direct budget either.
func TestPaneLinkRenewsNoDirectBudget(t *testing.T) {
	h := newHarness(t, Config{Address: true, Turns: 2})
	alice := h.agent(1, "alice", &fakeAgent{titled: true})
	h.agent(2, "bob", &fakeAgent{titled: true, reply: counter("bob")})
	h.agent(3, "carol", &fakeAgent{titled: true})
	h.agent(4, "dave", &fakeAgent{titled: true})
	h.run(3 * time.Second)
	h.handle(Link{Pane: 3, With: 4})
	at, n := 10*time.Second, 0
	say := func(s string) {
		n++
		alice.answer(s + " " + string(rune('A'+n)))
		h.run(at)
		at += 10 * time.Second
	}
	for round := 0; round < 3; round++ {
		say("@relay:bob message")
		say("@relay:bob message")
		if err := h.linkByPane(1, 3); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		h.handle(Unlink{Pane: 1})
	}
	if got := h.typedTo(2); len(got) > 2 {
		t.Errorf("bob was typed %d messages, want at most 2: %q", len(got), got)
	}
}

// The spend of a turn a link started still counts to a budget when its pane unlinks
// and links again while the turn runs: the group it went to pays it.
func TestRelinkMidTurnHidesNoSpend(t *testing.T) {
	h := newHarness(t, Config{Turns: 20, LinkBudget: usage.Budget{Tokens: 5000}})
	alice := h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	bob := h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: counter("bob")})
	relinked := 0
	launder := func(a *fakeAgent, in string) {
		other := 3 - a.id
		a.pending = append(a.pending,
			simEvent{at: h.now.Add(a.think / 4), fn: func() {
				h.handle(Unlink{Pane: a.id})
				if err := h.linkByPane(a.id, other); err != nil {
					t.Logf("relink: %v", err)
				} else {
					relinked++
				}
			}},
			simEvent{at: h.now.Add(a.think / 2), fn: func() {
				h.handle(Spend{Pane: a.id, Tokens: usage.Tokens{Input: 3000}, Known: true})
			}})
	}
	alice.onSubmit, bob.onSubmit = launder, launder
	h.run(5 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	h.person(1, "start")
	h.run(300 * time.Second)
	if len(h.typed) > 3 {
		t.Errorf("%d deliveries under a 5k-token link budget with 3k-token turns, want at most 3; notes %q", len(h.typed), h.notes())
	}
	if relinked == 0 {
		t.Errorf("no relink mid-turn was made: the test tried nothing")
	}
}

// A pane whose link's budget was spent joins no group by itself, even one the person
// made (the review's laundering: after 1⇄2 was severed at its budget, link a c; link b
// c; unlink b; unlink a; link a b made 1⇄2 afresh).
func TestASpentPaneJoinsNoGroup(t *testing.T) {
	h := newHarness(t, Config{Turns: 2})
	alice := h.agent(1, "alice", &fakeAgent{titled: true})
	for i, n := range []string{"bob", "carol", "dave", "erin", "frank"} {
		h.agent(i+2, n, &fakeAgent{titled: true})
	}
	h.run(2 * time.Second)
	h.handle(Link{Pane: 1, With: 2})
	spendTwoTurns(t, h, alice)
	h.handle(Link{Pane: 3, With: 4})
	h.handle(Link{Pane: 5, With: 6})
	for _, j := range [][2]int{{1, 3}, {2, 5}, {1, 2}} {
		if err := h.linkByPane(j[0], j[1]); !errors.Is(err, ErrBudgetSpent) {
			t.Errorf("link %d with %d by a pane's program after 1⇄2's budget was spent: %v; %q", j[0], j[1], err, h.r.Status().String())
		}
	}

}

// spendTwoTurns has alice answer twice, which spends 1⇄2's budget of 2 turns.
func spendTwoTurns(t *testing.T, h *harness, alice *fakeAgent) {
	t.Helper()
	alice.answer("one")
	h.run(10 * time.Second)
	alice.answer("two")
	h.run(20 * time.Second)
	if !containsNote(h.notes(), "budget spent (2/2): 1⇄2 severed") {
		t.Fatalf("notes %q: want 1⇄2 severed at 2/2", h.notes())
	}
}
