package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentmux/agentmux/server"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
	spend "github.com/agentmux/agentmux/usage"
)

// A session server records what its session is in the store as it changes (panes,
// their commands as given, folders and worktrees, profiles, holds, links and the turns
// they spent), so that agentmux restore can bring it back after the server died
// without a word (SIGKILL, out of memory, a power loss). The agents' conversation ids
// come from their hooks, through the hub (hub/conversation.go).
//
//	session events ──▶ recorder (one goroutine) ──▶ store.SaveSnapshot (when changed)
//	server ends    ──▶ recorder.stop(why)       ──▶ store.StopSnapshot

// savedSession is a snapshot's description: the JSON in the store's spec column.
type savedSession struct {
	// Args are agentmux's words the session was started with: its flags (--turns,
	// --mesh, --address…) come back from them; its agents come from Panes.
	Args   []string     `json:"args"`
	Panes  []savedPane  `json:"panes"`
	Groups []savedGroup `json:"groups,omitempty"`
	// Budgets are what the budgets outside the groups spent, which a restore does not
	// renew (session.Budgets).
	Budgets *savedBudgets `json:"budgets,omitempty"`
	// View is the layout's kind, the panes' order and the zoomed pane, as the
	// terminals left them.
	View session.View `json:"view,omitzero"`
	// Person is where the server ran (the person's user namespace): a restore from
	// elsewhere is refused (session.Place.Admits). nil where there are no namespaces.
	Person *session.Place `json:"person,omitempty"`
}

// savedPane is one pane as a restore starts it again.
type savedPane struct {
	Number  int      `json:"number"`
	Name    string   `json:"name"`
	Command []string `json:"command"`
	Env     []string `json:"env,omitempty"`
	Dir     string   `json:"dir,omitempty"`
	Profile string   `json:"profile,omitempty"`
	// Worktree: the pane ran in a worktree of its own (Dir), on Branch.
	Worktree bool   `json:"worktree,omitempty"`
	Branch   string `json:"branch,omitempty"`
	Held     bool   `json:"held,omitempty"`
	// Share is the pane's size as a share of an even one (prefix ctrl+arrow).
	Share [2]int `json:"share,omitzero"`
}

// savedGroup is a relay group of this session's panes (by number), its turns, and its
// spend budget (as --link-budget reads it, "" for none) with what it spent. A link with
// a member of another session (Remote, NAME@SESSION) has one member here, the link's
// Tag, and Peer: the part of Used the other side spent.
type savedGroup struct {
	Members []int       `json:"members"`
	Used    int         `json:"used"`
	Budget  int         `json:"budget"`
	Remote  string      `json:"remote,omitempty"`
	Tag     string      `json:"tag,omitempty"`
	Peer    int         `json:"peer,omitempty"`
	Limit   string      `json:"limit,omitempty"`
	Spent   *savedSpend `json:"spent,omitempty"`
}

// savedBudgets is session.Budgets as the snapshot keeps it: what each pane's earlier
// groups spent since a person linked it, the @relay turns between two panes in no group
// together, and the turns external members spent into a pane.
type savedBudgets struct {
	Left     []savedLeft     `json:"left,omitempty"`
	Direct   []savedDirect   `json:"direct,omitempty"`
	External []savedExternal `json:"external,omitempty"`
}

// savedLeft is what pane Pane's earlier groups spent (relay.LeftBudget); Limit as
// savedGroup's.
type savedLeft struct {
	Pane   int         `json:"pane"`
	Used   int         `json:"used"`
	Budget int         `json:"budget"`
	Limit  string      `json:"limit,omitempty"`
	Spent  *savedSpend `json:"spent,omitempty"`
}

// savedDirect is the turns @relay lines spent between panes A and B.
type savedDirect struct {
	A    int `json:"a"`
	B    int `json:"b"`
	Used int `json:"used"`
}

// savedExternal is the turns the external member From ("" for all of them together)
// spent into pane Pane.
type savedExternal struct {
	From string `json:"from,omitempty"`
	Pane int    `json:"pane"`
	Used int    `json:"used"`
}

// saveBudgets is b as the snapshot keeps it; nil when nothing was spent.
func saveBudgets(b session.Budgets) *savedBudgets {
	if b.IsZero() {
		return nil
	}
	sb := &savedBudgets{}
	for _, l := range b.Left {
		sl := savedLeft{Pane: l.Pane, Used: l.Used, Budget: l.Budget}
		sl.Limit, sl.Spent = saveLimit(l.Limit, l.Spent)
		sb.Left = append(sb.Left, sl)
	}
	for _, d := range b.Direct {
		sb.Direct = append(sb.Direct, savedDirect{A: d.A, B: d.B, Used: d.Used})
	}
	for _, x := range b.External {
		sb.External = append(sb.External, savedExternal{From: x.From, Pane: x.Pane, Used: x.Used})
	}
	return sb
}

// budgets is what sb keeps as session.Budgets, of the panes restored (names, by number);
// a spend budget that no longer reads is left out, with a warning.
func (sb *savedBudgets) budgets(names map[int]string, log *slog.Logger) session.Budgets {
	var b session.Budgets
	if sb == nil {
		return b
	}
	for _, l := range sb.Left {
		if names[l.Pane] == "" {
			continue
		}
		lb := session.LeftBudget{Pane: l.Pane, Used: l.Used, Budget: l.Budget}
		var err error
		if lb.Limit, lb.Spent, err = readLimit(l.Limit, l.Spent); err != nil {
			log.Warn("restore: a pane's earlier link's spend budget", "pane", l.Pane, "err", err)
		}
		b.Left = append(b.Left, lb)
	}
	for _, d := range sb.Direct {
		if names[d.A] != "" && names[d.B] != "" {
			b.Direct = append(b.Direct, session.DirectBudget{A: d.A, B: d.B, Used: d.Used})
		}
	}
	for _, x := range sb.External {
		if names[x.Pane] != "" {
			b.External = append(b.External, session.ExternalBudget{From: x.From, Pane: x.Pane, Used: x.Used})
		}
	}
	return b
}

// saveLimit is a link's spend budget and what it spent of it as the snapshot keeps
// them ("" and nil for none: the turns are the whole budget).
func saveLimit(limit spend.Budget, spent session.SpendTotal) (string, *savedSpend) {
	if limit.IsZero() {
		return "", nil
	}
	return limit.String(), &savedSpend{Tokens: spent.Tokens, USD: spent.USD, Unknown: spent.Unknown}
}

// readLimit is what saveLimit kept; a budget that no longer reads is none, and said.
func readLimit(limit string, spent *savedSpend) (spend.Budget, session.SpendTotal, error) {
	if limit == "" {
		return spend.Budget{}, session.SpendTotal{}, nil
	}
	b, err := spend.ParseBudget(limit)
	if err != nil || spent == nil {
		return b, session.SpendTotal{}, err
	}
	return b, session.SpendTotal{Tokens: spent.Tokens, USD: spent.USD, Unknown: spent.Unknown}, nil
}

// savedSpend is a link's spend: its tokens, the cost of the priced part, and whether
// part had no price.
type savedSpend struct {
	Tokens  spend.Tokens `json:"tokens"`
	USD     float64      `json:"usd"`
	Unknown bool         `json:"unknown,omitempty"`
}

// recorder keeps a session's snapshot in the store: the only writer of it while the
// server runs.
type recorder struct {
	st     *store.Store
	name   string
	folder string
	args   []string
	s      *session.Session
	log    *slog.Logger
	// given are the commands of restored panes as they were given, by pane number: what
	// runs is that with the CLI's resume words (or, for a pane that could not start, a
	// note), and the next restore must start from what was given.
	given map[int][]string
	// person is where this server runs (savedSession.Person).
	person *session.Place
	// mu guards sub (the run goroutine subscribes again when it fell behind) and
	// closed (stop ends it).
	mu      sync.Mutex
	sub     *session.Subscription
	closed  bool
	done    chan struct{}
	last    []byte // owned by the recorder's goroutine until done
	stopped sync.Once
}

// startRecorder records s's snapshot as it is now and follows its changes until stop.
func startRecorder(st *store.Store, name string, args []string, s *session.Session, given map[int][]string, log *slog.Logger) *recorder {
	folder, _ := os.Getwd()
	r := &recorder{st: st, name: name, folder: folder, args: args, s: s, log: log, given: given, done: make(chan struct{})}
	if here := session.Here(); here.Boot != "" {
		r.person = &here
	}
	r.sub = s.Subscribe(recorderQueue)
	spec, _ := r.describe()
	r.last = spec
	if err := st.StartSnapshot(name, folder, spec, os.Getpid(), time.Now().UnixMilli()); err != nil {
		log.Error("restore: record the session", "err", err)
	}
	go r.run()
	return r
}

// run saves the snapshot after each batch of events that may change it. Fallen behind
// (a burst of events overflowed its queue), it subscribes again and saves the session
// as it is then: the events only say when to look, and what they said is in it.
func (r *recorder) run() {
	defer close(r.done)
	r.mu.Lock()
	sub := r.sub
	r.mu.Unlock()
	for {
		if _, ok := <-sub.Ready(); !ok {
			if !errors.Is(sub.Err(), session.ErrSlow) {
				return // stopped
			}
			if sub = r.resubscribe(); sub == nil {
				return
			}
			r.log.Info("restore: events came faster than the record followed them; it reads the session again")
			r.save()
			continue
		}
		changed := false
		for _, ev := range sub.Next() {
			if _, out := ev.(session.Output); !out {
				changed = true
			}
		}
		if changed {
			r.save()
		}
	}
}

// resubscribe replaces the subscription that fell behind; nil once stop has begun.
func (r *recorder) resubscribe() *session.Subscription {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.sub = r.s.Subscribe(recorderQueue)
	return r.sub
}

// recorderQueue is how many events the recorder's subscription holds before it falls
// behind.
var recorderQueue = 1 << 10

// save writes the snapshot when it differs from the last one written.
func (r *recorder) save() {
	spec, ok := r.describe()
	if !ok || bytes.Equal(spec, r.last) {
		return
	}
	if err := r.st.SaveSnapshot(r.name, spec, time.Now().UnixMilli()); err != nil {
		r.log.Error("restore: record the session", "err", err)
		return
	}
	r.last = spec
}

// stop ends the recording and says why the session ended: offered says whether
// restore offers it (not after kill-session or prefix q, the person's own end).
// Only the first call counts.
func (r *recorder) stop(why string, offered bool) {
	r.stopped.Do(func() {
		r.mu.Lock()
		r.closed = true
		sub := r.sub
		r.mu.Unlock()
		sub.Close()
		<-r.done
		if err := r.st.StopSnapshot(r.name, why, offered, time.Now().UnixMilli()); err != nil {
			r.log.Error("restore: record the session's end", "err", err)
		}
	})
}

// describe is the session's description as JSON; false when the session has no panes
// to describe (it is stopping).
func (r *recorder) describe() ([]byte, bool) {
	sv := savedSession{Args: r.args, View: r.s.View(), Person: r.person}
	for _, m := range r.s.Members() {
		if m.External {
			continue
		}
		cmd := m.Command
		if g, ok := r.given[m.Pane]; ok {
			cmd = g
		}
		p := savedPane{Number: m.Pane, Name: m.Name, Command: cmd, Dir: m.Dir, Profile: m.Profile, Held: m.Held, Share: m.Share}
		if p.Dir == "" {
			p.Dir = r.folder
		}
		for _, e := range m.Env {
			if !strings.HasPrefix(e, "AGENTMUX_") { // the session's own, set anew
				p.Env = append(p.Env, e)
			}
		}
		if m.Tree != nil {
			p.Worktree, p.Dir, p.Branch = true, m.Tree.Folder(), m.Tree.Branch()
		}
		sv.Panes = append(sv.Panes, p)
	}
	if len(sv.Panes) == 0 {
		return nil, false
	}
	for _, g := range r.s.Status().Groups {
		sg := savedGroup{Members: slices.Clone(g.Members), Used: g.Used, Budget: g.Budget,
			Remote: g.Remote, Tag: g.Tag, Peer: g.Peer}
		sg.Limit, sg.Spent = saveLimit(g.Limit, g.Spent)
		sv.Groups = append(sv.Groups, sg)
	}
	sv.Budgets = saveBudgets(r.s.Budgets())
	b, err := json.Marshal(sv)
	return b, err == nil
}

// endOffered says whether a session that ended for why is offered by restore: not
// when the person ended it (kill-session, prefix q, closing its last pane), unless
// kill-session --keep.
func endOffered(why string) bool {
	return why != server.Killed && why != server.QuitKey && why != server.EndLastPane
}
