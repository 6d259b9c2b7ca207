package relay

import (
	"fmt"
	"time"

	"github.com/agentmux/agentmux/usage"
)

// Spend budgets: the host reads what each pane's requests used (package usage) and
// reports it as Spend. A turn started by a link's delivery (its submit) counts to that
// link until a person submits in the pane; a turn the person started counts to the
// pane only. A link whose spend reaches its budget (Config.LinkBudget, in tokens or
// dollars) is severed once the turn that crossed it ended, with the notices a spent
// turn budget gives, on both sides of a link with another session. The session's
// spend reaching Config.SessionBudget holds every delivery from then on, and says so;
// the person's own messages (Options.Person) still go.

// Spend reports what pane Pane's program used since the last report: Tokens, and what
// they cost in dollars when Known (a model the price table does not know: not).
type Spend struct {
	Pane   int
	Tokens usage.Tokens
	USD    float64
	Known  bool
}

func (Spend) isEvent() {}

// spendTotal is a running total of spend.
type spendTotal struct {
	tokens  usage.Tokens
	usd     float64
	unknown bool // some of it had no known cost
}

// add counts e in t.
func (t *spendTotal) add(e Spend) {
	t.tokens = t.tokens.Add(e.Tokens)
	if e.Known {
		t.usd += e.USD
	} else {
		t.unknown = true
	}
}

// String is the total as notices say it: "5.2k tokens, $0.04".
func (t spendTotal) String() string {
	return fmt.Sprintf("%s tokens, %s", usage.Short(t.tokens.Total()), usage.Money(t.usd, t.usd > 0 || !t.unknown))
}

// turnSpend is a pane's spend as it concerns the relay: the link whose delivery started
// its turn (and that link's label then) and what its turn spent so far.
type turnSpend struct {
	turnLink  *group
	turnLabel string
	turnSpent spendTotal
}

// TurnLink returns the label of the link whose delivery started pane id's current (or
// last) turn, as the status line showed it then ("1⇄2"); "" when the person started it
// or nothing did.
func (r *Relay) TurnLink(id int) string {
	if p := r.panes[id]; p != nil {
		return p.turnLabel
	}
	return ""
}

// spent handles Spend.
func (r *Relay) spent(e Spend, now time.Time) {
	p := r.panes[e.Pane]
	if p == nil || e.Tokens.IsZero() {
		return
	}
	p.turnSpent.add(e)
	r.session.add(e)
	if g := p.turnLink; g != nil && r.groups[g.id] == g {
		g.spend.add(e)
		if !p.turn { // its turn ended already: the budget is checked now, else at its end
			r.checkSpend(g, p, now)
		}
	}
	r.checkSession(now)
}

// startTurnBy notes that delivery d was submitted into p: the turn it starts counts to
// the link it came through, if any.
func (p *pane) startTurnBy(d *delivery) {
	if d.link == nil {
		p.turnLink, p.turnLabel = nil, ""
		return
	}
	p.turnLink, p.turnLabel = d.link, d.linkName
	p.turnSpent = spendTotal{}
}

// personStarted notes that the person submitted in p: the turn is theirs.
func (p *pane) personStarted() {
	p.turnLink, p.turnLabel, p.turnSpent = nil, "", spendTotal{}
}

// checkSpend severs g when its spend reached its budget, after p's turn.
func (r *Relay) checkSpend(g *group, p *pane, now time.Time) {
	if r.groups[g.id] != g || !g.limit.Crossed(g.spend.tokens, g.spend.usd, true) {
		return
	}
	r.notice(now, 0, "spend budget spent (%s of %s): %s severed after %d %s's turn; relink to continue", g.spend, g.limit, g.label(), p.id, p.name)
	r.endRemote(g, p.name, fmt.Sprintf("spent the spend budget (%s of %s)", g.spend, g.limit), now)
	r.dissolve(g)
}

// checkSession holds every delivery once the session's spend reached its cap.
func (r *Relay) checkSession(now time.Time) {
	if r.capped || !r.cfg.SessionBudget.Crossed(r.session.tokens, r.session.usd, true) {
		return
	}
	r.capped = true
	r.notice(now, 0, "session spend cap reached (%s of %s): every delivery is held; your own messages still go", r.session, r.cfg.SessionBudget)
}

// Capped reports whether the session's spend reached its cap (Config.SessionBudget).
func (r *Relay) Capped() bool { return r.capped }
