package session

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/usage"
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
	// ErrShell means a pane runs a shell, which is linked only when asked for by name
	// (LinkShell): it would run as commands whatever an agent answered.
	ErrShell = errors.New("it runs a shell, which would run an agent's answer as commands")
	// ErrShellSend means a message (or reminder) from anyone but the person went to a
	// pane that runs a shell: it would run as commands.
	ErrShellSend = errors.New("it runs a shell, which would run the message as commands: only the person sends to a shell")
	// ErrRemindOther means a reminder from anyone but the person went to a pane other
	// than the sender's own: typed as "[agentmux] reminder: …", it names no sender and
	// spends no budget, so from a pane's program it would be a message past the
	// relay's rules, passing for agentmux's own words.
	ErrRemindOther = errors.New("a reminder names no sender and spends no budget: only the person reminds another pane, a pane's program its own")
)

// defaultInterval is the least time between two observations of a pane's output.
const defaultInterval = time.Second / 60

// echoFirstWait is the longest the other panes' output waits for the echo of a key
// (ptyhost.EchoFirst): a program that does not answer a key at once (a full-screen
// program that redraws later, one busy computing) costs a flood no more than this.
const echoFirstWait = 5 * time.Millisecond

// Session is the core. Every method is safe to call from any goroutine: commands run on
// the session's loop in the order they were called, and nothing a caller does can block
// the loop except its own commands.
type Session struct {
	opts   Options
	log    *slog.Logger
	clock  Clock
	prices usage.Prices // Options.Prices, or the shipped table

	cmds    chan func()
	outputs chan int
	quiets  chan int // a pane whose output is held paused (its watcher's word)
	exits   chan *pane
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
	next      int // the number the next pane added gets (numbers are never reused)
	members   map[int]Member
	status    string
	logged    int
	open      map[int]Entry // deliveries published and not final
	// beforeSubmit are the write-ahead calls of deliveries not yet submitted, typed the
	// deliveries each pane's last Type carried (journal.go); journalFailing is set from a
	// failed call to the next that succeeds.
	beforeSubmit   map[int]func() error
	typed          map[int][]int
	journalFailing bool
	external       map[string]Sink
	across         Across // links panes with other sessions' members (nil: no mesh)
	colors         vterm.Colors
	kitty          bool
	view           View               // the terminals' layout (view.go); owned by the loop
	echoFirst      *ptyhost.EchoFirst // shared by the panes' programs: a key's echo goes first
	// isolation and selfNS (set before the loop starts, then read only) say how panes
	// are told from the person, and this process's user namespace (origin.go).
	isolation string
	selfNS    nsID
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
	ids, err := paneNumbers(o.Panes)
	if err != nil {
		return nil, err
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
	if o.Spend.Prices == nil {
		o.Spend.Prices = usage.DefaultPrices()
	}
	s := &Session{
		opts:         o,
		log:          log,
		clock:        o.Clock,
		cmds:         make(chan func(), 64),
		outputs:      make(chan int),
		quiets:       make(chan int),
		exits:        make(chan *pane),
		stop:         make(chan struct{}),
		done:         make(chan struct{}),
		rl:           relay.New(relayConfig(o)),
		prices:       o.Spend.Prices,
		profiles:     o.Profiles,
		drafts:       drafts{},
		pace:         newPacing(o.OutputInterval),
		members:      map[int]Member{},
		open:         map[int]Entry{},
		beforeSubmit: map[int]func() error{},
		typed:        map[int][]int{},
		echoFirst:    ptyhost.NewEchoFirst(echoFirstWait),
		external:     map[string]Sink{},
		colors:       o.Colors,
		kitty:        o.KittyKeyboard,
		view:         o.View,
	}
	s.isolation, s.selfNS = isolation(o)
	if s.isolation == proto.IsolationLineage {
		s.toLineage()
	}
	if s.profiles == nil {
		s.profiles = parser.Builtins()
	}
	// Every pane is opened in the relay (and linked) before any program starts, and the
	// loop runs while they start (all but the first, which starts just before it to settle
	// the isolation): the relay reads each pane's output from its first byte.
	// A program started with a task (an opening turn) may finish that turn before the
	// last pane has started; had the panes been opened only then, its whole turn would
	// read as a banner, and not be relayed.
	now := s.clock.Now()
	s.next = ids[len(ids)-1] + 1
	for i, spec := range o.Panes {
		p := s.newPane(ids[i], spec)
		s.panes = append(s.panes, p)
		s.rl.Handle(openOf(p), now)
	}
	if o.Link {
		ids, shells := s.agentIDs()
		s.rl.Handle(relay.LinkAll{Panes: ids, Left: shells}, now)
	}
	s.publish(false) // the start-up state is the baseline: no events for it
	panes := slices.Clone(s.panes)
	// The first pane starts before the loop: its start settles the isolation.
	proc, userNS, err := s.launchFirst(panes[0])
	log.Info("panes told from the person by "+s.isolation, "isolation", s.isolation)
	go s.run()
	for i, p := range panes {
		if i > 0 {
			proc, userNS, err = s.launch(p)
		}
		if err == nil {
			err = s.command(func() error {
				s.attach(p, proc, userNS)
				return nil
			})
		}
		if err != nil {
			if proc != nil {
				_ = proc.Close()
			}
			_ = s.Stop()
			return nil, err
		}
	}
	return s, nil
}

// paneNumbers are the numbers of the panes specs start as: each spec's Number, or the
// one after the previous pane's; an error when they do not rise.
func paneNumbers(specs []PaneSpec) ([]int, error) {
	ids := make([]int, len(specs))
	last := 0
	for i, spec := range specs {
		switch {
		case spec.Number == 0:
			ids[i] = last + 1
		case spec.Number > last:
			ids[i] = spec.Number
		default:
			return nil, fmt.Errorf("pane %d numbered %d after pane %d", i+1, spec.Number, last)
		}
		last = ids[i]
	}
	return ids, nil
}

// newPane returns pane id with a new emulator, its program ready to start (prepare).
func (s *Session) newPane(id int, spec PaneSpec) *pane {
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
	term.KeepFrames(keptFrames) // read by the relay (termScreen.ReadFrames)
	p := &pane{id: id, name: spec.Name, term: term, screen: &Screen{t: term}, cols: cols, rows: rows, reply: sink, alerts: al}
	return s.prepare(p, spec)
}

// startPane starts pane id: a new emulator, and spec's program in it.
func (s *Session) startPane(id int, spec PaneSpec) (*pane, error) {
	p := s.newPane(id, spec)
	proc, userNS, err := s.launch(p)
	if err != nil {
		return nil, err
	}
	s.attach(p, proc, userNS)
	return p, nil
}

// spawn starts spec's program in the emulator of pane old, at its size, and returns the
// pane that runs it: a new pane value sharing old's emulator, screen, reply sink and
// alerts (old's watcher, still running for an old process, keeps its own value).
func (s *Session) spawn(old *pane, spec PaneSpec) (*pane, error) {
	p := s.prepare(old, spec)
	proc, userNS, err := s.launch(p)
	if err != nil {
		return nil, err
	}
	s.attach(p, proc, userNS)
	return p, nil
}

// prepare returns a new pane value for spec's program in the emulator of pane old, at
// its size, ready to start (launch): its profile, and the hook settings added to its
// command. It shares old's emulator, screen, reply sink and alerts; its proc is nil.
func (s *Session) prepare(old *pane, spec PaneSpec) *pane {
	spec.Name = old.name
	orig := spec
	prof := s.profiles.For(spec.Argv[0])
	if named, ok := s.profiles[spec.Profile]; ok && spec.Profile != "" {
		prof = named
	}
	hooks := false
	if s.opts.Hooks != nil && prof.Hooks != "" && !prof.NoHooks {
		spec, hooks = s.opts.Hooks(old.id, spec, prof)
	}
	return &pane{
		id: old.id, name: spec.Name, spec: orig, run: spec, argv: spec.Argv, profile: prof, term: old.term, hooks: hooks, proof: proto.NewToken(),
		screen: old.screen, cols: old.cols, rows: old.rows, reply: old.reply, alerts: old.alerts,
		alertsSeen: old.alertsSeen, noteSeen: old.noteSeen, clipsSeen: old.clipsSeen, share: old.share,
		rearm: make(chan struct{}, 1), meter: newMeter(time.Now()), spent: old.spent,
	}
}

// launch starts prepared pane p's program, writing to its emulator, and returns it with
// the user namespace it started in. It changes nothing of the session's (nor of p's),
// so it may run off the loop while the loop runs.
func (s *Session) launch(p *pane) (Process, nsID, error) {
	spec := p.run
	proc, err := s.opts.Start(ptyhost.Spec{Argv: spec.Argv, Dir: spec.Dir, Env: spec.Env, Cols: p.cols, Rows: p.rows, Pane: p.id, Name: spec.Name, Proof: p.proof, EchoFirst: s.echoFirst, UserNS: s.isolation == proto.IsolationUserNS}, p.term)
	if err != nil {
		return nil, nsID{}, fmt.Errorf("start pane %d %q: %w", p.id, spec.Name, err)
	}
	var userNS nsID
	if pp, ok := proc.(interface{ Pid() int }); ok && s.isolation == proto.IsolationUserNS {
		if chain, err := userNSChain(pp.Pid()); err == nil {
			userNS = chain[0]
		}
	}
	s.log.Info("pane started", "pane", p.id, "name", spec.Name, "argv", spec.Argv, "dir", spec.Dir, "cols", p.cols, "rows", p.rows, "hooks", p.hooks)
	return proc, userNS, nil
}

// launchFirst is launch for the session's first pane, which also settles the session's
// isolation (before the loop starts): where the system refuses the pane a user
// namespace, the panes are told by their parents and it starts again without one.
func (s *Session) launchFirst(p *pane) (Process, nsID, error) {
	proc, userNS, err := s.launch(p)
	if err == nil || s.isolation != proto.IsolationUserNS || !errors.Is(err, ptyhost.ErrNoUserNS) {
		return proc, userNS, err
	}
	s.log.Warn("this system makes no user namespaces: panes are told from the person by their parents", "err", err)
	s.toLineage()
	return s.launch(p)
}

// attach gives pane p the process launch started for it (on the loop once it runs) and
// starts its watcher.
func (s *Session) attach(p *pane, proc Process, userNS nsID) {
	p.proc, p.userNS = proc, userNS
	p.reply.attach(proc)
	s.wg.Go(func() { s.watch(p) })
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
		if p.proc == nil {
			continue // never started: Start failed first
		}
		wg.Go(func() {
			if err := p.proc.Close(); err != nil {
				errs[i] = fmt.Errorf("close pane %d: %w", p.id, err)
			}
			if s.opts.Closed != nil {
				s.opts.Closed(p.spec)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
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
	for _, p := range s.panes {
		if relay.Refers(ref, p.id, p.name) {
			return p
		}
	}
	return nil
}

// live returns the number of the pane ref names (find) while its program runs, else 0.
func (s *Session) live(ref string) int {
	if p := s.find(ref); p != nil && !p.exited {
		return p.id
	}
	return 0
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
