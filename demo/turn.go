package demo

import (
	"strings"
	"time"
)

// A turn: a message submitted (or queued while busy), its answer computed at once and
// printed in steps, the first after the think time and, with a pace, the rest a few lines
// at a time; Escape or Ctrl+C cuts it short.

// step is some lines of an answer, printed after a delay.
type step struct {
	after time.Duration
	lines []string
}

// submit sends the draft as a message. An empty draft does nothing; while busy the message
// is queued, as Claude Code and Codex do, and answered after the current turn.
func (a *agent) submit() {
	msg := strings.TrimSpace(a.draft)
	if msg == "" {
		return
	}
	a.draft = ""
	a.scroll = 0
	a.inputs = append(a.inputs, msg)
	a.log.received(msg)
	if a.busy {
		a.queued = append(a.queued, msg)
		return
	}
	a.ask(msg)
}

// ask puts msg in the transcript and starts answering it.
func (a *agent) ask(msg string) {
	a.history = append(a.history, entry{kind: entryUser, text: msg})
	a.startTurn(msg, "")
}

// next starts the first queued message, if any, or exits once stdin has ended.
func (a *agent) next() {
	if len(a.queued) > 0 {
		msg := a.queued[0]
		a.queued = a.queued[1:]
		a.ask(msg)
		return
	}
	if a.inputClosed {
		a.quit(0)
	}
}

// startTurn starts answering msg: with fixed, or else with the reply generator's answer
// (a brief is only acknowledged). The answer's lines are printed in steps: the first
// after the think time, then, with a pace, a few lines at a time.
func (a *agent) startTurn(msg, fixed string) {
	a.busy = true
	a.turn++
	a.busySince = a.now()
	a.spin = 0
	a.asked = msg
	a.answer, a.counts = fixed, false
	switch {
	case fixed != "":
	case isBrief(msg):
		// agentmux --brief: noted, without spending an answer of the script.
		a.answer = a.cfg.Name + ": noted, thanks."
	default:
		a.answer, a.counts = a.answerFor(a.cfg.Name, msg, a.answers), true
	}
	a.replies = append(a.replies, a.answer)
	lines := strings.Split(a.answer, "\n")
	after := a.cfg.Think
	for len(lines) > 0 {
		k := len(lines)
		if a.cfg.Pace > 0 {
			k = min(k, 1+len(lines)%3)
		}
		a.steps = append(a.steps, step{after: after, lines: lines[:k]})
		lines, after = lines[k:], a.cfg.Pace
	}
}

// nextStep returns the time from the step before (or the turn's start) to the next step
// of the answer, and false when none is due.
func (a *agent) nextStep() (time.Duration, bool) {
	if len(a.steps) == 0 {
		return 0, false
	}
	return a.steps[0].after, true
}

// step prints the next lines of the answer; after the last the turn ends.
func (a *agent) step() {
	if len(a.steps) == 0 {
		return // interrupted since it was due
	}
	s := a.steps[0]
	a.steps = a.steps[1:]
	a.stepped++
	text := strings.Join(s.lines, "\n")
	if n := len(a.history); n > 0 && a.history[n-1].kind == entryReply && !a.history[n-1].done {
		a.history[n-1].text += "\n" + text
	} else {
		a.history = append(a.history, entry{kind: entryReply, text: text})
	}
	if len(a.steps) == 0 {
		a.endTurn()
	}
	a.render()
}

// finishTurn prints the rest of the busy turn's answer at once.
func (a *agent) finishTurn() {
	for turn := a.turn; a.busy && a.turn == turn && len(a.steps) > 0; {
		a.step()
	}
}

// endTurn ends the busy turn, its answer printed.
func (a *agent) endTurn() {
	a.busy = false
	a.scroll = 0
	a.history[len(a.history)-1].done = true
	a.log.answered(a.answer)
	a.hooked = append(a.hooked, [2]string{a.asked, a.answer})
	if a.counts {
		a.answers++
	}
	if a.cfg.exitAfter > 0 && a.answers >= a.cfg.exitAfter {
		a.quit(a.cfg.exitCode)
	} else {
		a.next()
	}
}

// interrupt cuts a busy turn short and drops the queued messages.
func (a *agent) interrupt() {
	if !a.busy {
		return
	}
	a.busy = false
	a.steps = nil
	a.queued = nil
	a.replies[len(a.replies)-1] = "" // interrupted: no answer
	a.interrupted++
	a.history = append(a.history, entry{kind: entryNote, text: interruptedNote})
	if a.inputClosed {
		a.quit(0)
	}
}
