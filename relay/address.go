package relay

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/parser"
)

// Explicit addressing: an agent may address another pane itself, by writing a line
// `@relay:NAME message` or a block `[[RELAY]]{"to": "NAME", "text": "..."}[[/RELAY]]` in
// a turn (NAME is a pane's name or number). Every pane's turns are watched for them,
// linked or not: they are the agents' own requests, so they work between any two panes.
// A turn that holds valid commands delivers each command's message to its addressee
// only, instead of the whole turn to the sender's group. The loop limits still hold:
// between two members of one group a command spends a turn of the group's budget (and
// severs it when spent); between panes that are not in one group it spends a turn of a
// direct budget of --turns per pair of panes, which a person's link of either pane
// renews.

// pair is an unordered pair of pane numbers.
type pair [2]int

// pairOf returns the pair of a and b, smaller first.
func pairOf(a, b int) pair {
	if a > b {
		a, b = b, a
	}
	return pair{a, b}
}

// route delivers p's relay commands to their addressees.
func (r *Relay) route(p *pane, cmds []parser.Command, now time.Time) {
	for _, c := range cmds {
		if c.Err != nil {
			r.notice(now, p.id, "%d %s wrote a relay command that was not sent: %v", p.id, p.name, c.Err)
			continue
		}
		q := r.addressee(c.To)
		switch {
		case q == nil:
			r.notice(now, p.id, "%d %s addressed %q: no such pane", p.id, p.name, c.To)
			continue
		case q == p:
			r.notice(now, p.id, "%d %s addressed itself: not sent", p.id, p.name)
			continue
		}
		if g := p.group; g != nil && g == q.group {
			if g.used >= g.budget {
				continue // severed below already; nothing more this turn
			}
			g.used++
			r.queue(p, q, c.Body, now)
			if g.used >= g.budget {
				r.sever(g, now)
			}
			continue
		}
		k := pairOf(p.id, q.id)
		if r.direct[k] >= r.cfg.Turns {
			r.notice(now, p.id, "direct budget spent (%d/%d) between %d and %d: @relay from %d %s not sent; link them to continue", r.direct[k], r.cfg.Turns, k[0], k[1], p.id, p.name)
			continue
		}
		r.direct[k]++
		r.queue(p, q, c.Body, now)
	}
}

// addressee returns the live pane named to (its name, case-insensitively, or its
// number), or nil.
func (r *Relay) addressee(to string) *pane {
	to = strings.TrimSpace(to)
	if n, err := strconv.Atoi(to); err == nil {
		return r.live(n)
	}
	for _, id := range r.order {
		if p := r.live(id); p != nil && strings.EqualFold(p.name, to) {
			return p
		}
	}
	return nil
}

// queue puts a delivery of text from p into q's queue.
func (r *Relay) queue(p, q *pane, text string, now time.Time) {
	words := cut(sanitize(text, true), r.cfg.Limit)
	r.nDeliv++
	d := &delivery{id: r.nDeliv, from: p.id, to: q.id, words: words, framed: frame(r.cfg.Template, p.name, p.id, words), phase: Waiting}
	d.entry = r.log(Entry{
		At: now, Delivery: d.id, From: p.id, FromName: p.name, To: q.id, ToName: q.name,
		Size: utf8.RuneCountInString(words), Words: summary(words), Phase: Waiting, Note: "addressed by @relay",
	})
	q.queue = append(q.queue, d)
}

// renewDirect restores the direct budgets of every pair with pane id (a person linked it).
func (r *Relay) renewDirect(id int) {
	for k := range r.direct {
		if k[0] == id || k[1] == id {
			delete(r.direct, k)
		}
	}
}
