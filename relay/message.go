package relay

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/parser"
)

// Messages from outside the screen: a client of the session (the socket's `agentmux
// send`, a protocol member) asks for text to be typed into a pane the way an agent's
// @relay command would be. The sender is a name: a pane's own name (or number) sends as
// that pane, with its group's or its direct budget; any other name is an external
// member, framed "NAME:" and limited by a direct budget of --turns per (name, pane)
// pair, renewed when a person links the pane.

// Errors Message returns.
var (
	// ErrNoAddressee means the addressee is no live pane.
	ErrNoAddressee = errors.New("no such pane")
	// ErrBudgetSpent means the pair's budget is spent: a person must link to renew it.
	ErrBudgetSpent = errors.New("budget spent")
	// ErrEmpty means the message has no words.
	ErrEmpty = errors.New("empty message")
)

// externalFrame frames an external member's message.
const externalFrame = "{name}:\n\n{text}"

// extPair is an external sender and a pane.
type extPair struct {
	from string
	pane int
}

// Message queues text from the member named from (a pane, or an external name) for the
// live pane named or numbered to, at now, and returns what the host must write now. The
// delivery then goes like any other: idle-gated, never over a person's draft, logged.
func (r *Relay) Message(from, to, text string, now time.Time) ([]Action, error) {
	if now.After(r.now) {
		r.now = now
	}
	acts := r.step(now)
	q := r.addressee(to)
	switch {
	case q == nil:
		return acts, fmt.Errorf("send to %q: %w", to, ErrNoAddressee)
	case strings.TrimSpace(text) == "":
		return acts, fmt.Errorf("send to %q: %w", to, ErrEmpty)
	}
	if p := r.addressee(from); p != nil {
		if p == q {
			return acts, fmt.Errorf("send from %d %s to itself: %w", p.id, p.name, ErrNoAddressee)
		}
		k := pairOf(p.id, q.id)
		inGroup := p.group != nil && p.group == q.group
		if inGroup && p.group.used >= p.group.budget || !inGroup && r.direct[k] >= r.cfg.Turns {
			return acts, fmt.Errorf("send from %s to %s: %w", p.name, q.name, ErrBudgetSpent)
		}
		// A client speaking for a pane is explicit (a script or the agent's own shell
		// tool ran `agentmux send`), so the opt-in for addressing from screen text does
		// not apply: it goes straight to the budgets.
		r.send(p, q, parser.Command{To: to, Kind: parser.KindMessage, Body: text}, now)
		return append(acts, r.step(now)...), nil
	}
	k := extPair{strings.ToLower(from), q.id}
	if r.external[k] >= r.cfg.Turns {
		return acts, fmt.Errorf("send from %s to %s: %w (%d/%d)", from, q.name, ErrBudgetSpent, r.external[k], r.cfg.Turns)
	}
	if r.external == nil {
		r.external = map[extPair]int{}
	}
	r.external[k]++
	words := cut(sanitize(text, true), r.cfg.Limit)
	r.nDeliv++
	d := &delivery{id: r.nDeliv, to: q.id, words: words, framed: frame(externalFrame, from, 0, words), phase: Waiting}
	d.entry = r.log(Entry{
		At: now, Delivery: d.id, FromName: from, To: q.id, ToName: q.name,
		Size: utf8.RuneCountInString(words), Words: summary(words), Body: words, Phase: Waiting, Note: "sent by " + from,
	})
	q.queue = append(q.queue, d)
	return append(acts, r.step(now)...), nil
}

// renewExternal restores the external budgets into pane id (a person linked it).
func (r *Relay) renewExternal(id int) {
	for k := range r.external {
		if k.pane == id {
			delete(r.external, k)
		}
	}
}
