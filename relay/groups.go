package relay

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentmux/agentmux/usage"
)

// group is a set of linked panes sharing one turn budget.
type group struct {
	id      int
	members []int
	used    int
	budget  int
	last    string // the words of the group's last delivery, to skip repeats

	// A link with another session's member (remote.go): its name, the link's tag, the
	// turns the other side spent, and whether the link's end was said or heard.
	remote, tag string
	peer        int
	ended       bool

	// limit is the group's spend budget and spend what the turns its deliveries
	// started spent (spend.go).
	limit usage.Budget
	spend SpendTotal
}

// label renders the members as "1⇄2⇄3".
func (g *group) label() string {
	ids := make([]string, len(g.members))
	for i, m := range g.members {
		ids[i] = fmt.Sprint(m)
	}
	if g.remote != "" {
		ids = append(ids, g.remote)
	}
	return strings.Join(ids, "⇄")
}

// newGroup makes an empty group with a fresh budget.
func (r *Relay) newGroup() *group {
	r.nGroups++
	g := &group{id: r.nGroups, budget: r.cfg.Turns, limit: r.cfg.LinkBudget}
	r.groups[g.id] = g
	return g
}

// join adds p to g (members stay in pane order) and takes its baseline: what it shows
// now is never delivered.
func (r *Relay) join(g *group, p *pane) {
	i, _ := slices.BinarySearch(g.members, p.id)
	g.members = slices.Insert(g.members, i, p.id)
	p.group = g
	p.setBaseline()
}

// spent is what a group had spent, its turns (the other session's too) and its spend,
// and of what: its turn budget and spend budget, which a person may have set.
type spent struct {
	turns  int
	spend  SpendTotal
	budget int
	limit  usage.Budget
}

// spentOf is what g has spent, of what.
func spentOf(g *group) spent {
	return spent{turns: g.spent(), spend: g.spend, budget: g.budget, limit: g.limit}
}

// add makes s at least c in every measure spent; of the turn budgets it keeps the
// tightest, of the spend budgets the first set.
func (s *spent) add(c spent) {
	s.turns = max(s.turns, c.turns)
	if c.spend.Tokens.Total() > s.spend.Tokens.Total() {
		s.spend.Tokens = c.spend.Tokens
	}
	s.spend.USD = max(s.spend.USD, c.spend.USD)
	s.spend.Unknown = s.spend.Unknown || c.spend.Unknown
	if c.budget > 0 && (s.budget == 0 || c.budget < s.budget) {
		s.budget = c.budget
	}
	if s.limit.IsZero() {
		s.limit = c.limit
	}
}

// shellIn returns a pane of g (nil: none) that runs a shell.
func (r *Relay) shellIn(g *group) *pane {
	if g == nil {
		return nil
	}
	for _, id := range g.members {
		if p := r.live(id); p != nil && p.shell {
			return p
		}
	}
	return nil
}

// LinkByPane is Link as a pane's program asks for it (`agentmux link` from inside a
// pane): no budget is renewed, which only a person's link does, and a new group starts
// from the most the two panes' groups had spent since a person linked them, on those
// groups' budgets (the session's when none), so a program that unlinks and links again
// buys no turns. A link whose budget that already spent is refused (ErrBudgetSpent): a
// person must link it.
func (r *Relay) LinkByPane(a, b int, now time.Time) ([]Action, error) {
	if now.After(r.now) {
		r.now = now
	}
	acts := r.step(now)
	err := r.linkByPane(a, b, now)
	return append(acts, r.step(now)...), err
}

func (r *Relay) linkByPane(a, b int, now time.Time) error {
	pa, pb := r.live(a), r.live(b)
	if pa == nil || pb == nil || a == b || (pa.group != nil && pa.group == pb.group) {
		return nil
	}
	for _, g := range []*group{pa.group, pb.group} {
		if s := r.shellIn(g); s != nil {
			r.notice(now, a, "%d %s asked to link with %d %s: not linked, the group holds %d %s, a shell a person linked: only a person links into it",
				a, pa.name, b, pb.name, s.id, s.name)
			return fmt.Errorf("link %d with %d: %w", a, b, ErrShellGroup)
		}
	}
	// What the two panes' groups spent, and what their earlier ones had since a person
	// linked them: a pane whose link's budget was spent joins no group by itself.
	var from spent
	for _, g := range []*group{pa.group, pb.group} {
		if g != nil {
			from.add(spentOf(g))
		}
	}
	from.add(r.left[a])
	from.add(r.left[b])
	if from.budget == 0 {
		from.budget = r.cfg.Turns
	}
	if from.limit.IsZero() {
		from.limit = r.cfg.LinkBudget
	}
	switch {
	case from.turns >= from.budget:
		r.notice(now, a, "%d %s asked to link with %d %s: not linked, its budget was spent (%d/%d); a person links it again",
			a, pa.name, b, pb.name, from.turns, from.budget)
		return fmt.Errorf("link %d with %d: %w (%d/%d turns)", a, b, ErrBudgetSpent, from.turns, from.budget)
	case !from.limit.IsZero() && from.spend.crossed(from.limit):
		r.notice(now, a, "%d %s asked to link with %d %s: not linked, its spend budget was spent (%s of %s); a person links it again",
			a, pa.name, b, pb.name, from.spend, from.limit)
		return fmt.Errorf("link %d with %d: %w (%s of %s)", a, b, ErrBudgetSpent, from.spend, from.limit)
	}
	if pb.group != nil && pb.group.remote == "" {
		r.link(a, b, now, &spent{}, 0) // into b's group, on its budget: nothing renewed
		return nil
	}
	r.link(a, b, now, &from, 0)
	return nil
}

// link puts pane a into the group of pane b. A person's link (start nil) renews the two
// panes' budgets, and turns (above 0) is the group's turn budget; a pane's (LinkByPane)
// renews nothing, and gives a new group what start says it spent.
func (r *Relay) link(a, b int, now time.Time, start *spent, turns int) {
	pa, pb := r.live(a), r.live(b)
	if pa == nil || pb == nil || a == b || (pa.group != nil && pa.group == pb.group) {
		return
	}
	// A pane is in one group at a time: linking it moves it, and the notice says what
	// it left, so a group never ends without a word on the status line.
	moved := ""
	if old := pa.group; old != nil {
		label := old.label()
		r.leave(pa, now, "target moved to another group")
		if len(old.members) < 2 {
			moved = fmt.Sprintf("; pane %d left %s, which ended", a, label)
		} else {
			moved = fmt.Sprintf("; pane %d left %s, now %s", a, label, old.label())
		}
	}
	if start == nil {
		r.renewDirect(a)
		r.renewDirect(b)
	}
	g := pb.group
	if g != nil && g.remote != "" { // a link with another session stays a pair
		r.leave(pb, now, "target moved to another group")
		g = nil
	}
	if g == nil {
		g = r.newGroup()
		if start != nil {
			g.used, g.spend, g.budget, g.limit = start.turns, start.spend, start.budget, start.limit
		}
		r.join(g, pb)
	}
	r.join(g, pa)
	if turns > 0 {
		g.budget = turns
	}
	r.notice(now, a, "linked %s (%d/%d turns)%s", g.label(), g.used, g.budget, moved)
}

// linkAll puts the listed live panes into one new group; the notice names the panes
// left out (shells).
func (r *Relay) linkAll(e LinkAll, now time.Time) {
	ids, left := e.Panes, e.Left
	if e.Budget > 0 && e.Used >= e.Budget {
		r.notice(now, 0, "not linked again: its budget was spent (%d/%d)", e.Used, e.Budget)
		return
	}
	if !e.Limit.IsZero() && e.Spent.crossed(e.Limit) {
		r.notice(now, 0, "not linked again: its spend budget was spent (%s of %s)", e.Spent, e.Limit)
		return
	}
	var out []string
	for _, id := range left {
		if p := r.live(id); p != nil {
			out = append(out, fmt.Sprintf("%d %s", p.id, p.name))
		}
	}
	why := ""
	if len(out) > 0 {
		why = fmt.Sprintf("; left out %s: a shell would run agents' answers as commands (prefix l then its number links it, asking first)", strings.Join(out, ", "))
	}
	var ps []*pane
	for _, id := range ids {
		if p := r.live(id); p != nil && !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	if len(ps) < 2 {
		if why != "" {
			r.notice(now, 0, "not linked: fewer than two panes to link%s", why)
		}
		return
	}
	for _, p := range ps {
		if p.group != nil {
			r.leave(p, now, "target moved to another group")
		}
	}
	g := r.newGroup()
	if e.Budget > 0 {
		g.used, g.budget = max(e.Used, 0), e.Budget
	}
	if !e.Limit.IsZero() {
		g.limit, g.spend = e.Limit, e.Spent
	}
	for _, p := range ps {
		r.renewDirect(p.id)
		r.join(g, p)
	}
	r.notice(now, 0, "linked %s (%d/%d turns)%s", g.label(), g.used, g.budget, why)
}

// leave takes p out of its group, dropping the deliveries waiting for it (why says
// why); a group left with one member ends.
func (r *Relay) leave(p *pane, now time.Time, why string) {
	g := p.group
	if g == nil {
		return
	}
	label := g.label() // the members as the status line showed them, before p leaves
	r.remember(p.id, g)
	p.group = nil
	p.setBaseline()
	g.members = slices.DeleteFunc(g.members, func(id int) bool { return id == p.id })
	r.dropQueue(p, now, why)
	if g.size() < 2 {
		r.endRemote(g, p.name, strings.TrimPrefix(why, "target "), now)
		r.notice(now, 0, "%s ended: pane %d left", label, p.id)
		r.dissolve(g)
	}
}

// remember adds what g spent to what pane id's earlier groups had spent since a
// person's link last renewed it (renewDirect forgets it): a pane that joins a group and
// leaves it, or is left alone in it, launders nothing.
func (r *Relay) remember(id int, g *group) {
	was := r.left[id]
	was.add(spentOf(g))
	r.left[id] = was
}

// sever ends a group whose budget is spent. Deliveries already paid for still go.
func (r *Relay) sever(g *group, now time.Time) {
	r.notice(now, 0, "budget spent (%d/%d): %s severed; relink to continue", g.spent(), g.budget, g.label())
	from := ""
	if len(g.members) > 0 {
		from = r.panes[g.members[0]].name
	}
	r.endRemote(g, from, fmt.Sprintf("spent the budget (%d/%d)", g.spent(), g.budget), now)
	r.dissolve(g)
}

// dissolve removes g and frees its members.
func (r *Relay) dissolve(g *group) {
	for _, id := range g.members {
		r.remember(id, g)
		if p := r.panes[id]; p != nil && p.group == g {
			p.group = nil
			p.setBaseline()
		}
	}
	g.members = nil
	delete(r.groups, g.id)
}

// exit marks p gone: out of its group, nothing waiting for it or half typed into it.
// closed says a person closed it rather than its program ending; status, if set, is how
// the program ended, for the notice.
func (r *Relay) exit(p *pane, now time.Time, closed bool, status string) {
	how := "exited"
	if closed {
		how = "closed"
	}
	if p.group != nil {
		r.leave(p, now, "target "+how)
	}
	r.dropQueue(p, now, "target "+how)
	if p.inflight != nil {
		r.flight(p, Dropped, now, "target "+how)
	}
	r.unset(p, now, "the pane "+how)
	p.clearing = nil
	p.exited = true
	if !closed && status != "" {
		how = status
	}
	p.gone = how
	r.notice(now, p.id, "%d %s %s", p.id, p.name, how)
	if closed {
		p.letGo()
	}
}

// letGo is for a closed pane, which stays known by its number and name (Gone) and is
// never read again: it lets go of its terminal, its history and what was read of them.
func (p *pane) letGo() {
	p.scr, p.paneBaseline, p.altFrames = closedScreen{}, paneBaseline{}, altFrames{}
}

// closedScreen is the screen of a closed pane: nothing.
type closedScreen struct{}

func (closedScreen) Read(int64) Reading { return Reading{} }

// dropQueue drops every delivery waiting for p.
func (r *Relay) dropQueue(p *pane, now time.Time, why string) {
	for _, d := range p.queue {
		r.setPhase(d, Dropped, now, why)
	}
	p.queue = nil
}
