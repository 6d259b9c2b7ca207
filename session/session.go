package session

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/vterm"
)

// Errors the commands return.
var (
	// ErrNoPane means no live pane has that number (or name).
	ErrNoPane = errors.New("no such pane")
	// ErrSelf means a pane was asked to link with itself.
	ErrSelf = errors.New("a pane cannot be linked with itself")
	// ErrNotLinked means the pane is in no group.
	ErrNotLinked = errors.New("not linked")
	// ErrTooFew means linking needs two running panes.
	ErrTooFew = errors.New("linking needs two running panes")
	// ErrExited means the pane's program has exited.
	ErrExited = errors.New("pane has exited")
	// ErrStopped means the session has been stopped.
	ErrStopped = errors.New("session stopped")
	// ErrNameTaken means a member already has that name.
	ErrNameTaken = errors.New("name taken")
)

// defaultInterval is the least time between two observations of a pane's output.
const defaultInterval = time.Second / 60

// Session is the core. Every method is safe to call from any goroutine: commands run on
// the session's loop in the order they were called, and nothing a caller does can block
// the loop except its own commands.
type Session struct {
	opts  Options
	log   *slog.Logger
	clock Clock

	cmds    chan func()
	outputs chan int
	exits   chan int
	stop    chan struct{}
	done    chan struct{}
	stopped sync.Once
	wg      sync.WaitGroup // watchers and pane closers

	// Owned by the loop (written before it starts, then only by it).
	panes     []*pane
	rl        *relay.Relay
	profiles  parser.Profiles
	gate      gate
	drafts    drafts
	pace      pacing
	timerC    <-chan time.Time
	timerStop func()
	timerAt   time.Time
	subs      []*Subscription
	members   map[int]Member
	status    string
	logged    int
	open      map[int]Entry // deliveries published and not final
	external  map[string]Sink
	colors    vterm.Colors
	kitty     bool
	// answered are the calls that ran this step: closed once its events are out and the
	// timer is re-armed, so a caller that waits sees everything its command caused.
	answered []chan struct{}
}

// Start starts every pane of o at its size, opens them in the relay (linked with
// o.Link), and runs the loop. On an error the panes already started are ended.
func Start(o Options) (*Session, error) {
	if len(o.Panes) == 0 {
		return nil, errors.New("no panes to start")
	}
	if o.Start == nil {
		o.Start = StartPTY
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	switch {
	case o.OutputInterval == 0:
		o.OutputInterval = defaultInterval
	case o.OutputInterval < 0:
		o.OutputInterval = 0
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Session{
		opts:     o,
		log:      log,
		clock:    o.Clock,
		cmds:     make(chan func(), 64),
		outputs:  make(chan int),
		exits:    make(chan int),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
		rl:       relay.New(relay.Config{Turns: o.Turns, Idle: o.Idle}),
		profiles: o.Profiles,
		drafts:   drafts{},
		pace:     newPacing(o.OutputInterval),
		members:  map[int]Member{},
		open:     map[int]Entry{},
		external: map[string]Sink{},
		colors:   o.Colors,
		kitty:    o.KittyKeyboard,
	}
	if s.profiles == nil {
		s.profiles = parser.Builtins()
	}
	now := s.clock.Now()
	for i, spec := range o.Panes {
		p, err := s.startPane(i+1, spec)
		if err != nil {
			s.closeAll()
			return nil, err
		}
		s.panes = append(s.panes, p)
		s.rl.Handle(relay.Open{Pane: p.id, Name: p.name, Profile: p.profile, Screen: termScreen{p.term}}, now)
	}
	if o.Link {
		s.rl.Handle(relay.LinkAll{Panes: s.liveIDs()}, now)
	}
	s.publish(false) // the start-up state is the baseline: no events for it
	for _, p := range s.panes {
		s.wg.Go(func() { s.watch(p) })
	}
	go s.run()
	return s, nil
}

// startPane starts pane id.
func (s *Session) startPane(id int, spec PaneSpec) (*pane, error) {
	cols, rows := max(spec.Cols, 1), max(spec.Rows, 1)
	sink := &replySink{}
	al := &alerts{}
	term := vterm.New(vterm.Options{
		Cols:          cols,
		Rows:          rows,
		HistoryLimit:  s.opts.HistoryLimit,
		Reply:         sink.write,
		Colors:        s.colors,
		KittyKeyboard: s.kitty,
		Version:       s.opts.Version,
		OnEvent: func(ev vterm.Event) {
			al.record(ev)
			s.log.Debug("pane event", "pane", id, "kind", ev.Kind, "text", ev.Text)
		},
	})
	proc, err := s.opts.Start(ptyhost.Spec{Argv: spec.Argv, Cols: cols, Rows: rows, Pane: id, Name: spec.Name}, term)
	if err != nil {
		return nil, fmt.Errorf("start pane %d %q: %w", id, spec.Name, err)
	}
	sink.attach(proc)
	prof := s.profiles.For(spec.Argv[0])
	if named, ok := s.profiles[spec.Profile]; ok && spec.Profile != "" {
		prof = named
	}
	s.log.Info("pane started", "pane", id, "name", spec.Name, "argv", spec.Argv, "cols", cols, "rows", rows)
	return &pane{
		id: id, name: spec.Name, argv: spec.Argv, profile: prof, term: term, proc: proc,
		screen: &Screen{t: term}, cols: cols, rows: rows, reply: sink, alerts: al,
		rearm: make(chan struct{}, 1),
	}, nil
}

// Stop ends the loop, then every pane's process group (concurrently), and waits for all
// of the session's goroutines. Safe to call more than once.
func (s *Session) Stop() error {
	var err error
	s.stopped.Do(func() {
		close(s.stop)
		<-s.done
		err = s.closeAll()
		s.wg.Wait()
		for _, sub := range s.subs {
			sub.end(ErrStopped)
		}
	})
	return err
}

// closeAll ends every pane's process group concurrently and waits for them.
func (s *Session) closeAll() error {
	panes := s.panes
	s.panes = nil
	errs := make([]error, len(panes))
	var wg sync.WaitGroup
	for i, p := range panes {
		wg.Go(func() {
			if err := p.proc.Close(); err != nil {
				errs[i] = fmt.Errorf("close pane %d: %w", p.id, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

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
		case id := <-s.exits:
			s.timerDue()
			s.onExit(id)
		case <-s.timerC:
			s.timerC = nil
			s.onTimer()
		}
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

// onTimer observes held output that is due and advances the relay's clock.
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
}

// armTimer keeps the loop's one timer for the earliest of the relay's next wake-up and
// the earliest held output; no timer when neither is pending.
func (s *Session) armTimer() {
	at, ok := s.rl.NextWake()
	if pt, pok := s.pace.next(); pok && (!ok || pt.Before(at)) {
		at, ok = pt, true
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
// waits to be re-armed (pacing), so a flood coalesces in the process's signal.
func (s *Session) watch(p *pane) {
	updates, done := p.proc.Updates(), p.proc.Done()
	for {
		select {
		case <-updates:
		case <-done:
			s.send(s.exits, p.id)
			return
		case <-s.stop:
			return
		}
		if !s.send(s.outputs, p.id) {
			return
		}
		select {
		case <-p.rearm:
		case <-done:
			s.send(s.exits, p.id)
			return
		case <-s.stop:
			return
		}
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
	if s.pace.offer(id, now) {
		s.observe(p, now)
	}
}

// observe hands pane p's new output to the relay, raises its alerts, tells subscribers
// and re-arms its watcher.
func (s *Session) observe(p *pane, now time.Time) {
	s.pace.observed(p.id, now)
	if n := p.alerts.count(); n != p.alertsSeen {
		p.alertsSeen = n
		text := ""
		if note := p.alerts.notice(); note != p.noteSeen {
			p.noteSeen, text = note, note
		}
		s.emit(Alert{Pane: p.id, Text: text})
	}
	s.emit(Output{Pane: p.id})
	if !p.exited {
		s.act(s.rl.Handle(relay.Output{Pane: p.id}, now))
	}
	select {
	case p.rearm <- struct{}{}:
	default:
	}
}

// onExit records that pane id's program exited, after observing its last output.
func (s *Session) onExit(id int) {
	p := s.pane(id)
	if p == nil || p.exited {
		return
	}
	now := s.clock.Now()
	s.observe(p, now)
	p.exited, p.code = true, p.proc.ExitCode()
	s.pace.forget(id)
	delete(s.drafts, id)
	s.gate.open(id) // nothing more reaches a program that is gone
	s.act(s.rl.Handle(relay.Exit{Pane: id}, now))
	s.log.Info("pane exited", "pane", id, "code", p.code)
	s.publish(true) // the relay's notices about it first: the exit is the last word
	s.emit(Exit{Pane: id, Code: p.code})
}

// act writes the relay's actions to their panes. A Type closes the pane's gate and its
// Submit opens it again, writing what the person sent meanwhile right after the carriage
// return. A typed delivery leaves the relay only by its Submit or with its pane (the
// relay drops it on Exit), so the gate has no other way to stay closed: onExit and Close
// open it.
func (s *Session) act(acts []relay.Action) {
	for _, a := range acts {
		p := s.pane(a.Target())
		if p == nil || p.exited {
			continue
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
	if !s.gate.hold(p.id, b) {
		p.proc.Write(b)
	}
	if s.pace.isHeld(p.id) {
		s.observe(p, s.clock.Now())
	}
	s.pace.grant(p.id)
}

// pane returns live-or-exited pane id (not closed), or nil.
func (s *Session) pane(id int) *pane {
	for _, p := range s.panes {
		if p.id == id {
			return p
		}
	}
	return nil
}

// find returns the pane numbered or named ref, or nil.
func (s *Session) find(ref string) *pane {
	ref = strings.TrimSpace(ref)
	for _, p := range s.panes {
		if fmt.Sprint(p.id) == ref || strings.EqualFold(p.name, ref) {
			return p
		}
	}
	return nil
}

// liveIDs returns the numbers of the panes whose program runs.
func (s *Session) liveIDs() []int {
	var ids []int
	for _, p := range s.panes {
		if !p.exited {
			ids = append(ids, p.id)
		}
	}
	return ids
}

// emit hands ev to every subscriber, forgetting ended ones.
func (s *Session) emit(ev Event) {
	s.subs = slices.DeleteFunc(s.subs, func(sub *Subscription) bool { return !sub.push(ev) })
}

// post queues f for the loop without waiting for it (dropped once the session stopped).
func (s *Session) post(f func()) {
	select {
	case s.cmds <- f:
	case <-s.done:
	}
}

// call runs f on the loop and waits until the loop step it ran in is over (its events
// published, the timer re-armed); false when the session has stopped.
func (s *Session) call(f func()) bool {
	ran := make(chan struct{})
	select {
	case s.cmds <- func() { f(); s.answered = append(s.answered, ran) }:
	case <-s.done:
		return false
	}
	select {
	case <-ran:
		return true
	case <-s.done:
		return false
	}
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Timer(at time.Time) (<-chan time.Time, func()) {
	t := time.NewTimer(max(time.Until(at), 0))
	return t.C, func() { t.Stop() }
}

// mode returns how keys are encoded for pane p now.
func (s *Session) mode(p *pane) (keys.Mode, vterm.Modes) {
	md := p.term.Snapshot().Modes
	m := keys.Mode{AppCursor: md.AppCursor, AppKeypad: md.AppKeypad}
	if s.kitty {
		m.KittyFlags = md.KittyFlags
	}
	return m, md
}
