package hub

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// errNoCore answers pane requests of a hub without a core.
var errNoCore = errors.New("this session has no panes")

// errNoWeb answers X_WEB on a hub whose session cannot serve a web view.
var errNoWeb = errors.New("this session has no web view")

// xList answers X_LIST: the members.
func (s *state) xList(_ *connState, _ *proto.Envelope, res *proto.Result) error {
	res.Members = s.list()
	return nil
}

// xCapture answers X_CAPTURE: a pane's screen, with its history when asked, cut to fit
// a frame.
func (s *state) xCapture(cs *connState, e *proto.Envelope, res *proto.Result) error {
	p, err := payload[proto.Capture](s, cs, e)
	if err != nil {
		return err
	}
	core := s.cfg.Core
	if core == nil {
		return errNoCore
	}
	id, err := core.Resolve(p.Target)
	if err != nil {
		return err
	}
	screen, err := core.Capture(id, p.Lines, p.SGR)
	if err == nil {
		screen = fitScreen(screen, s.budget(e.ID))
		res.Screen = &screen
	}
	return err
}

// xHistory answers X_HISTORY: a page of the stored messages.
func (s *state) xHistory(cs *connState, e *proto.Envelope, res *proto.Result) error {
	p, err := payload[proto.History](s, cs, e)
	if err != nil {
		return err
	}
	// At most historyRows rows are read for one page, whatever the limit asks: each is
	// held whole until the page is cut to a frame (and the loop waits meanwhile). A
	// limit past it goes on where the page stops (Next), as one a frame cut short does.
	limit := min(p.Limit, historyRows)
	if limit <= 0 {
		limit = historyRows
	}
	name := s.canonical(p.Member)
	// Read no more than a page can carry: rows of large messages are many megabytes,
	// read while the loop waits.
	ms, more, err := s.cfg.Store.HistoryWithin(store.Query{Session: s.cfg.Session, Member: name, SinceMs: p.SinceMs, Before: p.Before, Limit: limit,
		Bytes: s.budget(e.ID)})
	if err == nil && len(ms) == 0 && name != "" {
		if err = s.knownMember(name); err != nil {
			return err
		}
	}
	res.Messages, res.Next = s.historyPage(e.ID, ms)
	if res.Next == 0 && len(ms) > 0 && (more || p.Limit > historyRows && len(ms) == limit) {
		res.Next = ms[0].Row // older ones may wait: the client asks again from here
	}
	return err
}

// knownMember is nil when name is a member or pane of the session now, or was one in a
// message the store holds; else the error that names no member, as send's does: a name
// mistyped is told, not answered with an empty history.
func (s *state) knownMember(name string) error {
	if s.member(name) != nil {
		return nil
	}
	if _, ok := s.resolve(name); ok {
		return nil
	}
	found, err := s.cfg.Store.HasMember(s.cfg.Session, name)
	if err != nil || found {
		return err
	}
	return fmt.Errorf("no member %q, now or in this session's stored messages", name)
}

// historyRows is the most stored messages one X_HISTORY page reads.
const historyRows = 100

// xRead answers X_READ: one message, its body from an offset.
func (s *state) xRead(cs *connState, e *proto.Envelope, res *proto.Result) error {
	p, err := payload[proto.Read](s, cs, e)
	if err != nil {
		return err
	}
	ms, err := s.cfg.Store.Get(p.ID)
	if err == nil {
		res.Message, res.Messages, res.NextOffset, err = s.readPage(e.ID, ms, p.Offset)
	}
	return err
}

// xHook answers X_HOOK: an agent CLI's hook says its pane's turn ended (with the
// turn's usage) or that it asks the person.
func (s *state) xHook(cs *connState, e *proto.Envelope, _ *proto.Result) error {
	p, err := payload[proto.Hook](s, cs, e)
	if err != nil {
		return err
	}
	core := s.cfg.Core
	if core == nil {
		return errNoCore
	}
	pane, err := s.hookPane(cs, p.Pane)
	if err != nil {
		return err
	}
	s.recordConversation(core, pane, p)
	if ac, ok := core.(Asker); ok && p.Event == proto.HookAsk {
		return ac.HookAsk(pane, p.Text, hookSource(p.Event, p.CLI))
	} else if p.Event == proto.HookAsk {
		return nil
	}
	// The turn's usage first: the delivery of its answer then says what the turn
	// spent, and a link's spend budget is checked as the turn ends.
	log := s.cfg.Logger
	end := func(pane string) error {
		if p.Usage != "" {
			if uerr := core.Usage(pane, p.CLI, p.Usage); uerr != nil {
				log.Debug("hook usage", "pane", pane, "err", uerr)
			}
		}
		if p.Event == proto.HookConversation { // the id is kept above; it ends no turn
			return nil
		}
		return core.Hook(pane, p.Text, hookSource(p.Event, p.CLI))
	}
	if p.Usage == "" {
		return end(pane)
	}
	// The usage file is the pane's program's to name, and may be large: it is read off
	// the loop, which answers other clients meanwhile (the pane's meter reads one file
	// of the pane at a time). The pane goes by its number, taken now: a pane renamed
	// meanwhile, or another taking its name, gets nothing of this hook. (A later ask of
	// the same pane is handled on the loop at once, and may come before this turn's
	// end; the CLIs wait for each hook's answer before the next.)
	id, err := core.Resolve(pane)
	if err != nil {
		return err
	}
	s.offLoop(cs, e, proto.CodeBadRequest, func() (proto.Result, error) {
		return proto.Result{}, end(strconv.Itoa(id))
	})
	return errAnswered
}

// xAnswer answers X_ANSWER: the person picks a choice of the prompt a pane waits at.
func (s *state) xAnswer(cs *connState, e *proto.Envelope, res *proto.Result) error {
	p, err := payload[proto.Answer](s, cs, e)
	if err != nil {
		return err
	}
	core := s.cfg.Core
	ac, ok := core.(Answerer)
	p.A = s.ownAddress(p.A)
	switch {
	case core == nil:
		return errNoCore
	case !cs.person():
		// A prompt-injected agent must not approve its own request, or another's
		// (in this session or, over the mesh, in another).
		return fmt.Errorf("X_ANSWER from %s: only the person answers a pane's prompt, from outside the panes", cs.where())
	case s.otherSession(p.A):
		ra, ok := core.(RemoteAnswerer)
		if !ok {
			return errors.New("this session answers no other session's panes: it joined no mesh")
		}
		ctx := s.h.ctx
		s.offLoop(cs, e, proto.CodeBadRequest, func() (proto.Result, error) {
			o, err := ra.AnswerAcross(ctx, p.A, p.Option, p.Question)
			return proto.Result{Answer: &o}, err
		})
		return errAnswered
	case !ok:
		return errNoCore
	}
	return s.onPane(p.A, func(id int) error {
		// Off the loop: a prompt drawn a moment ago settles before its key is typed, and
		// the answer says answered only then.
		s.offLoop(cs, e, proto.CodeBadRequest, func() (proto.Result, error) {
			o, err := ac.AnswerPrompt(id, p.Option, p.Question)
			return proto.Result{Answer: &o}, err
		})
		return errAnswered
	})
}

// offDone is the result of a request computed off the loop (offLoop), back on it.
type offDone struct {
	c    *conn
	re   string
	code string // the ERROR code of a failure
	res  proto.Result
	err  error
}

// offLoop computes the result of request e off the loop, for work that waits (on the
// network, or on a pane's prompt to settle); the result comes back to the loop as
// offDone and goes to cs if it is still open then (its Re set; code if it failed).
func (s *state) offLoop(cs *connState, e *proto.Envelope, code string, work func() (proto.Result, error)) {
	h, c, re := s.h, cs.c, e.ID
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		res, err := offWork(h, e.Type, work)
		h.post(offDone{c: c, re: re, code: code, res: res, err: err})
	}()
}

// offWork runs an offLoop's work; a panic in it (a bug) is its request's error, logged
// with its stack, instead of the end of the session.
func offWork(h *Hub, typ string, work func() (proto.Result, error)) (res proto.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			h.cfg.Logger.Error("panic handling a request off the loop", "type", typ, "panic", p, "stack", string(debug.Stack()))
			res, err = proto.Result{}, fmt.Errorf("internal error handling %s: %v", typ, p)
		}
	}()
	return work()
}

// open returns c's state while it is open (nil once it closes or is closing): where a
// result computed off the loop goes.
func (s *state) open(c *conn) *connState {
	if cs := s.conns[c]; cs != nil && !cs.closing {
		return cs
	}
	return nil
}

// sendOff sends a result computed off the loop to its connection, if still open.
func (s *state) sendOff(ev offDone) {
	cs := s.open(ev.c)
	if cs == nil {
		return
	}
	if ev.err != nil {
		s.fail(cs, ev.code, ev.err.Error(), ev.re)
		return
	}
	ev.res.Re = ev.re
	s.reply(cs, proto.TypeResult, ev.res)
}

// xWeb answers X_WEB: the person starts (or stops) the web view, or asks a new link.
func (s *state) xWeb(cs *connState, e *proto.Envelope, res *proto.Result) error {
	p, err := payload[proto.Web](s, cs, e)
	if err != nil {
		return err
	}
	if s.cfg.Web == nil {
		return errNoWeb
	}
	if !cs.person() {
		// The page shows every pane (and, with control, types into them): opening it
		// is the person's, never a pane's program's, however prompted.
		return fmt.Errorf("X_WEB from %s: only the person starts the web view, from outside the panes", cs.where())
	}
	v, err := s.cfg.Web(p)
	if err == nil {
		res.Web = &v
	}
	return err
}

// xRelay answers X_LINK, X_UNLINK, X_HOLD and X_RELEASE (and X_LINK's answers to other
// sessions' requests).
func (s *state) xRelay(cs *connState, e *proto.Envelope, res *proto.Result) error {
	p, err := payload[proto.Target](s, cs, e)
	if err != nil {
		return err
	}
	core := s.cfg.Core
	if core == nil {
		return errNoCore
	}
	if e.Type == proto.TypeLink && (p.Accept || p.Refuse || p.Pending) {
		res.LinkRequests, err = s.answerLink(cs, p)
		return err
	}
	if e.Type == proto.TypeLink && p.B == "" {
		s.badPayload(cs, e, errors.New("X_LINK: missing field b"))
		return errAnswered
	}
	p.A, p.B = s.ownAddress(p.A), s.ownAddress(p.B)
	if (e.Type == proto.TypeLink || e.Type == proto.TypeUnlink) && (s.otherSession(p.A) || s.otherSession(p.B)) {
		return s.linkAcross(cs, e.Type, p)
	}
	a, err := core.Resolve(p.A)
	if err != nil {
		return err
	}
	if err := s.mayRelay(cs, e.Type, a, p.Shell); err != nil {
		return err
	}
	switch e.Type {
	case proto.TypeLink:
		b, err := core.Resolve(p.B)
		if err != nil {
			return err
		}
		switch err := s.mayBudget(cs, p); {
		case err != nil:
			return err
		case p.Turns != 0 || p.Budget != "":
			return core.(LinkBudgeter).LinkWithBudget(a, b, p.Shell, p.Turns, p.Budget)
		case p.Shell:
			return core.LinkShell(a, b)
		case !cs.person():
			return core.LinkByPane(a, b)
		}
		return core.Link(a, b)
	case proto.TypeUnlink:
		return core.Unlink(a)
	case proto.TypeHold:
		return core.Hold(a)
	}
	return core.Release(a)
}

// ownAddress reads NAME@SESSION of this session as NAME.
func (s *state) ownAddress(x string) string {
	if i := strings.LastIndexByte(x, '@'); i > 0 && x[i+1:] == s.cfg.Session {
		return x[:i]
	}
	return x
}

// otherSession says whether x is NAME@SESSION of another session.
func (s *state) otherSession(x string) bool {
	i := strings.LastIndexByte(x, '@')
	return i > 0 && i < len(x)-1 && x[i+1:] != s.cfg.Session
}

// linkAcross links (X_LINK) a pane with a member of another session, in either place,
// or unlinks (X_UNLINK) the panes linked with one, through the core's Linker.
func (s *state) linkAcross(cs *connState, typ string, p proto.Target) error {
	lk, ok := s.cfg.Core.(Linker)
	if !ok {
		return errors.New("this session links with no other session: it joined no mesh")
	}
	if !cs.person() {
		// A link with another session's member sends it every turn of the pane and
		// types its turns here: the person's to make, never a program's, however
		// prompted.
		return fmt.Errorf("%s with a member of another session from %s: only the person links and unlinks across sessions, from outside the panes", typ, cs.where())
	}
	if typ == proto.TypeUnlink {
		return lk.UnlinkAcross(p.A)
	}
	local, addr := p.A, p.B
	if s.otherSession(local) {
		local, addr = addr, local
	}
	if s.otherSession(local) {
		return fmt.Errorf("link %s with %s: one of the two must be a pane of this session", p.A, p.B)
	}
	a, err := s.cfg.Core.Resolve(local)
	if err != nil {
		return err
	}
	return lk.LinkAcross(a, addr, p.Shell)
}

// mayRelay refuses the relay actions (X_LINK, X_UNLINK, X_HOLD, X_RELEASE on pane a)
// that are the person's alone when cs is not the person: a link into a shell (whatever
// an agent answered would run as commands), unlinking a link cs's own pane is not in,
// holding or releasing a pane other than its own. A pane's program may link agents and
// leave or hold its own link, however prompted; nothing more.
func (s *state) mayRelay(cs *connState, typ string, a int, shell bool) error {
	if cs.person() {
		return nil
	}
	if typ == proto.TypeLink {
		if shell {
			return fmt.Errorf("X_LINK --shell from %s: only the person links a shell, from outside the panes", cs.where())
		}
		return nil
	}
	target, _ := s.resolve(strconv.Itoa(a))
	var own proto.Member
	if self := cs.self(); self != "" {
		own, _ = s.resolve(self)
	}
	switch {
	case own.Number != 0 && own.Number == target.Number:
		return nil
	case typ == proto.TypeUnlink && own.Number != 0 && target.Group != "" && own.Group == target.Group:
		return nil
	case typ == proto.TypeUnlink:
		return fmt.Errorf("X_UNLINK of pane %s from %s: only the person unlinks a link the pane is not in", target.Name, cs.where())
	}
	return fmt.Errorf("%s of pane %s from %s: only the person holds or releases another pane", typ, target.Name, cs.where())
}

// mayBudget refuses a link's budgets (X_LINK with Turns or Budget) unless they come
// from the person and the core takes them: a pane's program, however prompted, links
// with the session's budgets, never with more of its own choosing.
func (s *state) mayBudget(cs *connState, p proto.Target) error {
	if p.Turns == 0 && p.Budget == "" {
		return nil
	}
	if !cs.person() {
		return fmt.Errorf("X_LINK with a budget from %s: only the person gives a link its budget, from outside the panes", cs.where())
	}
	if _, ok := s.cfg.Core.(LinkBudgeter); !ok {
		return errors.New("X_LINK: this session sets no link budgets")
	}
	if p.Turns < 0 {
		return fmt.Errorf("X_LINK: %d turns: want 1 or more", p.Turns)
	}
	return nil
}

// answerLink answers (Accept, Refuse) or lists (Pending) the requests of other
// sessions' members to link with a pane of this session: the person's alone, as a
// link across sessions is.
func (s *state) answerLink(cs *connState, p proto.Target) ([]proto.LinkRequest, error) {
	la, ok := s.cfg.Core.(LinkAnswerer)
	if !ok {
		return nil, errors.New("this session links with no other session: it joined no mesh")
	}
	if p.Pending {
		return la.PendingLinks(), nil
	}
	if p.Accept == p.Refuse {
		return nil, errors.New("X_LINK: accept or refuse, one of the two")
	}
	if !cs.person() {
		return nil, errors.New("X_LINK: only the person answers a link request from another session, from outside the panes")
	}
	return nil, la.AnswerLink(p.A, p.Accept)
}

// hookSource names a hook for the relay log: "claude Stop hook".
func hookSource(event, cli string) string {
	source := event + " hook"
	if cli != "" {
		source = cli + " " + source
	}
	return source
}

// list is the panes, then the client members (connected or away), by name.
func (s *state) list() []proto.Member {
	out := s.panes()
	for _, m := range s.sortedMembers() {
		st := "connected"
		if m.cs == nil {
			st = "away"
		}
		prog := m.program
		if prog == "" {
			prog = "client"
		}
		out = append(out, proto.Member{Name: m.name, Program: prog, State: st, Waiting: m.depth(), Client: true})
	}
	if out == nil {
		out = []proto.Member{}
	}
	return out
}

// WireMessage is a stored message as the wire carries it (X_HISTORY, X_READ).
func WireMessage(m store.Message) proto.Message {
	w := proto.Message{
		ID: m.ID, Session: m.Session, From: m.From, To: m.To, Topic: m.Topic, Kind: m.Kind, Body: m.Body, Seq: m.Seq,
		Queued: m.Queued, Typed: m.Typed, Submitted: m.Submitted, Confirmed: m.Confirmed, Failed: m.Failed, Dropped: m.Dropped, Expired: m.Expired,
	}
	if m.Data != "" {
		w.Data = []byte(m.Data)
	}
	if m.BodyBytes > 0 { // read cut (store.Query.Bytes): X_READ gives it whole
		w.Cut, w.BodyBytes = true, m.BodyBytes
	}
	return w
}

// errNotPerson refuses a pane command from anyone but the person.
var errNotPerson = errors.New("only the person may start, respawn, rename or type into panes: run it outside every pane (or use the keys)")

// paneRequest makes a pane command's request (X_NEW, X_RESPAWN, X_RENAME, X_TYPE,
// X_RESIZE, X_DIFF): the person's alone; its errors are answered BAD_REQUEST.
func paneRequest(r func(s *state, cs *connState, pc PaneCore, e *proto.Envelope, res *proto.Result) error) request {
	return func(s *state, cs *connState, e *proto.Envelope, res *proto.Result) error {
		if !cs.person() {
			return codedError{proto.CodeBadRequest, errNotPerson}
		}
		pc, ok := s.cfg.Core.(PaneCore)
		if !ok {
			return codedError{proto.CodeBadRequest, errNoCore}
		}
		err := r(s, cs, pc, e, res)
		if err != nil && !errors.Is(err, errAnswered) {
			return codedError{proto.CodeBadRequest, err}
		}
		return err
	}
}

// xNew starts a pane.
func xNew(s *state, cs *connState, pc PaneCore, e *proto.Envelope, res *proto.Result) error {
	p, err := payload[proto.NewPane](s, cs, e)
	if err != nil {
		return err
	}
	res.Number, res.Name, err = pc.New(p)
	return err
}

// xRespawn starts a pane's program again.
func xRespawn(s *state, cs *connState, pc PaneCore, e *proto.Envelope, _ *proto.Result) error {
	p, err := payload[proto.Respawn](s, cs, e)
	if err != nil {
		return err
	}
	return s.onPane(p.A, func(id int) error { return pc.Respawn(id, p.Kill) })
}

// xRename renames a pane.
func xRename(s *state, cs *connState, pc PaneCore, e *proto.Envelope, _ *proto.Result) error {
	p, err := payload[proto.Rename](s, cs, e)
	if err != nil {
		return err
	}
	return s.onPane(p.A, func(id int) error { return pc.Rename(id, p.Name) })
}

// xDiff answers with what a pane's agent changed in its worktree, cut to fit a frame.
// git runs off the loop: a large tree takes it a while, and the hub answers others
// meanwhile.
func xDiff(s *state, cs *connState, pc PaneCore, e *proto.Envelope, _ *proto.Result) error {
	p, err := payload[proto.Target](s, cs, e)
	if err != nil {
		return err
	}
	return s.onPane(p.A, func(id int) error {
		budget := s.budget(e.ID)
		s.offLoop(cs, e, proto.CodeBadRequest, func() (proto.Result, error) {
			text, err := pc.Diff(id)
			if err != nil {
				return proto.Result{}, err
			}
			text = fitScreen(text, budget)
			return proto.Result{Screen: &text}, nil
		})
		return errAnswered
	})
}

// xResize sets a pane's share of the screen.
func xResize(s *state, cs *connState, pc PaneCore, e *proto.Envelope, res *proto.Result) error {
	p, err := payload[proto.Resize](s, cs, e)
	if err != nil {
		return err
	}
	return s.onPane(p.A, func(id int) error {
		sh, err := pc.SetShare(id, p.Width, p.Height)
		if err == nil {
			res.Share = sh[:]
		}
		return err
	})
}

// xType types text into a pane as it is.
func xType(s *state, cs *connState, pc PaneCore, e *proto.Envelope, _ *proto.Result) error {
	p, err := payload[proto.TypeText](s, cs, e)
	if err != nil {
		return err
	}
	return s.onPane(p.A, func(id int) error { return pc.TypeText(id, p.Text, p.Enter) })
}

// onPane runs f on the pane named or numbered ref (the core resolves it).
func (s *state) onPane(ref string, f func(id int) error) error {
	id, err := s.cfg.Core.Resolve(ref)
	if err != nil {
		return err
	}
	return f(id)
}
