package relay

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentmux/agentmux/parser"
)

// Explicit addressing: an agent may address another pane itself with a relay command
// (parser.Parser: `@relay:NAME message`, `@thinking:NAME ...`, [[RELAY]] blocks), NAME
// being a pane's name or number, or `*` for every other pane. Every pane's turns are
// read for them, with the syntax of its profile and a parser of its own, so a fenced
// code block opened in one turn still hides commands in the next.
//
// Addressing is opt-in, since text an agent merely displays (a file, a web page, a
// log) must not become a prompt in another agent: a pane may address the members of
// its own group; other panes only when the person turned addressing on, for the
// session (Config.Address, --address) or for that pane (Address events). A command
// that may not go is noted in the log, never sent.
//
// A turn that holds commands delivers each to its addressee only, instead of the whole
// turn to the sender's group. Messages and actions are typed (an action as its body,
// then its data as JSON); thinking and state are never typed into an agent: they are
// log entries of their own (Entry.Kind), for history and protocol clients. The loop
// limits still hold: between two members of one group a typed command spends a turn of
// the group's budget (and severs it when spent); between panes that are not in one
// group it spends a turn of a direct budget of --turns per pair of panes, which a
// person's link of either pane renews. A broadcast spends one turn per pane it reaches.

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
		if c.To == "*" {
			r.broadcast(p, c, now)
			continue
		}
		q := r.addressee(c.To)
		if name, ok := r.externalNamed(c.To); ok && q == nil {
			r.toExternal(p, name, c, now, false)
			continue
		}
		switch {
		case q == nil:
			r.notice(now, p.id, "%d %s addressed %q: no such pane", p.id, p.name, c.To)
			continue
		case q == p:
			r.notice(now, p.id, "%d %s addressed itself: not sent", p.id, p.name)
			continue
		case !r.mayAddress(p, q) && q.shell:
			r.notice(now, p.id, "%d %s addressed %d %s: not sent: it runs a shell, which would run it as commands (a person's link with it lets its group's turns in)", p.id, p.name, q.id, q.name)
			continue
		case !r.mayAddress(p, q):
			r.notice(now, p.id, "%d %s addressed %d %s: not sent: addressing panes not linked with it is off (--address, or prefix a in pane %d)", p.id, p.name, q.id, q.name, p.id)
			continue
		}
		r.send(p, q, c, now)
	}
}

// broadcast sends c to every other live pane p may address, in pane order, then to
// the external members it may address, by name.
func (r *Relay) broadcast(p *pane, c parser.Command, now time.Time) {
	n := 0
	for _, id := range r.order {
		if q := r.live(id); q != nil && q != p && r.mayAddress(p, q) {
			r.send(p, q, c, now)
			n++
		}
	}
	for _, name := range r.externalNames() {
		if r.toExternal(p, name, c, now, true) {
			n++
		}
	}
	if n == 0 {
		r.notice(now, p.id, "%d %s addressed every pane (*): no pane it may address", p.id, p.name)
	}
}

// mayAddress reports whether p's commands may reach q: members of one group always;
// others when addressing is on for the session or for p, unless q runs a shell (only a
// group the person made with it reaches a shell).
func (r *Relay) mayAddress(p, q *pane) bool {
	return p.group != nil && p.group == q.group || !q.shell && (r.cfg.Address || p.address)
}

// send delivers one command from p to q: typed, within the budgets, for a message or an
// action; logged only for thinking and state.
func (r *Relay) send(p, q *pane, c parser.Command, now time.Time) {
	if !c.Kind.Typed() {
		r.logKind(p, q, c, now)
		return
	}
	text := c.Body
	if c.Data != nil {
		text = strings.TrimRight(text, "\n") + "\n" + string(c.Data)
	}
	if strings.TrimSpace(text) == "" {
		r.notice(now, p.id, "%d %s sent %d %s an empty %s: not sent", p.id, p.name, q.id, q.name, c.Kind)
		return
	}
	if g := p.group; g != nil && g == q.group {
		if g.used >= g.budget {
			return // severed below already; nothing more this turn
		}
		g.used++
		r.queue(p, q, text, c, now)
		if g.used >= g.budget {
			r.sever(g, now)
		}
		return
	}
	k := pairOf(p.id, q.id)
	if r.direct[k] >= r.cfg.Turns {
		r.notice(now, p.id, "direct budget spent (%d/%d) between %d and %d: @relay from %d %s not sent; link them to continue", r.direct[k], r.cfg.Turns, k[0], k[1], p.id, p.name)
		return
	}
	r.direct[k]++
	r.queue(p, q, text, c, now)
}

// Refers reports whether ref names pane number id called name: ref (surrounding space
// ignored) is its number, or its name in any case. It is the one rule by which a name
// or a number becomes a pane: session.Resolve, which every client's command goes
// through, reads refs by it, and so does the relay's own addressing (@relay:NAME).
func Refers(ref string, id int, name string) bool {
	ref = strings.TrimSpace(ref)
	if n, err := strconv.Atoi(ref); err == nil {
		return n == id
	}
	return strings.EqualFold(ref, name)
}

// addressee returns the live pane to refers to (Refers), or nil.
func (r *Relay) addressee(to string) *pane {
	for _, id := range r.order {
		if p := r.live(id); p != nil && Refers(to, p.id, p.name) {
			return p
		}
	}
	return nil
}

// Gone says how the pane named or numbered to went, when it is one that exited or was
// closed (and no live pane has that name): "pane 1 a has exited (killed (SIGSEGV))".
func (r *Relay) Gone(to string) (string, bool) {
	for i := len(r.order) - 1; i >= 0; i-- { // the newest pane of a name first
		p := r.panes[r.order[i]]
		if !p.exited || !Refers(to, p.id, p.name) {
			continue
		}
		switch {
		case p.gone == "closed":
			return fmt.Sprintf("pane %d %s was closed", p.id, p.name), true
		case p.gone == "exited" || p.gone == "":
			return fmt.Sprintf("pane %d %s has exited", p.id, p.name), true
		}
		if code, ok := strings.CutPrefix(p.gone, "exited "); ok {
			return fmt.Sprintf("pane %d %s has exited %s", p.id, p.name, code), true // "(3)"
		}
		return fmt.Sprintf("pane %d %s has exited (%s)", p.id, p.name, p.gone), true
	}
	return "", false
}

// queue puts a delivery of text, c's words, from p into q's queue.
func (r *Relay) queue(p, q *pane, text string, c parser.Command, now time.Time) {
	words := cut(sanitize(text, true), r.cfg.Limit)
	r.nDeliv++
	d := &delivery{id: r.nDeliv, from: p.id, to: q.id, words: words, framed: frame(r.cfg.Template, p.name, p.id, words), phase: Waiting}
	d.entry = r.log(Entry{
		At: now, Delivery: d.id, From: p.id, FromName: p.name, To: q.id, ToName: q.name, ID: r.newID(now), Own: true,
		Size: utf8.RuneCountInString(words), Words: summary(words), Body: words, Phase: Waiting, Note: "addressed", // an @relay line or a [[RELAY]] block
		Kind: c.Kind, Thread: c.Thread,
	})
	q.queue = append(q.queue, d)
}

// newID is the message id of a delivery the relay queues by itself (Config.NewID).
func (r *Relay) newID(now time.Time) string {
	if r.cfg.NewID == nil {
		return ""
	}
	return r.cfg.NewID(now)
}

// renewDirect restores the direct budgets of every pair with pane id and forgets what
// its last group spent (a person linked it).
func (r *Relay) renewDirect(id int) {
	r.renewExternal(id)
	delete(r.left, id)
	for k := range r.direct {
		if k[0] == id || k[1] == id {
			delete(r.direct, k)
		}
	}
}
