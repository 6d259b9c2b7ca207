package relay

import (
	"fmt"
	"slices"
	"time"

	"github.com/agentmux/agentmux/usage"
)

// Spend budgets: the host reads what each pane's requests used (package usage) and
// reports it as Spend. A turn started by a link's delivery (its submit) counts to that
// link until a person submits in the pane; a turn the person started counts to the
// pane only. A link whose spend reaches its budget (Config.LinkBudget, in tokens or
// dollars, Config.LinkBudget or SetBudget) is severed once the turn that crossed it
// ended, with the notices a spent turn budget gives, on both sides of a link with
// another session. The session's spend reaching Config.SessionBudget holds every
// delivery from then on, and a pane's reaching Config.PaneBudget every delivery into
// that pane; each says so, and the person's own messages (Options.Person) still go.
// A restored session's totals come back as SpentBefore and its links' with LinkAll.

// Spend reports what pane Pane's program used since the last report: Tokens, and what
// they cost in dollars when Known (a model the price table does not know: not).
type Spend struct {
	Pane   int
	Tokens usage.Tokens
	USD    float64
	Known  bool
}

func (Spend) isEvent() {}

// SpentBefore adds what was spent before the relay started (a restored session's
// totals, from the store) to pane Pane's total, or to the session's alone when Pane is
// 0 (a pane closed before): the caps count from there. It counts to no link.
type SpentBefore struct {
	Pane  int
	Total SpendTotal
}

func (SpentBefore) isEvent() {}

// SetBudget sets the budgets of pane Pane's link: Turns its turn budget (the turns
// spent stay; 0 keeps it) and Limit its spend budget (zero keeps it). A link whose
// spend already reached the new limit is severed at once.
type SetBudget struct {
	Pane  int
	Turns int
	Limit usage.Budget
}

func (SetBudget) isEvent() {}

// SpendTotal is a running total of spend: its tokens and what the priced part cost;
// Unknown says some of it had no known cost.
type SpendTotal struct {
	Tokens  usage.Tokens
	USD     float64
	Unknown bool
}

// add counts e in t.
func (t *SpendTotal) add(e Spend) {
	t.Tokens = t.Tokens.Add(e.Tokens)
	if e.Known {
		t.USD += e.USD
	} else {
		t.Unknown = true
	}
}

// plus returns t with u more.
func (t SpendTotal) plus(u SpendTotal) SpendTotal {
	return SpendTotal{Tokens: t.Tokens.Add(u.Tokens), USD: t.USD + u.USD, Unknown: t.Unknown || u.Unknown}
}

// crossed reports whether t reaches b.
func (t SpendTotal) crossed(b usage.Budget) bool { return b.Crossed(t.Tokens, t.USD, true) }

// String is the total as notices say it: "5.2k tokens, $0.04".
func (t SpendTotal) String() string {
	return fmt.Sprintf("%s tokens, %s", usage.Short(t.Tokens.Total()), usage.Money(t.USD, t.USD > 0 || !t.Unknown))
}

// Short is the total against limit as the status line shows it: "2.4k/5k tok" for a
// budget in tokens, "$0.12/$2" for one in dollars.
func (t SpendTotal) Short(limit usage.Budget) string {
	if limit.USD > 0 {
		s := usage.Money(t.USD, true)
		if t.Unknown {
			s += "+?"
		}
		return s + "/" + limit.String()
	}
	return usage.Short(t.Tokens.Total()) + "/" + limit.String() + " tok"
}

// turnSpend is a pane's spend as it concerns the relay: the link whose delivery started
// its turn (and that link's label then), what its turn spent so far, what the pane
// spent in all, and whether that reached Config.PaneBudget.
type turnSpend struct {
	turnLink  *group
	turnLabel string
	turnSpent SpendTotal
	spent     SpendTotal
	capped    bool
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
	p.spent.add(e)
	r.session.add(e)
	if g := p.turnLink; g != nil {
		if r.groups[g.id] != g {
			// The turn's group ended while the turn ran (its pane unlinked, and may have
			// linked again): the spend still counts, to what the pane's groups spent
			// and to the group it is in now, so relinking mid-turn hides none of it.
			if l, ok := r.left[p.id]; ok {
				l.spend.add(e)
				r.left[p.id] = l
			}
			g = p.group
		}
		if g != nil {
			g.spend.add(e)
			if !p.turn { // its turn ended already: the budget is checked now, else at its end
				r.checkSpend(g, p, now)
			}
		}
	}
	r.checkPane(p, now)
	r.checkSession(now)
}

// spentBefore handles SpentBefore.
func (r *Relay) spentBefore(e SpentBefore, now time.Time) {
	r.session = r.session.plus(e.Total)
	if p := r.panes[e.Pane]; p != nil {
		p.spent = p.spent.plus(e.Total)
		r.checkPane(p, now)
	}
	r.checkSession(now)
}

// setBudget handles SetBudget.
func (r *Relay) setBudget(e SetBudget, now time.Time) {
	p := r.live(e.Pane)
	if p == nil || p.group == nil {
		return
	}
	g := p.group
	if e.Turns > 0 {
		g.budget = e.Turns
	}
	if !e.Limit.IsZero() {
		g.limit = e.Limit
	}
	what := fmt.Sprintf("%d/%d turns", g.spent(), g.budget)
	if !g.limit.IsZero() {
		what += ", spend " + g.spend.Short(g.limit)
	}
	r.notice(now, p.id, "budget of %s: %s", g.label(), what)
	if !g.limit.IsZero() && g.spend.crossed(g.limit) {
		r.notice(now, 0, "spend budget spent (%s of %s): %s severed; relink to continue", g.spend, g.limit, g.label())
		r.endRemote(g, p.name, fmt.Sprintf("spent the spend budget (%s of %s)", g.spend, g.limit), now)
		r.dissolve(g)
	}
}

// startTurnBy notes that delivery d was submitted into p: the turn it starts counts to
// the link it came through, if any.
func (p *pane) startTurnBy(d *delivery) {
	if d.link == nil {
		p.turnLink, p.turnLabel = nil, ""
		return
	}
	p.turnLink, p.turnLabel = d.link, d.linkName
	p.turnSpent = SpendTotal{}
}

// personStarted notes that the person submitted in p: the turn is theirs.
func (p *pane) personStarted() {
	p.turnLink, p.turnLabel, p.turnSpent = nil, "", SpendTotal{}
}

// checkSpend severs g when its spend reached its budget, after p's turn.
func (r *Relay) checkSpend(g *group, p *pane, now time.Time) {
	if r.groups[g.id] != g || !g.spend.crossed(g.limit) {
		return
	}
	r.notice(now, 0, "spend budget spent (%s of %s): %s severed after %d %s's turn; relink to continue", g.spend, g.limit, g.label(), p.id, p.name)
	r.endRemote(g, p.name, fmt.Sprintf("spent the spend budget (%s of %s)", g.spend, g.limit), now)
	r.dissolve(g)
}

// checkSession holds every delivery once the session's spend reached its cap.
func (r *Relay) checkSession(now time.Time) {
	if r.capped || !r.session.crossed(r.cfg.SessionBudget) {
		return
	}
	r.capped = true
	r.notice(now, 0, "session spend cap reached (%s of %s): every delivery is held; your own messages still go", r.session, r.cfg.SessionBudget)
}

// checkPane holds every delivery into p once its spend reached Config.PaneBudget.
func (r *Relay) checkPane(p *pane, now time.Time) {
	if p.capped || !p.spent.crossed(r.cfg.PaneBudget) {
		return
	}
	p.capped = true
	r.notice(now, p.id, "pane spend cap reached (%s of %s): deliveries into %d %s are held; your own messages still go", p.spent, r.cfg.PaneBudget, p.id, p.name)
}

// capHeld reports why the agents' deliveries into p are held by a spend cap ("" when
// none is reached).
func (r *Relay) capHeld(p *pane) string {
	switch {
	case r.capped:
		return "session spend cap reached"
	case p.capped:
		return "pane spend cap reached"
	}
	return ""
}

// personFirst moves the person's oldest message waiting for p ahead of the agents'
// deliveries a spend cap holds there; false when none waits.
func (r *Relay) personFirst(p *pane) bool {
	i := slices.IndexFunc(p.queue, func(d *delivery) bool { return d.opts.Person })
	if i < 0 {
		return false
	}
	d := p.queue[i]
	p.queue = slices.Insert(slices.Delete(p.queue, i, i+1), 0, d)
	return true
}

// Capped reports whether the session's spend reached its cap (Config.SessionBudget).
func (r *Relay) Capped() bool { return r.capped }

// SessionSpent is everything the panes spent, the restored part included.
func (r *Relay) SessionSpent() SpendTotal { return r.session }
