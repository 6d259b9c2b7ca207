package session

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/usage"
)

// What the panes spend: a pane's hook names the file its CLI records usage in (Usage);
// the pane's meter reads what is new in it, on the caller's goroutine, and the loop
// adds it to the pane's total (Member.Spend), hands it to the relay (its link budgets
// and the session's cap) and tells subscribers (Spent, one per model). Nothing is read
// on a timer: only when a hook says a turn ended.

// SpendOptions are a session's spend settings: LinkBudget is a new link's spend budget
// (--link-budget), SessionBudget the session's cap ([spend] session), PaneBudget each
// pane's ([spend] pane), zero for none; Prices turn the tokens the panes' CLIs record
// into money (nil: usage.DefaultPrices).
type SpendOptions struct {
	LinkBudget, SessionBudget, PaneBudget usage.Budget
	Prices                                usage.Prices
	// Opencode reads what opencode panes spent from opencode's own database (nil: not
	// read, their spend shows "?").
	Opencode StoreUsage
}

// StoreUsage reads what a CLI that keeps its records in a database of its own
// (opencode) spent: for a pane started in folder dir at since, with the added
// environment env, a function that returns what is new at each call, and the file
// whose writes say something was (watched for a while after each turn; "" for none).
type StoreUsage func(dir string, env []string, since time.Time) (read func() ([]usage.Request, error), watch string)

// maxUsageFiles bounds the files one pane's meter reads at once: a program that names a
// new file each turn (or a prompt-injected one naming many) makes the reader of the
// file named longest ago go. A file named again after its reader went is read from the
// pane's start again: what it holds may be counted twice, never hidden (a program that
// named many files first cannot keep its CLI's real one from being read).
const maxUsageFiles = 16

// meter reads one pane's usage files. Its lock serialises the reads of its pane's
// hooks, which come on the socket's goroutines; its readers are its own.
type meter struct {
	mu      sync.Mutex
	since   time.Time
	readers map[string]*usage.Reader
	named   map[string]uint64 // when each reader's file was last named (tick)
	tick    uint64
	watched map[string]bool // files watched for late writes now
	// store reads the pane's CLI's own database (SpendOptions.Opencode), made at the
	// first turn's end; storeWatch is the file whose writes say it changed.
	store      func() ([]usage.Request, error)
	storeWatch string
}

// watching marks path watched; false when it was not (the caller starts the watch).
func (m *meter) watching(path string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.watched[path] || len(m.watched) >= maxUsageFiles {
		return true
	}
	m.watched[path] = true
	return false
}

// unwatch marks path's watch ended.
func (m *meter) unwatch(path string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.watched, path)
}

// newMeter returns a meter that counts entries written from since on.
func newMeter(since time.Time) *meter {
	return &meter{since: since, readers: map[string]*usage.Reader{}, named: map[string]uint64{}, watched: map[string]bool{}}
}

// read returns the requests new in the file at path, in format f.
func (m *meter) read(f usage.Format, path string) ([]usage.Request, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tick++
	r := m.readers[path]
	if r == nil || r.Format() != f {
		if r == nil && len(m.readers) >= maxUsageFiles {
			oldest := ""
			for p, t := range m.named {
				if oldest == "" || t < m.named[oldest] {
					oldest = p
				}
			}
			delete(m.readers, oldest)
			delete(m.named, oldest)
		}
		r = usage.NewReader(f, path, m.since)
		m.readers[path] = r
	}
	m.named[path] = m.tick
	return r.Read()
}

// Spend is what a pane spent since it started (kept across a restore): its tokens and
// what the priced part cost. Priced says some of it had a known price, Unpriced some
// had none (a model the price table does not know): the cost is then a floor, shown
// with a "?". Own says some of the cost is the one the CLI computed itself (opencode,
// pi), not the price table's.
type Spend struct {
	Tokens   usage.Tokens
	USD      float64
	Priced   bool
	Unpriced bool
	Own      bool
}

// Add returns s with t more.
func (s Spend) Add(t Spend) Spend {
	return Spend{Tokens: s.Tokens.Add(t.Tokens), USD: s.USD + t.USD, Priced: s.Priced || t.Priced, Unpriced: s.Unpriced || t.Unpriced, Own: s.Own || t.Own}
}

// Short is the spend as a border shows it: "$0.42", "$0.42+?" when part had no price,
// "120k tok" when none had; "" for nothing spent.
func (s Spend) Short() string {
	switch {
	case s.Tokens.IsZero() && !s.Priced:
		return ""
	case !s.Priced:
		return usage.Short(s.Tokens.Total()) + " tok"
	case s.Unpriced:
		return usage.Money(s.USD, true) + "+?"
	}
	return usage.Money(s.USD, true)
}

// Spent tells subscribers that pane Pane (named Name then) spent Spend on requests to
// Model, Requests of them, counted to the link Link ("" : the pane only, a turn the
// person started).
type Spent struct {
	Pane     int
	Name     string
	Link     string
	Model    string
	Requests int
	Spend    Spend
}

func (Spent) isEvent() {}

// lateWrites is how long after a hook's report a usage file is watched for writes: a
// CLI may write its last answer's usage just after its hook ran (Claude Code flushes its
// transcript on its own schedule).
const lateWrites = 5 * time.Second

// Usage reads what the program in the pane named or numbered pane spent, from the file
// its CLI (cli: claude, codex, gemini, qwen, pi) records usage in, as its hook named it
// (path): what is new there since the last read. The file is read on the caller's
// goroutine, then again at each write to it for lateWrites (inotify, where there is
// one), so usage written just after the hook counts with this turn; a file missing or
// half written is read again at the next report, and nothing is counted twice. A CLI
// whose format is not known, or no path: nothing.
func (s *Session) Usage(pane, cli, path string) error {
	f, ok := usage.ParseFormat(cli)
	if !ok || path == "" {
		return nil
	}
	var m *meter
	var id int
	if !s.call(func() {
		if p := s.find(pane); p != nil && !p.exited {
			m, id = p.meter, p.id
		}
	}) {
		return ErrStopped
	}
	if m == nil {
		return fmt.Errorf("usage from %q: %w", pane, ErrNoPane)
	}
	// The watch starts before the read: a write between the two is seen.
	var w *writeWatch
	if !m.watching(path) {
		var err error
		if w, err = watchWrites(path); err != nil {
			m.unwatch(path)
			if !errors.Is(err, errors.ErrUnsupported) {
				s.log.Debug("usage file not watched", "pane", id, "file", path, "err", err)
			}
		}
	}
	if err := s.readUsage(m, id, f, path); err != nil {
		if w != nil {
			w.close()
			m.unwatch(path)
		}
		return err
	}
	if w == nil {
		return nil
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer m.unwatch(path)
		if err := w.run(lateWrites, s.done, func() { _ = s.readUsage(m, id, f, path) }); err != nil {
			s.log.Debug("usage file watch", "pane", id, "file", path, "err", err)
		}
	}()
	return nil
}

// readUsage reads what is new in pane id's usage file through its meter and counts it.
func (s *Session) readUsage(m *meter, id int, f usage.Format, path string) error {
	reqs, err := m.read(f, path)
	if err != nil {
		s.log.Debug("usage not read", "pane", id, "file", path, "err", err)
		return nil
	}
	s.log.Debug("usage", "pane", id, "file", path, "requests", len(reqs))
	if len(reqs) == 0 {
		return nil
	}
	return s.command(func() error {
		if p := s.pane(id); p != nil {
			s.spend(p, reqs)
		}
		return nil
	})
}

// spend counts reqs to pane p and its turn's link, in the loop.
func (s *Session) spend(p *pane, reqs []usage.Request) {
	link := s.rl.TurnLink(p.id)
	type model struct {
		n     int
		spend Spend
	}
	var order []string
	by := map[string]*model{}
	var all relay.Spend
	all.Pane, all.Known = p.id, true
	for _, q := range reqs {
		sp := Spend{Tokens: q.Tokens, Own: q.CostUSD != nil}
		if usd, ok := s.prices.Cost(q); ok {
			sp.USD, sp.Priced = usd, true
		} else {
			sp.Unpriced = true
			all.Known = false
		}
		all.Tokens = all.Tokens.Add(q.Tokens)
		all.USD += sp.USD
		m := by[q.Model]
		if m == nil {
			m = &model{}
			by[q.Model] = m
			order = append(order, q.Model)
		}
		m.n++
		m.spend = m.spend.Add(sp)
	}
	for _, name := range order {
		m := by[name]
		p.spent = p.spent.Add(m.spend)
		s.emit(Spent{Pane: p.id, Name: p.name, Link: link, Model: name, Requests: m.n, Spend: m.spend})
	}
	s.log.Debug("spend", "pane", p.id, "link", link, "tokens", all.Tokens.Total(), "usd", all.USD, "priced", all.Known)
	s.act(s.rl.Handle(all, s.clock.Now()))
}

// metered reports whether the pane's hooks name a usage file agentmux can read, or its
// CLI's own database was read (opencode).
func (p *pane) metered() bool {
	_, ok := usage.ParseFormat(p.profile.Hooks)
	return p.hooks && ok || p.profile.Name == opencodeProfile && !p.spent.Tokens.IsZero()
}

// opencodeProfile is the profile of the CLI whose usage is read from its own database.
const opencodeProfile = "opencode"

// readStore reads what pane p's CLI recorded in its own database (opencode's), after a
// turn of it ended, off the loop: once now, then at each write for lateWrites. A pane
// that shares its folder with another opencode pane of the session is not read: the
// database does not say which of the two started a session there.
func (s *Session) readStore(p *pane) {
	open := s.opts.Spend.Opencode
	if open == nil || p.profile.Name != opencodeProfile || p.exited {
		return
	}
	dir := p.spec.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	for _, q := range s.panes {
		qdir := q.spec.Dir
		if qdir == "" {
			qdir, _ = os.Getwd()
		}
		if q != p && !q.exited && q.profile.Name == opencodeProfile && qdir == dir {
			s.log.Debug("opencode usage not read: another opencode pane shares the folder", "pane", p.id, "other", q.id, "dir", dir)
			return
		}
	}
	m, id, env := p.meter, p.id, slices.Clone(p.spec.Env)
	if m.watching("\x00store") {
		return // read and watched already
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer m.unwatch("\x00store")
		read := func() {
			m.mu.Lock()
			if m.store == nil {
				m.store, m.storeWatch = open(dir, env, m.since)
			}
			reqs, err := m.store()
			m.mu.Unlock()
			if err != nil {
				s.log.Debug("usage not read", "pane", id, "err", err)
				return
			}
			if len(reqs) > 0 {
				_ = s.command(func() error {
					if p := s.pane(id); p != nil {
						s.spend(p, reqs)
					}
					return nil
				})
			}
		}
		m.mu.Lock()
		watch := m.storeWatch
		m.mu.Unlock()
		var w *writeWatch
		if watch != "" {
			w, _ = watchWrites(watch)
		}
		read()
		if w == nil {
			m.mu.Lock()
			watch = m.storeWatch // known after the first read
			m.mu.Unlock()
			if watch == "" {
				return
			}
			if w, _ = watchWrites(watch); w == nil {
				return
			}
			read() // what was written between the first read and the watch
		}
		if err := w.run(lateWrites, s.done, read); err != nil {
			s.log.Debug("usage database watch", "pane", id, "err", err)
		}
	}()
}

// SeedSpend adds what the pane named name spent before (the store's total, when a
// session is restored) to its total, and to the session's; name "" adds to the
// session's alone (what panes closed before spent). The pane's and the session's caps
// count from there; no link does.
func (s *Session) SeedSpend(name string, sp Spend) error {
	return s.command(func() error {
		id := 0
		if name != "" {
			p := s.find(name)
			if p == nil {
				return fmt.Errorf("seed spend of %q: %w", name, ErrNoPane)
			}
			p.spent = p.spent.Add(sp)
			id = p.id
		}
		s.act(s.rl.Handle(relay.SpentBefore{Pane: id, Total: sp.total()}, s.clock.Now()))
		return nil
	})
}

// total is s as the relay counts it.
func (s Spend) total() relay.SpendTotal {
	return relay.SpendTotal{Tokens: s.Tokens, USD: s.USD, Unknown: s.Unpriced}
}

// ErrBudget is wrapped by the errors of a budget not given in a form --link-budget
// takes (usage.ErrBudget, for clients that do not import usage).
var ErrBudget = usage.ErrBudget

// SetLinkBudget sets the budgets of pane a's link: turns its turn budget (0 keeps it;
// the turns spent stay) and limit its spend budget in tokens or dollars, in the forms
// --link-budget takes (300k, '$2'; "" keeps it). A link that already spent more than
// the new limit is severed, and the relay log says so.
func (s *Session) SetLinkBudget(a, turns int, budget string) error {
	limit, err := linkBudget(turns, budget)
	if err != nil {
		return fmt.Errorf("budget of %d: %w", a, err)
	}
	return s.command(func() error {
		ps, ok := s.rl.Pane(a)
		switch {
		case !ok || ps.Exited || s.pane(a) == nil:
			return fmt.Errorf("budget of %d: %w", a, ErrNoPane)
		case ps.Group == 0:
			return fmt.Errorf("budget of pane %d: it is %w", a, ErrNotLinked)
		}
		s.act(s.rl.Handle(relay.SetBudget{Pane: a, Turns: turns, Limit: limit}, s.clock.Now()))
		s.unmeteredBudget(a, limit)
		return nil
	})
}

// unmeteredBudget says so when pane a's link was given a spend budget (limit) that no
// member of it can spend: none reports what it spends (only agent CLIs whose usage
// agentmux reads do), so the budget is never reached and its turns alone bound it.
// Loop only.
func (s *Session) unmeteredBudget(a int, limit usage.Budget) {
	ps, ok := s.rl.Pane(a)
	if limit.IsZero() || !ok || ps.Group == 0 {
		return
	}
	var names []string
	for _, p := range s.panes {
		if q, ok := s.rl.Pane(p.id); ok && q.Group == ps.Group {
			if p.metered() {
				return
			}
			names = append(names, fmt.Sprintf("%d %s", p.id, p.name))
		}
	}
	s.act(s.rl.Handle(relay.Note{Pane: a, Text: fmt.Sprintf("the spend budget of the link of %s is never reached: none of them reports usage agentmux can read (agent CLIs with their hooks do); its turns bound it",
		strings.Join(names, " and "))}, s.clock.Now()))
}

// LinkWithBudget links pane a with pane b (a pane that runs a shell only when shell,
// as LinkShell) and gives the link turns turns (0: it keeps what it had, or a new
// link the session's) and the spend budget budget (as SetLinkBudget reads it; "": the
// same). A bad budget links nothing.
func (s *Session) LinkWithBudget(a, b int, shell bool, turns int, budget string) error {
	limit, err := linkBudget(turns, budget)
	if err != nil {
		return fmt.Errorf("link %d with %d: %w", a, b, err)
	}
	return s.command(func() error {
		pa, _ := s.rl.Pane(a)
		pb, _ := s.rl.Pane(b)
		standing := pa.Group != 0 && pa.Group == pb.Group // linked already: its budgets change
		lt := turns
		if standing {
			lt = 0
		}
		if err := s.linkNow(a, b, shell, false, lt); err != nil { // a new link's notice says its turns
			return err
		}
		if !limit.IsZero() || standing && turns > 0 {
			s.act(s.rl.Handle(relay.SetBudget{Pane: a, Turns: turns - lt, Limit: limit}, s.clock.Now()))
			s.unmeteredBudget(a, limit)
		}
		return nil
	})
}

// linkBudget checks a link's budgets as given: turns 0 or more, budget a spend budget
// or "".
func linkBudget(turns int, budget string) (usage.Budget, error) {
	if turns < 0 {
		return usage.Budget{}, fmt.Errorf("%d turns: want 1 or more", turns)
	}
	return usage.ParseBudget(budget)
}

// relayConfig is the relay's configuration from the session's options.
func relayConfig(o Options) relay.Config {
	return relay.Config{Turns: o.Turns, Idle: o.Idle, Address: o.Address, Brief: o.Brief, MCP: o.MCP, Delivery: o.Delivery, NewID: proto.NewID,
		LinkBudget: o.Spend.LinkBudget, SessionBudget: o.Spend.SessionBudget, PaneBudget: o.Spend.PaneBudget}
}
