package relay

import (
	"slices"
	"strings"
	"time"

	"github.com/agentmux/agentmux/parser"
)

// External members: names that are not panes (a protocol client of the session
// socket that said HELLO with an agent name). The host registers them (External
// events); a pane's relay command addressed to one, or its broadcast, then becomes
// Mail for it, which the host hands on (TakeMail), instead of a misaddressed notice.
//
// A member that is not a pane counts like a pane the sender is not linked with (it can
// be in no group): its commands need addressing to be on for the sender (--address, or
// the pane's own switch), since text an agent merely shows could otherwise reach a
// program that acts on it; and a typed kind (message, action) spends a turn of the
// direct budget of --turns per (member, pane) pair, the budget the member's own
// messages into that pane spend (message.go), renewed when a person links the pane.
// Thinking and state reach it too, costing no turn, as they cost none between panes.

// External registers Name as a member that is not a pane, or forgets it (Gone).
type External struct {
	Name string
	Gone bool
}

func (External) isEvent() {}

// external registers or forgets an external member's name.
func (r *Relay) externalMember(e External) {
	k := strings.ToLower(strings.TrimSpace(e.Name))
	if k == "" {
		return
	}
	if e.Gone {
		delete(r.members, k)
		return
	}
	if r.members == nil {
		r.members = map[string]string{}
	}
	r.members[k] = strings.TrimSpace(e.Name)
}

// externalNamed returns the registered external member named to (case-insensitively).
func (r *Relay) externalNamed(to string) (string, bool) {
	name, ok := r.members[strings.ToLower(strings.TrimSpace(to))]
	return name, ok
}

// externalNames returns the registered external members' names, sorted.
func (r *Relay) externalNames() []string {
	names := make([]string, 0, len(r.members))
	for _, n := range r.members {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// toExternal hands c from pane p to the external member name as Mail, within the
// opt-in and the pair's budget; quiet (a broadcast) notes nothing when addressing is
// off. It reports whether the mail went.
func (r *Relay) toExternal(p *pane, name string, c parser.Command, now time.Time, quiet bool) bool {
	if !(r.cfg.Address || p.address || p.group != nil && p.group.remote == name) {
		if !quiet {
			r.notice(now, p.id, "%d %s addressed %s (a client): not sent: addressing members it is not linked with is off (--address, or turn it on for %d)", p.id, p.name, name, p.id)
		}
		return false
	}
	text := c.Body
	if c.Data != nil {
		text = strings.TrimRight(text, "\n") + "\n" + string(c.Data)
	}
	if strings.TrimSpace(text) == "" {
		r.notice(now, p.id, "%d %s sent %s an empty %s: not sent", p.id, p.name, name, c.Kind)
		return false
	}
	if c.Kind.Typed() {
		k := extPair{strings.ToLower(name), p.id}
		if r.external[k] >= r.cfg.Turns {
			r.notice(now, p.id, "direct budget spent (%d/%d) between %d and %s: @relay from %d %s not sent; link %d to continue", r.external[k], r.cfg.Turns, p.id, name, p.id, p.name, p.id)
			return false
		}
		if r.external == nil {
			r.external = map[extPair]int{}
		}
		r.external[k]++
	}
	r.mail = append(r.mail, Mail{To: name, From: p.name, FromPane: p.id, At: now, Text: text, Kind: c.Kind, Thread: c.Thread})
	r.notice(now, p.id, "%d %s → %s (client)  %s  %q", p.id, p.name, name, c.Kind, summary(text))
	return true
}
