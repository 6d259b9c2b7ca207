package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
	spend "github.com/agentmux/agentmux/usage"
)

// here is where this process runs (session.Here); tests set it.
var here = session.Here

// restoreWord is the word after the terminal's size and kind that makes the server
// restore the session named after it from the store instead of reading agents.
const restoreWord = "--restore-session"

// resumeArgv is the command that starts the CLI c.CLI of argv on its conversation c.ID,
// each form checked against the CLI's own --help (docs/restore.md): false for a CLI
// agentmux knows no way to resume.
func resumeArgv(argv []string, c store.Conversation) ([]string, bool) {
	if len(argv) == 0 || proto.CheckConversation(c.ID) != nil {
		return nil, false
	}
	switch c.CLI {
	case "claude", "gemini", "qwen": // claude --resume ID, gemini --resume ID, qwen --resume ID
		return append(append([]string{}, argv...), "--resume", c.ID), true
	case "pi", "opencode": // pi --session <path|id>, opencode -s, --session: session id to continue
		return append(append([]string{}, argv...), "--session", c.ID), true
	case "codex": // codex resume [OPTIONS] [SESSION_ID]: the subcommand, then the id
		return append([]string{argv[0], "resume", c.ID}, argv[1:]...), true
	}
	return nil, false
}

// runsCLI reports whether pane p, whose command is argv, runs the agent CLI cli: its
// program is that CLI, by agentmux's own profiles or by the profile the session read it
// with (a person's, for a wrapper of theirs). Never a shell.
func runsCLI(p savedPane, argv []string, cli string) bool {
	if len(argv) == 0 || cli == "" || session.IsShell(argv) {
		return false
	}
	return parser.ProfileFor(argv[0]).Name == cli || p.Profile == cli
}

// restorePlan is what a restore does besides starting the panes: the links, holds and
// conversations of the panes (by the numbers they had), and what it tells the person.
type restorePlan struct {
	saved savedSession
	// given are the panes' commands as given, by number (recorder.given).
	given map[int][]string
	// convs are the conversations resumed, by number.
	convs map[int]store.Conversation
	// trees are the panes (by index) to start in their kept worktree; treeDirs the
	// folder each falls back to when the worktree cannot be had.
	trees    map[int]bool
	treeDirs map[int]string
	groups   []savedGroup
	// remote are the links with members of other sessions, made again as the session
	// joins its mesh (mesh/relink.go).
	remote []mesh.RestoredLink
	names  map[int]string
	// notStarted are the panes (by number) whose program cannot start: each runs a note.
	notStarted map[int]bool
	held       []int
	notes      []paneNote
}

// retyped counts the messages between members of a group that the store will type
// again (not confirmed before the server died): each spent a turn when it was first
// queued and spends it again when it is queued anew, so the group comes back with
// those turns unspent.
func (plan *restorePlan) retyped(st *store.Store, name string, members []int) int {
	in := map[string]bool{}
	for _, n := range members {
		in[plan.names[n]] = true
	}
	k := 0
	for _, n := range members {
		for _, from := range plan.retypedFrom(st, name, n) {
			if in[from] && from != plan.names[n] {
				k++
			}
		}
	}
	return k
}

// retypedFrom is the senders of the messages into pane n that the store will type
// again (not confirmed before the server died), one for each: not a reminder (it
// spends no budget), nor one whose timeout has passed (it expires unsent), nor any into
// a pane whose program cannot start (kept, unsent, until it runs).
func (plan *restorePlan) retypedFrom(st *store.Store, name string, n int) []string {
	if plan.notStarted[n] {
		return nil
	}
	ms, err := st.Pending(name, plan.names[n], store.Confirmed)
	if err != nil {
		return nil
	}
	now := time.Now()
	var from []string
	for _, m := range ms {
		meta := proto.StoredSendMeta(m.Meta)
		// As the hub judges it when it types the message (hub/send.go): expired at
		// its expiry.
		if exp := meta.Expiry(time.UnixMilli(m.Queued)); meta.XRemindMs > 0 || !exp.IsZero() && !now.Before(exp) {
			continue
		}
		from = append(from, m.From)
	}
	return from
}

// retypedInto counts the messages into pane n from the external senders named from (in
// lower case; "" for any of them) that the store will type again: each spent the
// client budget into the pane when it was first queued and spends it again when it is
// queued anew.
func (plan *restorePlan) retypedInto(st *store.Store, name string, n int, from string) int {
	panes := map[string]bool{}
	for _, p := range plan.names {
		panes[strings.ToLower(p)] = true
	}
	k := 0
	for _, sender := range plan.retypedFrom(st, name, n) {
		f := strings.ToLower(sender)
		if panes[f] || sender == hub.PersonName || sender == hub.WebPersonName {
			continue // a pane's (its direct budget) or the person's (none)
		}
		if from == "" || f == from {
			k++
		}
	}
	return k
}

// paneNote is what the person is told about one pane of a restored session.
type paneNote struct {
	pane string
	text string
}

// restoredOptions reads session name's snapshot from the store and makes the options
// that start it again: its flags from the words it was started with, its panes as
// they were, each agent CLI on its own conversation where one is known.
func restoredOptions(name string) (options, *restorePlan, error) {
	st, err := openStoreIfAny()
	if err != nil {
		return options{}, nil, err
	}
	defer st.Close()
	sn, err := st.Snapshot(name)
	if err != nil {
		return options{}, nil, fmt.Errorf("restore %s: %w", name, err)
	}
	var sv savedSession
	if err := json.Unmarshal(sn.Spec, &sv); err != nil {
		return options{}, nil, fmt.Errorf("restore %s: the stored description: %w", name, err)
	}
	if len(sv.Panes) == 0 {
		return options{}, nil, fmt.Errorf("restore %s: the store holds no panes of it", name)
	}
	if err := sv.Person.Admits(here()); err != nil {
		return options{}, nil, fmt.Errorf("restore %s: %w", name, err)
	}
	convs, err := st.Conversations(name)
	if err != nil {
		return options{}, nil, fmt.Errorf("restore %s: %w", name, err)
	}
	o, err := parseArgs(sv.Args)
	if err != nil {
		return options{}, nil, fmt.Errorf("restore %s: its command line: %w", name, err)
	}
	o.session, o.detached, o.sess.Link = name, false, false
	o.set["session"] = true
	plan := &restorePlan{saved: sv, given: map[int][]string{}, convs: map[int]store.Conversation{},
		trees: map[int]bool{}, treeDirs: map[int]string{}, names: map[int]string{}, notStarted: map[int]bool{}}
	o.sess.Panes = nil
	last := 0
	for i, p := range sv.Panes {
		// Each pane comes back with its number (a record that lost them is numbered in order).
		n := p.Number
		if n <= last {
			n = last + 1
		}
		last = n
		plan.names[n] = p.Name
		spec, note := plan.pane(n, p, convs[p.Number], sn.Folder)
		spec.Number = n
		if spec.NotStarted {
			plan.notStarted[n] = true
		}
		if note != "" {
			plan.notes = append(plan.notes, paneNote{pane: p.Name, text: note})
		}
		if p.Worktree && spec.Dir == p.Dir {
			plan.trees[i] = true
		}
		o.sess.Panes = append(o.sess.Panes, spec)
		if p.Held {
			plan.held = append(plan.held, n)
		}
	}
	o.trees = make([]bool, len(o.sess.Panes)) // the kept trees are taken back after setupPanes
	o.sess.View = sv.View
	for _, g := range sv.Groups {
		if g.Remote != "" {
			if len(g.Members) == 1 && plan.names[g.Members[0]] != "" && g.Tag != "" {
				plan.remote = append(plan.remote, mesh.RestoredLink{Pane: strconv.Itoa(g.Members[0]), Addr: g.Remote, Tag: g.Tag,
					Used: max(g.Used-g.Peer, 0), Peer: g.Peer, Budget: g.Budget})
			}
			continue
		}
		ng := savedGroup{Used: g.Used, Budget: g.Budget, Limit: g.Limit, Spent: g.Spent}
		for _, m := range g.Members {
			if _, ok := plan.names[m]; ok {
				ng.Members = append(ng.Members, m)
			}
		}
		plan.groups = append(plan.groups, ng)
	}
	return o, plan, nil
}

// pane is the spec that starts saved pane p again as pane n: in its folder (the
// session's when it is gone), on its conversation c when its CLI can resume one. A
// program that is not installed any more starts a note saying so, and the pane stays
// exited. The note says what differs from how the pane was.
func (plan *restorePlan) pane(n int, p savedPane, c store.Conversation, folder string) (session.PaneSpec, string) {
	spec := session.PaneSpec{Name: p.Name, Argv: p.Command, Env: p.Env, Profile: p.Profile, Dir: p.Dir}
	plan.given[n] = p.Command
	var notes []string
	if fi, err := os.Stat(spec.Dir); spec.Dir != "" && (err != nil || !fi.IsDir()) {
		what := "folder"
		if p.Worktree {
			what = "worktree"
		}
		notes = append(notes, fmt.Sprintf("its %s %s is gone, started in %s", what, spec.Dir, folder))
		spec.Dir = folder
		if _, err := os.Stat(folder); err != nil {
			spec.Dir = ""
		}
	}
	if p.Worktree {
		plan.treeDirs[n-1] = folder
	} else if spec.Dir == folder {
		spec.Dir = "" // the session's own, where the restored server starts: no folder of its own
	}
	if len(spec.Argv) == 0 {
		return exitedPane(spec, "no command was recorded for it"), "no command was recorded: it stays exited"
	}
	if _, err := ptyhost.LookPath(spec.Argv[0]); err != nil {
		why := fmt.Sprintf("%s is not installed any more (%v)", spec.Argv[0], err)
		ex := exitedPane(spec, why)
		ex.Fresh = spec.Argv // prefix R then f: the program, once installed again
		return ex, why + ": it stays exited (prefix R then f starts it once installed again; agentmux new starts another program)"
	}
	if c.ID != "" && !runsCLI(p, spec.Argv, c.CLI) {
		// What a pane's hook said it ran is that pane's word: its conversation's CLI
		// must be the program the person started there, whose command it shapes.
		notes = append(notes, fmt.Sprintf("a conversation of %s was recorded, but the pane runs %s: started fresh", c.CLI, filepath.Base(spec.Argv[0])))
		c = store.Conversation{}
	}
	switch argv, ok := resumeArgv(spec.Argv, c); {
	case ok:
		spec.Argv, spec.Fresh = argv, spec.Argv // prefix R then f: a new conversation
		spec.Restored = "resumed"
		plan.convs[n] = c
	case c.ID != "":
		spec.Restored = notResumed
		notes = append(notes, fmt.Sprintf("%s's conversation %q cannot be resumed: started fresh", c.CLI, c.ID))
	case !session.IsShell(spec.Argv):
		spec.Restored = notResumed
		notes = append(notes, fmt.Sprintf("no conversation of %s was recorded (agentmux learns them from the hooks of claude, codex, gemini, qwen and opencode and from pi's extension): started fresh", filepath.Base(spec.Argv[0])))
	}
	return spec, strings.Join(notes, "; ")
}

// notResumed is the border's word for a restored agent that started fresh.
const notResumed = "fresh (not resumed)"

// exitedPane is spec running a note that says why its program cannot start, and
// exits 127 (command not found), as the pane then shows.
func exitedPane(spec session.PaneSpec, why string) session.PaneSpec {
	spec.Argv = []string{"/bin/sh", "-c", `printf 'agentmux restore: %s\n' "$1"; exit 127`, "agentmux", why}
	spec.NotStarted = true // what waits for it is kept for when its program runs
	return spec
}

// takeTrees takes back each restored pane's kept worktree (ts.make finds the one kept
// for this session and pane name); a tree that cannot be had is said, and the pane
// starts in the session's folder instead.
func (plan *restorePlan) takeTrees(o *options, ts *trees) {
	for i := range o.sess.Panes {
		if !plan.trees[i] {
			continue
		}
		spec := &o.sess.Panes[i]
		name := spec.Name
		if err := ts.make(spec); err != nil {
			spec.Dir = plan.treeDirs[i]
			plan.notes = append(plan.notes, paneNote{pane: name, text: fmt.Sprintf("its worktree could not be taken back (%v): started in %s", err, spec.Dir)})
		}
	}
}

// seedSpend gives the restored session s what it spent before, as the store recorded
// it: each pane its own total (the store keeps spend by pane name), the session the
// rest (panes closed before), so borders, ls and the caps count on from there.
func (plan *restorePlan) seedSpend(s *session.Session, st *store.Store, name string, log *slog.Logger) {
	totals, err := st.SpendBy(name, "pane", 0)
	if err != nil {
		log.Error("restore: what the panes spent", "err", err)
		return
	}
	here := map[string]bool{}
	for _, n := range plan.names {
		here[n] = true
	}
	var rest session.Spend
	for _, t := range totals {
		sp := session.Spend{Tokens: spend.Tokens{Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite},
			USD: t.CostUSD, Priced: t.Priced > 0, Unpriced: t.Unpriced > 0}
		if !here[t.Key] {
			rest = rest.Add(sp)
			continue
		}
		if err := s.SeedSpend(t.Key, sp); err != nil {
			log.Warn("restore: what a pane spent", "pane", t.Key, "err", err)
			rest = rest.Add(sp)
		}
	}
	if !rest.Tokens.IsZero() {
		if err := s.SeedSpend("", rest); err != nil {
			log.Warn("restore: what closed panes spent", "err", err)
		}
	}
}

// apply links, holds and keeps the conversations of the restored session s, and tells
// the person (the relay log, the status line and the log) what differs.
func (plan *restorePlan) apply(s *session.Session, st *store.Store, name string, log *slog.Logger) {
	if err := st.ReplaceConversations(name, plan.convs, time.Now().UnixMilli()); err != nil {
		log.Error("restore: keep the conversations", "err", err)
	}
	plan.seedSpend(s, st, name, log)
	for _, g := range plan.groups {
		l := session.RestoredLink{Members: g.Members, Used: max(g.Used-plan.retyped(st, name, g.Members), 0), Budget: g.Budget}
		var err error
		if l.Limit, l.Spent, err = readLimit(g.Limit, g.Spent); err != nil {
			log.Warn("restore: a link's spend budget", "members", g.Members, "err", err)
		}
		if err := s.LinkRestored(l); err != nil {
			log.Warn("restore: link", "members", g.Members, "err", err)
		}
	}
	// After the links, which renew their members' budgets as a person's link does. As
	// for a group's turns, a message the store types again spends its turn anew.
	if b := plan.saved.Budgets.budgets(plan.names, log); !b.IsZero() {
		for i, d := range b.Direct {
			b.Direct[i].Used = max(d.Used-plan.retyped(st, name, []int{d.A, d.B}), 0)
		}
		for i, x := range b.External {
			b.External[i].Used = max(x.Used-plan.retypedInto(st, name, x.Pane, x.From), 0)
		}
		if err := s.RestoreBudgets(b); err != nil {
			log.Warn("restore: what the budgets outside the links spent", "err", err)
		}
	}
	for _, p := range plan.saved.Panes {
		if p.Share != [2]int{} && plan.names[p.Number] != "" {
			if _, err := s.SetShare(p.Number, p.Share[0], p.Share[1]); err != nil {
				log.Warn("restore: size", "pane", p.Number, "err", err)
			}
		}
	}
	for _, n := range plan.held {
		if err := s.Hold(n); err != nil {
			log.Warn("restore: hold", "pane", n, "err", err)
		}
	}
	for _, nt := range plan.notes {
		log.Warn("restore: pane", "pane", nt.pane, "note", nt.text)
		s.Note(nt.pane, "restored "+nt.pane+": "+nt.text)
	}
	for n, c := range plan.convs {
		log.Info("restore: pane resumes its conversation", "pane", n, "cli", c.CLI, "conversation", c.ID)
	}
}
