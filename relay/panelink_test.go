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
	if !containsNote(h.notes(), "not linked, its spend budget was spent (6k tokens, $0.00 of 5k)") {
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
	alice.answer("one")
	h.run(10 * time.Second)
	alice.answer("two")
	h.run(20 * time.Second)
	if !containsNote(h.notes(), "budget spent (2/2): 1⇄2 severed") {
		t.Fatalf("notes %q: want 1⇄2 severed at 2/2", h.notes())
	}
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
