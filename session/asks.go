package session

import (
	"slices"
	"time"

	"github.com/agentmux/agentmux/parser"
)

// asksOf is what pane p asks while it needs the person (needsYou), read from its
// screen (parser.ReadAsk) once per output it printed, nil when it does not need the
// person. Since is when it began to: kept while the question stays the same. Loop only.
func (s *Session) asksOf(p *pane, needsYou bool, now time.Time) *Asks {
	if !needsYou {
		p.ask = nil
		return nil
	}
	if p.ask != nil && p.askRead == p.outputs {
		return p.ask
	}
	p.askRead = p.outputs
	a := &Asks{Since: now}
	if ask, ok := parser.ReadAsk(p.term.ScreenText()); ok {
		a.Question, a.Options, a.Context = ask.Question, ask.Options, ask.Context
	}
	if p.ask != nil {
		if sameAsk(p.ask, a) {
			return p.ask
		}
		if p.ask.Question == a.Question || p.ask.Options == nil || a.Options == nil {
			a.Since = p.ask.Since // the same prompt, redrawn or read better
		}
	}
	p.ask = a
	return a
}

// sameAsk reports whether a and b ask the same (Since aside).
func sameAsk(a, b *Asks) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Question == b.Question && slices.Equal(a.Options, b.Options) && slices.Equal(a.Context, b.Context)
}

// Short is the ask as a border's title shows it ("Do you want to proceed? 1 Yes 2
// No"); "" when nothing was read.
func (a *Asks) Short() string {
	if a == nil {
		return ""
	}
	return parser.Ask{Question: a.Question, Options: a.Options}.Short()
}
