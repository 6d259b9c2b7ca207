package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentmux/agentmux/keys"
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
	a := &Asks{Since: now, shown: now}
	if ask, ok := parser.ReadAsk(p.term.ScreenLines()); ok {
		a.Question, a.Options, a.Context = ask.Question, ask.Options, ask.Context
	}
	if a.Question == "" {
		a.Question = p.hookAsk // the program's own words, from its notification hook
	}
	if p.ask != nil {
		if sameAsk(p.ask, a) {
			return p.ask
		}
		if p.ask.Question == a.Question || p.ask.Options == nil || a.Options == nil {
			a.Since = p.ask.Since // the same prompt, redrawn or read better
		}
		if p.ask.Options != nil && slices.Equal(p.ask.Options, a.Options) {
			a.shown = p.ask.shown // the same choices, standing since then
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

// answerHold is how long after the person's last key at a prompt an answer from
// elsewhere (Answer) is refused: they are answering it at the keyboard. Keys before
// the prompt appeared (the message that led to it) do not count.
const answerHold = 3 * time.Second

// askSettle is how long a prompt's choices stand on the screen before an answer from
// elsewhere is typed into it: an answer that comes sooner is held until then. Programs
// drop keys that come while they draw a prompt: Claude Code 2.1.332 dropped a key
// typed 0 or 100 ms after its permission prompt was drawn and took one at 200 ms and
// later (measured with the real CLI). A person reads the prompt first; a script or an
// agent answering through the socket may not, and its answer would be lost while the
// pane kept saying it needs you.
const askSettle = 300 * time.Millisecond

// heldAnswer is an answer (Answer) that waits for its prompt to settle.
type heldAnswer struct {
	ask  *Asks      // the prompt it answers, as it was read then
	key  string     // the key of the choice it picks
	when time.Time  // when it was given
	at   time.Time  // when it is typed (the choices' shown + askSettle)
	done chan error // capacity 1: nil once typed, why once dropped (resolve)
}

// resolve says how the held answer ended; the loop calls it once, as it drops p.held.
func (h *heldAnswer) resolve(err error) { h.done <- err }

// answerTyped is the outcome of an answer typed at once.
func answerTyped() <-chan error {
	c := make(chan error, 1)
	c <- nil
	return c
}

// ErrNoPrompt means an answer found no prompt to answer: the pane does not need the
// person (any more: answered in the terminal meanwhile), or the prompt it shows now is
// not the one the answer was for.
var ErrNoPrompt = errors.New("no prompt waits for this answer")

// ErrAnswered means the prompt an answer is for has had one typed already: the program
// left it standing (or has yet to redraw), and a second answer would be typed into
// whatever the program reads next.
var ErrAnswered = errors.New("answered already")

// answered reports whether ask is the prompt whose answer was typed into p: the same
// question and choices, standing since the same time (a prompt asked again after the
// program worked is a new one).
func (p *pane) answered(ask *Asks) bool {
	a := p.answeredAsk
	return a != nil && ask != nil && a.Since.Equal(ask.Since) && a.Question == ask.Question && slices.Equal(a.Options, ask.Options)
}

// Answer picks option of the prompt pane id waits at, by typing the option's key as a
// person would (the same path as Key: the relay hears of it first, and it goes through
// the typing gate, never into a delivery half typed). option is a choice's key ("1"),
// the start of its label ("yes" for "Yes, proceed"), or yes / no for the first / the
// last choice when no label starts so. question, when not "", must be what the prompt
// asks now: an answer for a prompt that is gone is refused, never typed into whatever
// replaced it. It is refused too while the person acts at that prompt at the keyboard
// (a key since it appeared, within answerHold): the answer is never typed over them.
// An answer that comes less than askSettle after the prompt's choices appeared is held
// until then and typed only if the same prompt still waits and no one typed into the
// pane meanwhile (a second answer for it meanwhile is refused). It returns the choice
// picked and its outcome: a channel that receives nil once the key is typed (at once,
// or when a held answer's time comes) or why it was dropped (ErrNoPrompt: the prompt
// went, or someone typed; ErrNoPane: the pane was closed or restarted). A session that
// stops first leaves it waiting: select on the session's end too (AnswerTyped does).
func (s *Session) Answer(id int, option, question string) (parser.Option, <-chan error, error) {
	var picked parser.Option
	var typed <-chan error
	err := s.command(func() error {
		p := s.pane(id)
		switch {
		case p == nil:
			return fmt.Errorf("answer %d: %w", id, ErrNoPane)
		case p.exited:
			return fmt.Errorf("answer %d %s: %w", id, p.name, ErrExited)
		}
		m := s.member(p)
		if m.State != NeedsYou || m.Asks == nil || len(m.Asks.Options) == 0 {
			return fmt.Errorf("answer %d %s: it does not wait at a prompt with choices (answered meanwhile?): %w", id, p.name, ErrNoPrompt)
		}
		if question != "" && question != m.Asks.Question {
			return fmt.Errorf("answer %d %s: it now asks %q, not %q: %w", id, p.name, m.Asks.Question, question, ErrNoPrompt)
		}
		if p.answered(m.Asks) {
			return fmt.Errorf("answer %d %s: this prompt was %w; if the program did not take it, answer at its pane", id, p.name, ErrAnswered)
		}
		now := s.clock.Now()
		if !p.personKey.Before(m.Asks.Since) && now.Before(p.personKey.Add(answerHold)) {
			return fmt.Errorf("answer %d %s: someone is answering it at the keyboard; answer there, or again in a moment", id, p.name)
		}
		o, err := pickOption(m.Asks.Options, option)
		if err != nil {
			return fmt.Errorf("answer %d %s: %w", id, p.name, err)
		}
		if at := m.Asks.shown.Add(askSettle); now.Before(at) {
			if p.held != nil {
				return fmt.Errorf("answer %d %s: another answer to this prompt is about to be typed", id, p.name)
			}
			p.held = &heldAnswer{ask: m.Asks, key: o.Key, when: now, at: at, done: make(chan error, 1)}
			typed = p.held.done
		} else {
			s.typeAnswer(p, o.Key, now)
			p.answeredAsk = m.Asks
			typed = answerTyped()
		}
		picked = o
		return nil
	})
	return picked, typed, err
}

// AnswerTyped is Answer that returns once the choice is typed, or with why it was not
// (a held answer dropped, the session stopped).
func (s *Session) AnswerTyped(id int, option, question string) (parser.Option, error) {
	o, typed, err := s.Answer(id, option, question)
	if err != nil {
		return o, err
	}
	select {
	case err = <-typed:
		return o, err
	case <-s.done:
		select {
		case err = <-typed: // typed as the session stopped: that is the word
			return o, err
		default:
			return o, fmt.Errorf("answer %d: %w", id, ErrStopped)
		}
	}
}

// typeAnswer types key into pane p as the person's keys. The prompt takes them: they
// are no draft in the pane's input (which stays as it was), though the relay hears of
// a key (the pane's quiet time counts from it). Counted as a draft, the key made the
// relay say after every answer that a draft was taken as gone.
func (s *Session) typeAnswer(p *pane, key string, now time.Time) {
	mode, _ := s.mode(p)
	s.act(s.rl.Handle(s.drafts.event(p.id), now))
	for _, r := range key {
		s.toPerson(p, keys.Encode(keys.Key{Code: keys.KeyRune, Rune: r}, mode))
	}
}

// typeHeld types the held answers that are due, each only if its prompt still waits
// with the same choices and no one typed into the pane since it was given; the others
// are dropped.
func (s *Session) typeHeld(now time.Time) {
	for _, p := range s.panes {
		h := p.held
		if h == nil || now.Before(h.at) {
			continue
		}
		p.held = nil
		m := s.member(p)
		switch {
		case m.State != NeedsYou || m.Asks == nil || !m.Asks.Since.Equal(h.ask.Since) || m.Asks.Question != h.ask.Question ||
			!slices.Equal(m.Asks.Options, h.ask.Options):
			s.log.Info("held answer dropped: its prompt is gone", "pane", p.id, "key", h.key)
			h.resolve(fmt.Errorf("answer %d %s: its prompt went before the answer could be typed: %w", p.id, p.name, ErrNoPrompt))
		case !p.personKey.Before(h.when):
			s.log.Info("held answer dropped: someone typed into the pane meanwhile", "pane", p.id, "key", h.key)
			h.resolve(fmt.Errorf("answer %d %s: someone typed into the pane before the answer could be: %w", p.id, p.name, ErrNoPrompt))
		default:
			s.typeAnswer(p, h.key, now)
			p.answeredAsk = h.ask
			h.resolve(nil)
		}
	}
}

// nextHeld returns when the earliest held answer is due; false when none waits.
func (s *Session) nextHeld() (time.Time, bool) {
	var at time.Time
	ok := false
	for _, p := range s.panes {
		if p.held != nil && (!ok || p.held.at.Before(at)) {
			at, ok = p.held.at, true
		}
	}
	return at, ok
}

// pickOption finds option among opts: a key, a label (or its start, without regard to
// case), or yes / no for the first / last choice.
func pickOption(opts []parser.Option, option string) (parser.Option, error) {
	want := strings.ToLower(strings.TrimSpace(option))
	if want == "" {
		return parser.Option{}, errors.New("no choice given")
	}
	for _, o := range opts {
		if o.Key == want || strings.ToLower(o.Label) == want {
			return o, nil
		}
	}
	for _, o := range opts {
		if strings.HasPrefix(strings.ToLower(o.Label), want) {
			return o, nil
		}
	}
	switch want {
	case "yes", "y":
		return opts[0], nil
	case "no", "n":
		return opts[len(opts)-1], nil
	}
	var names []string
	for _, o := range opts {
		names = append(names, o.Key+" "+o.Label)
	}
	return parser.Option{}, fmt.Errorf("no choice %q (the choices: %s)", option, strings.Join(names, "; "))
}

// HookAsk records that the program in the pane named or numbered pane waits for the
// person's permission, as its notification hook said (text: its words, e.g. "Claude
// needs your permission to use Bash"): the pane needs the person even where its screen
// is not read as a prompt, until they type into it, its screen says it works again
// (busy, after it was not since the hook: a program may run the hook before it draws
// its prompt), or its turn ends. A pane started without hooks ignores it.
func (s *Session) HookAsk(pane, text, source string) error {
	return s.command(func() error {
		p := s.find(pane)
		if p == nil || p.exited {
			return fmt.Errorf("hook from %q: %w", pane, ErrNoPane)
		}
		if !p.hooks {
			return nil
		}
		s.log.Debug("hook: asks", "pane", p.id, "source", source)
		p.hookAsk = strings.TrimSpace(text)
		if p.hookAsk == "" {
			p.hookAsk = "(waits for your permission)"
		}
		p.askRead-- // read the ask again, with the hook's words
		// Busy: its prompt is yet to come (a busy screen ends the ask once it was not).
		ps, _ := s.rl.Pane(p.id)
		p.hookAskOut = ps.State != parser.Busy
		return nil
	})
}
