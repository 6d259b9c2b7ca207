package relay

import (
	"time"

	"github.com/agentmux/agentmux/parser"
)

// Batching: when a target becomes ready, everything waiting for it goes in one paste,
// oldest first within its mode, each part framed with its attribution and a blank line
// between, at most MaxBatch parts; the rest waits for the next turn. A batch holds
// messages of one mode (urgent, important or sequential: the most urgent first); the
// brief and the delivery notices go alone, since the turn answering them is not
// relayed. Each part that came through a group spent its turn of the group's budget
// when it was queued, so one batch of three parts from a group spends three turns.

// batch returns how many of p's waiting deliveries the next paste takes.
func (r *Relay) batch(p *pane) int {
	head := p.queue[0]
	if head.quiet || head == p.brief {
		return 1
	}
	n := 1
	for n < len(p.queue) && n < r.cfg.MaxBatch {
		d := p.queue[n]
		if d.opts.Mode != head.opts.Mode || d.quiet || d == p.brief || !d.opts.Person && r.capHeld(p) != "" {
			break
		}
		n++
	}
	return n
}

// ready decides what happens for p's waiting deliveries at now: typed, or one step of
// an urgent message or a draft set aside, or a phase saying why they wait.
func (r *Relay) ready(p *pane, now time.Time, acts []Action) []Action {
	if p.draft && r.inputGone(p, now) {
		r.dropDraft(p, now) // the screen shows it gone: deliveries go
	}
	if p.draft && !r.draftShown(p) {
		var cleared bool
		if acts, cleared = r.unshown(p, now, acts); cleared || len(p.queue) == 0 {
			return acts
		}
	}
	if why := r.capHeld(p); why != "" && !r.personFirst(p) {
		r.setPhase(p.queue[0], Held, now, why)
		return acts
	}
	if p.queue[0].opts.Mode == Urgent {
		return r.urgent(p, now, acts)
	}
	why, blocked := r.blocked(p, now)
	switch {
	case !blocked:
		return append(acts, r.typeNext(p, now))
	case why == WaitingPerson && r.stale(p, now):
		return r.setAside(p, now, acts)
	}
	r.setPhase(p.queue[0], why, now, "")
	return acts
}

// urgent moves p's urgent message on: a busy agent is interrupted first and given
// UrgentDelay to show idle; then the input line is cleared, a draft set aside, and the
// message typed once the screen shows the row empty. A pane still starting waits, but
// one busy with a turn a person started in it before it counted as started is
// interrupted like any other: it runs, and it counts as started from then on, so the
// clear and the message follow once it shows idle (its screen needs no --idle of quiet).
// The clear keys never run into the interrupt: unless the pane printed since, they
// wait clearGap after it (a program that shows neither busy nor idle may count as idle
// a moment after it was interrupted).
func (r *Relay) urgent(p *pane, now time.Time, acts []Action) []Action {
	d := p.queue[0]
	switch {
	case p.held:
		r.setPhase(d, Held, now, "")
		return acts
	case p.state == parser.NeedsApproval, r.person == p.id,
		!p.lastKey.IsZero() && now.Before(p.lastKey.Add(r.cfg.TypingHold)),
		p.draft && !r.draftShown(p):
		r.setPhase(d, WaitingPerson, now, "")
		return acts
	case !p.started && !(p.personTurn() && p.printed && p.state == parser.Busy):
		r.setPhase(d, Waiting, now, "")
		return acts
	case !p.started:
		r.start(p, now) // busy with a person's turn: it finished starting
	}
	if p.interruptFor != d {
		// An interrupt for a message gone since counts no more, unless it is so recent
		// that the agent may not have shown it yet: a second Escape at once can mean
		// more than the first (Claude Code opens its rewind menu on a double Escape).
		if p.interrupted.IsZero() || !now.Before(p.interrupted.Add(r.cfg.UrgentDelay)) {
			p.interrupted = time.Time{}
		}
		p.interruptFor = d
	}
	if !p.quietFor(now, r.cfg) {
		switch {
		case p.interrupted.IsZero() && p.state != parser.Idle:
			p.interrupted = now
			r.setPhase(d, Waiting, now, "urgent: interrupted")
			return append(acts, Keys{Pane: p.id, Seq: p.prof.Interrupt(), Purpose: Interrupt})
		case p.interrupted.IsZero() || now.Before(p.interrupted.Add(r.cfg.UrgentDelay)):
			return acts // settling after its idle title, or interrupted: wait a little
		}
	}
	if !p.interrupted.IsZero() && !p.lastOut.After(p.interrupted) && now.Before(p.interrupted.Add(r.clearGap())) {
		return acts // quiet, but nothing from it since the interrupt: the clear keys must not run into it
	}
	p.interrupted, p.interruptFor = time.Time{}, nil
	return r.setAside(p, now, acts)
}
