package mesh

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/proto"
)

// A link with another session's member sends that member every turn of a pane here
// and types its turns here: neither side links without its person's yes. The asking
// side (agentmux link alice bob@buildbox) sends a request and links nothing yet; the
// receiving side shows it as pending (status line, a "link-request" event, the relay
// log, agentmux link --pending) until its person answers (agentmux link --accept or
// --refuse) or it expires. On a yes the receiving side links with the budget asked
// for, capped at its own turn budget, and says so ("accept" with the budget): the
// asking side links with that budget. A no, an expiry, or a request this side cannot
// take, comes back as an "end" that says why.
//
//	laptop                                      buildbox
//	link alice bob@buildbox ── ln link ───────► pending (status line, event)
//	                                            link --accept alice@laptop
//	LinkRemote(alice, budget) ◄── ln accept ─── LinkRemote(bob, min(budget, --turns))
//	(nothing linked)          ◄── ln end ────── link --refuse, or expired

// DefaultLinkRequestTTL is how long a link request from another session waits for
// the person's answer.
const DefaultLinkRequestTTL = 10 * time.Minute

// pendingLink is a request from another session to link one of this session's panes.
type pendingLink struct {
	tag         string
	from        string // NAME@SESSION asking
	fromSession string
	to          string // the pane asked for here
	budget      int    // the turns asked for
	at          time.Time
	timer       *time.Timer
}

// askedLink is a request this session sent, until the other side answers.
type askedLink struct {
	pane, addr string
	shell      bool
}

// consent holds the link requests both ways (a request's answer comes on the
// node's loop, the person's on the hub's goroutine, an expiry on a timer's).
type consent struct {
	mu      sync.Mutex
	pending map[string]*pendingLink // by tag
	asked   map[string]askedLink    // by tag
	stopped bool
}

// requestLink records a request from another session and tells the person (on the
// loop).
func (n *Node) requestLink(fromSession string, l *wireLink) {
	addr := l.From + "@" + fromSession
	if !n.isPane(l.To) {
		n.sendLink(fromSession, wireLink{Op: "end", Tag: l.Tag, From: l.To, Why: "refused: no such member"})
		return
	}
	ttl := n.o.LinkRequestTTL
	if ttl <= 0 {
		ttl = DefaultLinkRequestTTL
	}
	p := &pendingLink{tag: l.Tag, from: addr, fromSession: fromSession, to: l.To, budget: l.Budget, at: time.Now()}
	n.links.mu.Lock()
	if n.links.stopped || n.links.pending[l.Tag] != nil {
		n.links.mu.Unlock()
		return // closing; or a request crossing twice
	}
	if n.links.pending == nil {
		n.links.pending = map[string]*pendingLink{}
	}
	n.links.pending[l.Tag] = p
	p.timer = time.AfterFunc(ttl, func() {
		_ = n.answerTag(l.Tag, false, fmt.Sprintf("not answered within %s", ttl))
	})
	n.links.mu.Unlock()
	text := fmt.Sprintf("link request: %s asks to link with %s (%d turns): agentmux link --accept %s, or --refuse %s",
		addr, l.To, l.Budget, addr, addr)
	n.evq.Put(proto.Event{Kind: proto.EventLinkRequest, Member: l.To, To: l.To, From: addr, ID: l.Tag, Text: text})
	if lk, ok := n.linker(); ok {
		lk.Note(l.To, text)
	}
	n.warn(text)
}

// warn puts text on the person's status line, when the core has one.
func (n *Node) warn(text string) {
	core := n.core.Load()
	if core == nil {
		return
	}
	if w, ok := (*core).(interface{ Warn(string) }); ok {
		w.Warn(text)
	}
}

// PendingLinks are the link requests from other sessions waiting for the person's
// answer, oldest first.
func (c *Core) PendingLinks() []proto.LinkRequest {
	n := c.n
	n.links.mu.Lock()
	defer n.links.mu.Unlock()
	out := make([]proto.LinkRequest, 0, len(n.links.pending))
	for _, p := range n.links.pending {
		out = append(out, proto.LinkRequest{From: p.from, To: p.to, Turns: p.budget, At: p.at.UnixMilli()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}

// ErrNoLinkRequest says no link request waits (from that member).
var ErrNoLinkRequest = errors.New("no link request waits for an answer")

// AnswerLink answers the link request from addr (NAME@SESSION; "" when only one
// waits): yes links, with the budget asked for capped at this session's.
func (c *Core) AnswerLink(addr string, yes bool) error {
	n := c.n
	n.links.mu.Lock()
	var tags, froms []string
	for tag, p := range n.links.pending {
		froms = append(froms, p.from)
		if addr == "" || strings.EqualFold(p.from, addr) {
			tags = append(tags, tag)
		}
	}
	n.links.mu.Unlock()
	switch {
	case len(tags) == 0 && addr != "":
		return fmt.Errorf("%w from %s", ErrNoLinkRequest, addr)
	case len(tags) == 0:
		return ErrNoLinkRequest
	case len(tags) > 1:
		sort.Strings(froms)
		return fmt.Errorf("%d link requests wait (%s): say which", len(tags), strings.Join(froms, ", "))
	}
	return n.answerTag(tags[0], yes, "refused by its person")
}

// answerTag answers the request tag: linked (yes) or ended, saying why.
func (n *Node) answerTag(tag string, yes bool, why string) error {
	n.links.mu.Lock()
	p := n.links.pending[tag]
	delete(n.links.pending, tag)
	n.links.mu.Unlock()
	if p == nil {
		return ErrNoLinkRequest // answered, or expired, meanwhile
	}
	p.timer.Stop()
	lk, ok := n.linker()
	if !yes || !ok {
		n.sendLink(p.fromSession, wireLink{Op: "end", Tag: p.tag, From: p.to, Why: why})
		if ok {
			lk.Note(p.to, fmt.Sprintf("link request of %s for %s: %s", p.from, p.to, why))
		}
		return nil
	}
	n.learn(p.from)
	pane, turns, err := lk.LinkRemote(p.to, p.from, p.tag, p.budget, false)
	if err != nil {
		n.sendLink(p.fromSession, wireLink{Op: "end", Tag: p.tag, From: p.to, Why: "refused: " + err.Error()})
		return err
	}
	n.sendLink(p.fromSession, wireLink{Op: "accept", Tag: p.tag, From: pane, Budget: turns})
	return nil
}

// asking records a request this session sent.
func (n *Node) asking(tag string, a askedLink) {
	n.links.mu.Lock()
	defer n.links.mu.Unlock()
	if n.links.asked == nil {
		n.links.asked = map[string]askedLink{}
	}
	n.links.asked[tag] = a
}

// answered takes the request tag this session sent, if it waits for an answer from
// session: the one it asked, and no other that learnt the tag.
func (n *Node) answered(tag, session string) (askedLink, bool) {
	n.links.mu.Lock()
	defer n.links.mu.Unlock()
	a, ok := n.links.asked[tag]
	if !ok {
		return a, false
	}
	if _, asked, _ := SplitAddress(a.addr); asked != session { // exact, as subjects are
		return askedLink{}, false
	}
	delete(n.links.asked, tag)
	return a, true
}

// accepted links this side of a request the other side said yes to (on the loop).
func (n *Node) accepted(fromSession string, l *wireLink) {
	a, ok := n.answered(l.Tag, fromSession)
	if !ok {
		return // not asked for (or answered before): nothing is linked on its word
	}
	addr := l.From + "@" + fromSession
	if addr != a.addr {
		n.learn(addr) // the member was renamed meanwhile
	}
	lk, ok := n.linker()
	if !ok {
		return
	}
	if _, _, err := lk.LinkRemote(a.pane, addr, l.Tag, l.Budget, a.shell); err != nil {
		n.sendLink(fromSession, wireLink{Op: "end", Tag: l.Tag, From: a.pane, Why: "could not link here: " + err.Error()})
		lk.Note(a.pane, fmt.Sprintf("link with %s accepted there, but not here: %v", addr, err))
	}
}

// stopConsent stops the expiry timers (the node closes): requests not answered are
// left unanswered, and expire on the asking side's word only.
func (n *Node) stopConsent() {
	n.links.mu.Lock()
	defer n.links.mu.Unlock()
	n.links.stopped = true
	for _, p := range n.links.pending {
		p.timer.Stop()
	}
}
