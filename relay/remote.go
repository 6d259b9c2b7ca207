package relay

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/parser"
)

// Links with members of other sessions (the mesh): a pane of this session and an
// external member that is a pane of another session form a group of two of their
// own. Each side has the group in its own relay and types only into its own pane; the
// host carries what crosses.
//
// - A turn the pane finishes goes to the external member as Mail with Link (the
//   link's tag) and Spent (the turns this side has spent on the link, this one
//   included): the other side types it into its pane like a linked member's turn.
// - A message with Options.Link set to the tag, from the other side, is that side's
//   pane's turn: typed here like any delivery, costing no turn here (the other side
//   paid for it) but raising the other side's count to its Spent.
// - The budget is one for the pair: each side counts the turns it spent and the turns
//   the other side said it spent, and the group's Used is their sum, the same on both
//   sides once the messages arrived. Two turns that cross each other when one turn is
//   left may both go: the budget is then overspent by one.
// - The group ends on either side as a local group does (unlink, the pane exits or
//   joins another group, the budget is spent); the relay then mails the external
//   member an End so the host ends the other side's too. An end the other side asked
//   for (UnlinkRemote) mails nothing back. The tag tells a link from an earlier one of
//   the same two members: a turn or an end of another tag is refused or ignored.
// - A pane renamed (Rename) mails the external member a Rename with the tag: the host
//   tells the other side, whose group then names the member anew (RenameRemote).

// LinkRemote links Pane with the external member Name (registered: External), a pane
// of another session, in a new group of their own whose budget is Budget (0:
// Config.Turns) for the pair; Pane leaves its group. Tag names the link on both sides.
// Used and Peer are the turns this side and the other had spent on it: a link made
// again under its tag when its session is restored (0 for a new link).
type LinkRemote struct {
	Pane       int
	Name, Tag  string
	Budget     int
	Used, Peer int
	// Restored says a restore makes the link again: it renews none of the pane's
	// budgets (RestoreBudgets handed back what they had spent), as a new link does.
	Restored bool
}

// UnlinkRemote ends the link Tag because its other side ended it (Why says how, for
// the notice): nothing is mailed back. Session, when not "", is the session that said
// so (the hub checked it): an end from any other than the link's is not taken.
type UnlinkRemote struct{ Tag, Session, Why string }

// Tell tells the member named To Text After from now, as the relay tells a sender that
// its message was delivered: typed into a pane like a delivery notice (no turn is
// spent; with Hush its answer is not relayed), or Mail for any other name.
type Tell struct {
	To    string
	Text  string
	After time.Duration
	Hush  bool
}

// Note logs Text as a notice about pane Pane (0: about no pane): news of a message that
// left the session, which only the host hears of.
type Note struct {
	Pane int
	Text string
}

// RenameRemote says the other side's member of link Tag is now called Name (an
// external member, registered: External): the link follows the rename.
type RenameRemote struct{ Tag, Name string }

func (LinkRemote) isEvent()   {}
func (UnlinkRemote) isEvent() {}
func (RenameRemote) isEvent() {}
func (Tell) isEvent()         {}
func (Note) isEvent()         {}

// ErrNotLinked means a message came as a turn of a link that is not (or no longer) in
// force here.
var ErrNotLinked = fmt.Errorf("not linked")

// spent is the turns spent of g's budget: this side's and, for a link with another
// session, what the other side said it spent.
func (g *group) spent() int { return g.used + g.peer }

// size counts g's members, the external one included.
func (g *group) size() int {
	n := len(g.members)
	if g.remote != "" {
		n++
	}
	return n
}

// linkRemote handles LinkRemote.
func (r *Relay) linkRemote(e LinkRemote, now time.Time) {
	p := r.live(e.Pane)
	name, ok := r.externalNamed(e.Name)
	if p == nil || !ok || e.Tag == "" {
		r.notice(now, e.Pane, "link of %d with %s: no such pane or member: not linked", e.Pane, e.Name)
		return
	}
	if p.group != nil {
		r.leave(p, now, "target moved to another group")
	}
	if !e.Restored {
		r.renewDirect(p.id)
	}
	g := r.newGroup()
	g.remote, g.tag = name, e.Tag
	if e.Budget > 0 {
		g.budget = e.Budget
	}
	g.used, g.peer = max(e.Used, 0), max(e.Peer, 0)
	r.join(g, p)
	r.notice(now, p.id, "linked %s (%d/%d turns)", g.label(), g.spent(), g.budget)
}

// unlinkRemote handles UnlinkRemote.
func (r *Relay) unlinkRemote(e UnlinkRemote, now time.Time) {
	g := r.linkTagged(e.Tag)
	if g == nil || e.Session != "" && sessionOf(g.remote) != e.Session {
		return // ended here already, or an earlier link's; or not the other side's word
	}
	why := e.Why
	if why == "" {
		why = "the other side ended it"
	}
	g.ended = true // the other side's word: nothing to mail back
	label := g.label()
	for _, id := range g.members {
		if p := r.panes[id]; p != nil {
			r.dropQueue(p, now, "target unlinked")
		}
	}
	r.notice(now, 0, "%s ended: %s", label, why)
	r.dissolve(g)
}

// renameRemote handles RenameRemote.
func (r *Relay) renameRemote(e RenameRemote, now time.Time) {
	g := r.linkTagged(e.Tag)
	name, ok := r.externalNamed(e.Name)
	if g == nil || !ok || g.remote == name || sessionOf(name) != sessionOf(g.remote) {
		return // ended here already, or an earlier link's; or no news; or not its side's
	}
	was := g.remote
	g.remote = name
	r.notice(now, g.members[0], "%s renamed %s: linked %s", was, name, g.label())
}

// sessionOf is the session of a member of another session (NAME@SESSION). Session
// names are exact in a mesh (its subjects, streams and credentials): BuildBox is not
// buildbox.
func sessionOf(addr string) string {
	_, s, _ := strings.Cut(addr, "@")
	return s
}

// renamedLocal tells the other side of p's link with another session, if any, that p
// is now called p.name (it was was), so that its side of the link follows.
func (r *Relay) renamedLocal(p *pane, was string, now time.Time) {
	if g := p.group; g != nil && g.remote != "" && !g.ended {
		r.mail = append(r.mail, Mail{To: g.remote, From: p.name, FromPane: p.id, At: now, Text: was, Link: g.tag, Rename: true})
	}
}

// LinkedPane returns the pane of this session in the link with another session
// named tag (0: none in force), whatever its name is now: a turn the other side sent
// before it heard of a rename still reaches it.
func (r *Relay) LinkedPane(tag string) int {
	if g := r.linkTagged(tag); g != nil && len(g.members) == 1 {
		return g.members[0]
	}
	return 0
}

// linkTagged returns the group of the link named tag, nil when none is in force.
func (r *Relay) linkTagged(tag string) *group {
	if tag == "" {
		return nil
	}
	for _, g := range r.groups {
		if g.tag == tag {
			return g
		}
	}
	return nil
}

// toRemote sends p's turn (its words cut to the limit) to the other session's member
// of g while the budget lasts.
func (r *Relay) toRemote(g *group, p *pane, words, source string, now time.Time) {
	if g.spent() >= g.budget {
		return
	}
	g.used++
	r.mail = append(r.mail, Mail{To: g.remote, From: p.name, FromPane: p.id, At: now, Text: words, Kind: parser.KindMessage, Link: g.tag, Spent: g.used})
	e := Entry{At: now, From: p.id, FromName: p.name, ToName: g.remote, Size: utf8.RuneCountInString(words),
		Words: summary(words), Body: words, Source: source}
	e.Note = fmt.Sprintf("%d %s → %s (other session)  turn %d/%d  %d chars  %q", p.id, p.name, g.remote, g.spent(), g.budget, e.Size, e.Words)
	r.log(e)
}

// fromRemote checks a message that came as a turn of the link s.Link, spending no turn
// here: it returns its group, or why it is refused. The turn must come from the link's
// other session (the mesh names it, checked; the member there may have been renamed
// since): a tag another session learnt names no link of its own.
func (r *Relay) fromRemote(s Send, q *pane) (*group, error) {
	g := r.linkTagged(s.Link)
	if g == nil || q.group != g {
		return nil, fmt.Errorf("turn from %s for %d %s: %w: the link ended", s.FromName, q.id, q.name, ErrNotLinked)
	}
	if from, _, _ := strings.Cut(s.FromName, " ("); sessionOf(from) != sessionOf(g.remote) { // NAME@SESSION (N)
		return nil, fmt.Errorf("turn from %s for %d %s: %w: the link is with %s", s.FromName, q.id, q.name, ErrNotLinked, g.remote)
	}
	g.peer = max(g.peer, s.Spent)
	return g, nil
}

// endRemote mails the other side of g that the link ended here, because its pane named
// from did what why says ("unlinked"), unless the other side ended it.
func (r *Relay) endRemote(g *group, from, why string, now time.Time) {
	if g.remote == "" || g.ended {
		return
	}
	g.ended = true
	r.mail = append(r.mail, Mail{To: g.remote, From: from, At: now, Text: why, Link: g.tag, End: true})
}

// tellMember handles Tell.
func (r *Relay) tellMember(e Tell, now time.Time) {
	if strings.TrimSpace(e.Text) == "" || strings.TrimSpace(e.To) == "" {
		return
	}
	t := &timer{at: now.Add(max(e.After, 0)), text: e.Text, hush: e.Hush}
	if p := r.addressee(e.To); p != nil {
		t.pane = p.id
	} else {
		t.to = e.To
	}
	r.timers = append(r.timers, t)
	if e.After <= 0 {
		r.fire(now)
	}
}
