package relay

import (
	"cmp"
	"slices"
	"time"

	"github.com/agentmux/agentmux/usage"
)

// Budgets is what the budgets outside the live groups have spent, which a restart must
// not renew: a person renews them by linking, and a restored session is the same
// session. Left is what each pane's earlier groups spent since a person last linked it
// (a link the pane's own program makes starts there, LinkByPane); Direct the turns
// @relay lines spent between two panes in no group together; External the turns
// external members spent into a pane. Relay.Budgets reads them; RestoreBudgets hands a
// restored session's back.
type Budgets struct {
	Left     []LeftBudget
	Direct   []DirectBudget
	External []ExternalBudget
}

// LeftBudget is what pane Pane's earlier groups spent: Used turns of Budget, and
// Spent of the spend budget Limit (zero: none).
type LeftBudget struct {
	Pane, Used, Budget int
	Limit              usage.Budget
	Spent              SpendTotal
}

// DirectBudget is the turns @relay lines spent between panes A and B (A < B).
type DirectBudget struct{ A, B, Used int }

// ExternalBudget is the turns the external member From spent into pane Pane; From ""
// counts every external sender's together.
type ExternalBudget struct {
	From       string
	Pane, Used int
}

// IsZero reports whether nothing outside the live groups was spent.
func (b Budgets) IsZero() bool {
	return len(b.Left) == 0 && len(b.Direct) == 0 && len(b.External) == 0
}

// Budgets returns what the budgets outside the live groups have spent, in a stable
// order.
func (r *Relay) Budgets() Budgets {
	var b Budgets
	for id, s := range r.left {
		b.Left = append(b.Left, LeftBudget{Pane: id, Used: s.turns, Budget: s.budget, Limit: s.limit, Spent: s.spend})
	}
	slices.SortFunc(b.Left, func(x, y LeftBudget) int { return cmp.Compare(x.Pane, y.Pane) })
	for k, n := range r.direct {
		if n > 0 {
			b.Direct = append(b.Direct, DirectBudget{A: k[0], B: k[1], Used: n})
		}
	}
	slices.SortFunc(b.Direct, func(x, y DirectBudget) int {
		return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	for k, n := range r.external {
		if n > 0 {
			b.External = append(b.External, ExternalBudget{From: k.from, Pane: k.pane, Used: n})
		}
	}
	slices.SortFunc(b.External, func(x, y ExternalBudget) int {
		return cmp.Or(cmp.Compare(x.Pane, y.Pane), cmp.Compare(x.From, y.From))
	})
	return b
}

// RestoreBudgets hands a restored session's Budgets back, by pane number, before any
// of them is spent anew: each counts from at least what it had spent.
type RestoreBudgets struct{ Budgets Budgets }

func (RestoreBudgets) isEvent() {}

// restoreBudgets handles RestoreBudgets.
func (r *Relay) restoreBudgets(e RestoreBudgets, _ time.Time) {
	for _, l := range e.Budgets.Left {
		was := r.left[l.Pane]
		was.add(spent{turns: l.Used, budget: l.Budget, limit: l.Limit, spend: l.Spent})
		r.left[l.Pane] = was
	}
	for _, d := range e.Budgets.Direct {
		if d.A != d.B {
			k := pairOf(d.A, d.B)
			r.direct[k] = max(r.direct[k], d.Used)
		}
	}
	for _, x := range e.Budgets.External {
		if r.external == nil {
			r.external = map[extPair]int{}
		}
		k := extPair{from: x.From, pane: x.Pane}
		r.external[k] = max(r.external[k], x.Used)
	}
}
