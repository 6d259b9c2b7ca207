package relay

// Strategy: the simulation harness with a fake clock. A group linked with the turns a
// restored session had spent starts from them: one more delivery spends its budget and
// severs it; a group whose budget was spent is not linked again. What the budgets outside
// the groups spent (Budgets) is handed to a new relay, which refuses what the old one did.

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestLinkAllKeepsSpentTurns(t *testing.T) {
	h := newHarness(t, Config{Turns: 8})
	h.agent(1, "alice", &fakeAgent{titled: true, bracketed: true, reply: counter("alice")})
	h.agent(2, "bob", &fakeAgent{titled: true, bracketed: true, reply: func(string) string { return "" }})
	h.run(time.Second)
	h.handle(LinkAll{Panes: []int{1, 2}, Used: 2, Budget: 3})
	if got := h.r.Status().String(); got != "1⇄2 2/3" {
		t.Fatalf("status %q, want the spent turns kept", got)
	}
	h.person(1, "go")
	h.run(30 * time.Second)
	if len(h.typed) != 1 || h.typed[0].to != 2 {
		t.Fatalf("typed %+v, want one delivery into 2", h.typed)
	}
	if got := h.r.Status().String(); got != "" {
		t.Errorf("status %q, want the group severed by its last turn", got)
	}

	h2 := newHarness(t, Config{Turns: 8})
	h2.agent(1, "alice", &fakeAgent{titled: true})
	h2.agent(2, "bob", &fakeAgent{titled: true})
	h2.handle(LinkAll{Panes: []int{1, 2}, Used: 3, Budget: 3})
	if got := h2.r.Status().String(); got != "" {
		t.Errorf("status %q, want no group for a spent budget", got)
	}
}

// What the budgets outside the live groups spent comes back with a restored session:
// a pane whose link's budget was spent joins no group by itself, and the @relay and
// client budgets between its panes stay spent, until a person links them.
func TestRestoredBudgetsStaySpent(t *testing.T) {
	h, alice := trio(t, Config{Address: true, Turns: 2})
	h.handle(Link{Pane: 1, With: 3})
	spent := h.r.Budgets()
	if !spent.IsZero() {
		t.Fatalf("budgets %+v before anything was spent outside a group", spent)
	}
	for i, at := range []time.Duration{10, 20} {
		alice.answer("@relay:bob message " + string(rune('A'+i)))
		h.run(at * time.Second)
	}
	h.handle(Unlink{Pane: 1})
	for _, text := range []string{"one", "two"} {
		if _, _, err := h.r.Message(Send{FromName: "Ops", To: h.r.Addressee("carol"), Text: text}, h.now); err != nil {
			t.Fatalf("ops to carol: %v", err)
		}
	}
	spent = h.r.Budgets()
	want := Budgets{
		Left:     []LeftBudget{{Pane: 1, Budget: 2}, {Pane: 3, Budget: 2}},
		Direct:   []DirectBudget{{A: 1, B: 2, Used: 2}},
		External: []ExternalBudget{{From: "", Pane: 3, Used: 2}, {From: "ops", Pane: 3, Used: 2}},
	}
	if !reflect.DeepEqual(spent, want) {
		t.Fatalf("budgets\n%+v, want\n%+v", spent, want)
	}

	// The session restored: a new relay with the same panes, handed what was spent.
	r2, _ := trio(t, Config{Address: true, Turns: 2})
	r2.handle(RestoreBudgets{Budgets: spent})
	if got := r2.r.Budgets(); !reflect.DeepEqual(got, want) {
		t.Errorf("restored budgets\n%+v, want\n%+v", got, want)
	}
	if _, _, err := r2.r.Message(Send{FromName: "ops", To: r2.r.Addressee("carol"), Text: "three"}, r2.now); !errors.Is(err, ErrBudgetSpent) {
		t.Errorf("a third message from ops into carol after the restore: %v, want its budget spent", err)
	}
	r2.agents[1].answer("@relay:bob message C")
	r2.run(40 * time.Second)
	if got := r2.typedTo(2); len(got) != 0 {
		t.Errorf("bob was typed %q after the restore, want the direct budget still spent", got)
	}

	// A group's spent budget, left behind, holds a link the pane's program makes.
	h3 := newHarness(t, Config{Turns: 2})
	alice3 := h3.agent(1, "alice", &fakeAgent{titled: true})
	h3.agent(2, "bob", &fakeAgent{titled: true})
	h3.agent(3, "carol", &fakeAgent{titled: true})
	h3.run(2 * time.Second)
	h3.handle(Link{Pane: 1, With: 2})
	spendTwoTurns(t, h3, alice3)
	r4 := newHarness(t, Config{Turns: 2})
	for i, n := range []string{"alice", "bob", "carol"} {
		r4.agent(i+1, n, &fakeAgent{titled: true})
	}
	r4.run(2 * time.Second)
	r4.handle(RestoreBudgets{Budgets: h3.r.Budgets()})
	if err := r4.linkByPane(1, 3); !errors.Is(err, ErrBudgetSpent) {
		t.Errorf("alice's program linking with carol after the restore: %v, want its spent budget to hold", err)
	}
	r4.handle(Link{Pane: 1, With: 3}) // a person's link renews it
	if got := r4.r.Budgets(); len(got.Left) != 1 || got.Left[0].Pane != 2 {
		t.Errorf("left %+v after a person linked 1 and 3, want only bob's record", got.Left)
	}
}
