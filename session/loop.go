package session

import (
	"strings"
	"time"

	"github.com/agentmux/agentmux/relay"
)

// This file is the loop: the one goroutine that changes the session, the watchers that
// feed it each pane's output and exit, its one timer, and how it writes to the panes
// (the relay's actions, and a person's input through the typing gate).

// run is the loop: the one goroutine that changes the session.
func (s *Session) run() {
	defer close(s.done)
	defer s.stopTimer()
	for {
		select {
		case <-s.stop:
			return
		case f := <-s.cmds:
			s.timerDue()
			f()
		case id := <-s.outputs:
			s.timerDue()
			s.onOutput(id)
		case id := <-s.quiets:
			s.timerDue()
			s.onQuiet(id)
		case p := <-s.exits:
			s.timerDue()
			s.onExit(p)
		case <-s.timerC:
			s.timerC = nil
			s.onTimer()
		}
		s.mail()
		s.turns()
		s.inputResets()
		s.publish(true)
		s.armTimer()
		for _, c := range s.answered {
			close(c)
		}
		s.answered = s.answered[:0]
	}
}

// timerDue runs a timer that has fired before whatever else woke the loop, so a test's
// fake clock and a barrier (Sync) see the same order every time.
func (s *Session) timerDue() {
	if s.timerC == nil {
		return
	}
	select {
	case <-s.timerC:
		s.timerC = nil
		s.onTimer()
	default:
	}
}

// onTimer observes held output that is due, advances the relay's clock and types the
// held answers that are due.
func (s *Session) onTimer() {
	now := s.clock.Now()
	for _, id := range s.pace.due(now) {
		if p := s.pane(id); p != nil {
			s.observe(p, now)
		} else {
			s.pace.forget(id)
		}
	}
	s.act(s.rl.Tick(now))
	s.typeHeld(now)
}

// armTimer keeps the loop's one timer for the earliest of the relay's next wake-up, the
// earliest held output and the earliest held answer; no timer when none is pending.
func (s *Session) armTimer() {
	at, ok := s.rl.NextWake()
	if pt, pok := s.pace.next(); pok && (!ok || pt.Before(at)) {
		at, ok = pt, true
	}
	if ht, hok := s.nextHeld(); hok && (!ok || ht.Before(at)) {
		at, ok = ht, true
	}
	if !ok {
		s.stopTimer()
		return
	}
	if s.timerC != nil && s.timerAt.Equal(at) {
		return
	}
	s.stopTimer()
	s.timerAt = at
	s.timerC, s.timerStop = s.clock.Timer(at)
}

// stopTimer stops the armed timer, if any.
func (s *Session) stopTimer() {
	if s.timerStop != nil {
		s.timerStop()
	}
	s.timerC, s.timerStop = nil, nil
}

// watch forwards pane p's output signals and its exit to the loop. After each signal it
// waits to be re-armed (pacing), so a flood coalesces in the process's signal; while it
// waits, a pause of the program's output is forwarded too, so the loop can observe the
// held end of a burst at once. (A pause signalled while nothing is held is stale by the
// time the next output is held: onOutput asks the process itself.)
func (s *Session) watch(p *pane) {
	// p is this process's pane value: a respawn starts a new one (spawn).
	updates, done, quiet := p.proc.Updates(), p.proc.Done(), quietOf(p.proc)
	for {
		select {
		case <-updates:
		case <-done:
			s.sendExit(p)
			return
		case <-s.stop:
			return
		}
		if !s.send(s.outputs, p.id) {
			return
		}
	held:
		for {
			select {
			case <-p.rearm:
				break held
			case <-quiet:
				if !s.send(s.quiets, p.id) {
					return
				}
			case <-done:
				s.sendExit(p)
				return
			case <-s.stop:
				return
			}
		}
	}
}

// sendExit hands p's exit to the loop unless the session stops first.
func (s *Session) sendExit(p *pane) {
	select {
	case s.exits <- p:
	case <-s.stop:
	}
}

// send hands id to the loop unless the session stops first.
func (s *Session) send(ch chan<- int, id int) bool {
	select {
	case ch <- id:
		return true
	case <-s.stop:
		return false
	}
}

// onOutput is a pane's output signal: observed now, or held for its slot.
func (s *Session) onOutput(id int) {
	p := s.pane(id)
	if p == nil {
		return
	}
	now := s.clock.Now()
	if s.pace.offer(id, now) || (isQuiet(p.proc) && s.pace.quiet(id)) {
		s.observe(p, now)
	}
}

// onQuiet is a pane's pause while its output may be held: the end of a burst, observed
// at once if pacing allows it (once per interval).
func (s *Session) onQuiet(id int) {
	p := s.pane(id)
	if p == nil || !isQuiet(p.proc) {
		return // printing again: its next signal is its output's
	}
	if s.pace.quiet(id) {
		s.observe(p, s.clock.Now())
	}
}

// observe hands pane p's new output to the relay, raises its alerts, tells subscribers
// and re-arms its watcher.
func (s *Session) observe(p *pane, now time.Time) {
	s.pace.observed(p.id, now)
	p.outputs++
	if n := p.alerts.count(); n != p.alertsSeen {
		p.alertsSeen = n
		text := ""
		if note := p.alerts.notice(); note != p.noteSeen {
			p.noteSeen, text = note, note
		}
		s.emit(Alert{Pane: p.id, Text: text})
	}
	if text, n := p.alerts.clipboard(); n != p.clipsSeen {
		p.clipsSeen = n // writes between two observations: the newest one stands
		s.emit(Clipboard{Pane: p.id, Text: text})
	}
	s.emit(Output{Pane: p.id, Quiet: isQuiet(p.proc)})
	if !p.exited {
		s.act(s.rl.Handle(relay.Output{Pane: p.id}, now))
		s.checkShell(p, now)
	}
	select {
	case p.rearm <- struct{}{}:
	default:
	}
}

// onExit records that pane p's program exited, after observing its last output. The
// exit of a program a respawn replaced (p is no longer the pane of its number) is
// only logged.
func (s *Session) onExit(p *pane) {
	id := p.id
	if s.pane(id) != p || p.exited {
		s.log.Debug("replaced program exited", "pane", id)
		return
	}
	p.linked = s.groupOf(id)
	now := s.clock.Now()
	s.observe(p, now)
	p.exited, p.code = true, p.proc.ExitCode()
	s.pace.forget(id)
	delete(s.drafts, id)
	s.gate.open(id) // nothing more reaches a program that is gone
	s.act(s.rl.Handle(relay.Exit{Pane: id, Status: ExitText(p.code)}, now))
	s.log.Info("pane exited", "pane", id, "code", p.code)
	s.publish(true) // the relay's notices about it first: the exit is the last word
	s.emit(Exit{Pane: id, Code: p.code})
}

// act writes the relay's actions to their panes. A Type closes the pane's gate and its
// Submit opens it again, writing what the person sent meanwhile right after the carriage
// return. A typed delivery leaves the relay only by its Submit or with its pane (the
// relay drops it on Exit), so the gate has no other way to stay closed: onExit and Close
// open it. Before a Submit's carriage return is written, the write-ahead of the
// deliveries it submits runs (journal.go).
func (s *Session) act(acts []relay.Action) {
	for _, a := range acts {
		p := s.pane(a.Target())
		if p == nil || p.exited || p.proc == nil {
			continue
		}
		switch a := a.(type) {
		case relay.Type:
			s.typing(a)
		case relay.Submit:
			s.journal(a.Pane)
		}
		p.proc.Write(a.Bytes())
		switch a.(type) {
		case relay.Type:
			s.gate.close(p.id)
		case relay.Submit:
			s.release(p)
		}
	}
}

// mail hands the relay's mail to the external members' sinks: a pane's relay command
// addressed to one, or a notice for one as a sender. Mail for a name that is no longer
// registered is dropped (the member left).
func (s *Session) mail() {
	for _, m := range s.rl.TakeMail() {
		notice := m.Kind == "" && m.Link == ""
		if notice { // a notice for a sender: subscribers see it too
			s.emit(Mail{To: m.To, Text: m.Text, Delivery: m.Delivery, ID: m.ID})
		}
		sink := s.external[strings.ToLower(m.To)]
		if sink == nil {
			s.log.Debug("mail for no member", "to", m.To)
			continue
		}
		msg := Message{From: m.From, FromPane: m.FromPane, To: m.To, Text: m.Text, Kind: string(m.Kind), Thread: m.Thread,
			Link: m.Link, Spent: m.Spent, End: m.End, Rename: m.Rename}
		if notice {
			msg.From, msg.Kind = "agentmux", "state"
		}
		sink(msg)
	}
}

// turns hands the panes' finished turns to the subscribers.
func (s *Session) turns() {
	for _, t := range s.rl.TakeTurns() {
		s.emit(Turn{Pane: t.Pane, Name: t.Name, Text: t.Words})
		if p := s.pane(t.Pane); p != nil {
			s.readStore(p)
		}
	}
}

// inputResets starts the draft tracking of each pane the relay says is reset (it
// cleared the input, typed a draft back, or found the input empty on the screen) again
// from what it says, before the next key a person types.
func (s *Session) inputResets() {
	for _, in := range s.rl.TakeInputResets() {
		if p := s.pane(in.Pane); p != nil && !p.exited {
			s.drafts.reset(in.Pane, in.Text)
		}
	}
}

// release opens pane p's gate and writes what it held, in order.
func (s *Session) release(p *pane) {
	for _, b := range s.gate.open(p.id) {
		if !p.exited {
			p.proc.Write(b)
		}
	}
}

// toPerson writes b, which a client sends pane p for the person, through its gate, and
// grants the pane's echo its early observation.
func (s *Session) toPerson(p *pane, b []byte) {
	if len(b) == 0 || p.exited {
		return
	}
	p.hookAsk = "" // the person acted on it
	p.personKey = s.clock.Now()
	if s.opts.Typing != nil {
		s.opts.Typing()
	}
	if !s.gate.hold(p.id, b) {
		p.proc.Write(b)
		if e, ok := p.proc.(expecter); ok {
			e.Expect()
		}
	}
	if s.pace.isHeld(p.id) {
		s.observe(p, s.clock.Now())
	}
	s.pace.grant(p.id)
}
