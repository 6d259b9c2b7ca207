package hub

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// errNoCore answers pane requests of a hub without a core.
var errNoCore = errors.New("this session has no panes")

// errNoWeb answers X_WEB on a hub whose session cannot serve a web view.
var errNoWeb = errors.New("this session has no web view")

// ext answers the agentmux extension requests with X_RESULT or a non-fatal ERROR.
func (s *state) ext(cs *connState, e *proto.Envelope) {
	s.flush() // the store answers with every phase recorded so far
	res := proto.Result{Re: e.ID}
	var err error
	core := s.cfg.Core
	switch e.Type {
	case proto.TypeList:
		res.Members = s.list()
	case proto.TypeEvents:
		cs.events = true
	case proto.TypeCapture:
		var p proto.Capture
		if p, err = proto.DecodePayload[proto.Capture](e); err != nil {
			s.badPayload(cs, e, err)
			return
		}
		if core == nil {
			err = errNoCore
			break
		}
		var screen string
		var id int
		if id, err = core.Resolve(p.Target); err != nil {
			break
		}
		if screen, err = core.Capture(id, p.Lines, p.SGR); err == nil {
			screen = fitScreen(screen, s.budget(e.ID))
			res.Screen = &screen
		}
	case proto.TypeHistory:
		var p proto.History
		if p, err = proto.DecodePayload[proto.History](e); err != nil {
			s.badPayload(cs, e, err)
			return
		}
		var ms []store.Message
		ms, err = s.cfg.Store.History(store.Query{Session: s.cfg.Session, Member: s.canonical(p.Member), SinceMs: p.SinceMs, Before: p.Before, Limit: p.Limit})
		res.Messages, res.Next = s.historyPage(e.ID, ms)
	case proto.TypeRead:
		var p proto.Read
		if p, err = proto.DecodePayload[proto.Read](e); err != nil {
			s.badPayload(cs, e, err)
			return
		}
		var ms []store.Message
		if ms, err = s.cfg.Store.Get(p.ID); err == nil {
			res.Message, res.Messages, res.NextOffset, err = s.readPage(e.ID, ms, p.Offset)
		}
	case proto.TypeHook:
		var p proto.Hook
		if p, err = proto.DecodePayload[proto.Hook](e); err != nil {
			s.badPayload(cs, e, err)
			return
		}
		if core == nil {
			err = errNoCore
			break
		}
		var pane string
		if pane, err = s.hookPane(cs, p.Pane); err == nil {
			s.recordConversation(core, pane, p)
			if ac, ok := core.(Asker); ok && p.Event == proto.HookAsk {
				err = ac.HookAsk(pane, p.Text, hookSource(p.Event, p.CLI))
			} else if p.Event != proto.HookAsk {
				// The turn's usage first: the delivery of its answer then says what the
				// turn spent, and a link's spend budget is checked as the turn ends.
				if p.Usage != "" {
					if uerr := core.Usage(pane, p.CLI, p.Usage); uerr != nil {
						s.cfg.Logger.Debug("hook usage", "pane", pane, "err", uerr)
					}
				}
				err = core.Hook(pane, p.Text, hookSource(p.Event, p.CLI))
			}
		}
	case proto.TypeNew, proto.TypeRespawn, proto.TypeRename, proto.TypeType, proto.TypeResize, proto.TypeDiff:
		if bad, err := s.paneCommand(cs, e, &res); bad {
			s.badPayload(cs, e, err)
			return
		} else if err != nil {
			s.fail(cs, proto.CodeBadRequest, err.Error(), e.ID)
			return
		}
	case proto.TypeAnswer:
		var p proto.Answer
		if p, err = proto.DecodePayload[proto.Answer](e); err != nil {
			s.badPayload(cs, e, err)
			return
		}
		ac, ok := core.(Answerer)
		p.A = s.ownAddress(p.A)
		switch {
		case core == nil:
			err = errNoCore
		case !cs.person():
			// A prompt-injected agent must not approve its own request, or another's
			// (in this session or, over the mesh, in another).
			err = fmt.Errorf("X_ANSWER from %s: only the person answers a pane's prompt, from outside the panes", cs.where())
		case s.otherSession(p.A):
			ra, ok := core.(RemoteAnswerer)
			if !ok {
				err = errors.New("this session answers no other session's panes: it joined no mesh")
				break
			}
			s.answerAcross(cs, e, ra, p)
			return
		case !ok:
			err = errNoCore
		default:
			err = s.onPane(p.A, func(id int) error {
				o, err := ac.AnswerPrompt(id, p.Option, p.Question)
				if err == nil {
					res.Answer = &o
				}
				return err
			})
		}
	case proto.TypeWeb:
		var p proto.Web
		if p, err = proto.DecodePayload[proto.Web](e); err != nil {
			s.badPayload(cs, e, err)
			return
		}
		if s.cfg.Web == nil {
			err = errNoWeb
			break
		}
		if !cs.person() {
			// The page shows every pane (and, with control, types into them): opening it
			// is the person's, never a pane's program's, however prompted.
			err = fmt.Errorf("X_WEB from %s: only the person starts the web view, from outside the panes", cs.where())
			break
		}
		var v proto.WebView
		if v, err = s.cfg.Web(p); err == nil {
			res.Web = &v
		}
	default: // link, unlink, hold, release
		var p proto.Target
		if p, err = proto.DecodePayload[proto.Target](e); err != nil {
			s.badPayload(cs, e, err)
			return
		}
		if core == nil {
			err = errNoCore
			break
		}
		if e.Type == proto.TypeLink && (p.Accept || p.Refuse || p.Pending) {
			res.LinkRequests, err = s.answerLink(cs, p)
			break
		}
		if e.Type == proto.TypeLink && p.B == "" {
			s.badPayload(cs, e, errors.New("X_LINK: missing field b"))
			return
		}
		p.A, p.B = s.ownAddress(p.A), s.ownAddress(p.B)
		if (e.Type == proto.TypeLink || e.Type == proto.TypeUnlink) && (s.otherSession(p.A) || s.otherSession(p.B)) {
			err = s.linkAcross(cs, e.Type, p)
			break
		}
		var a int
		if a, err = core.Resolve(p.A); err != nil {
			break
		}
		if err = s.mayRelay(cs, e.Type, a, p.Shell); err != nil {
			break
		}
		switch e.Type {
		case proto.TypeLink:
			var b int
			if b, err = core.Resolve(p.B); err != nil {
				break
			}
			if p.Shell {
				err = core.LinkShell(a, b)
			} else {
				err = core.Link(a, b)
			}
		case proto.TypeUnlink:
			err = core.Unlink(a)
		case proto.TypeHold:
			err = core.Hold(a)
		case proto.TypeRelease:
			err = core.Release(a)
		}
	}
	if err != nil {
		code := proto.CodeInternal
		if errors.Is(err, store.ErrNotFound) {
			code = proto.CodeNotFound
		} else if errors.Is(err, errNoCore) || errors.Is(err, errNoWeb) || e.Type != proto.TypeHistory {
			code = proto.CodeBadRequest
		}
		s.fail(cs, code, err.Error(), e.ID)
		return
	}
	s.reply(cs, proto.TypeResult, res)
	if e.Type == proto.TypeEvents {
		// The stream's first event: a script knows from here on nothing is missed.
		s.eventTo(cs, proto.Event{Kind: proto.EventSubscribed})
	}
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
	return w
}

// errNotPerson refuses a pane command from anyone but the person.
var errNotPerson = errors.New("only the person may start, respawn, rename or type into panes: run it outside every pane (or use the keys)")

// paneCommand runs X_NEW, X_RESPAWN, X_RENAME, X_TYPE or X_RESIZE for the person; bad says err is
// a payload that does not validate.
func (s *state) paneCommand(cs *connState, e *proto.Envelope, res *proto.Result) (bad bool, err error) {
	if !cs.person() {
		return false, errNotPerson
	}
	pc, ok := s.cfg.Core.(PaneCore)
	if !ok {
		return false, errNoCore
	}
	switch e.Type {
	case proto.TypeNew:
		p, err := proto.DecodePayload[proto.NewPane](e)
		if err != nil {
			return true, err
		}
		res.Number, res.Name, err = pc.New(p)
		return false, err
	case proto.TypeRespawn:
		p, err := proto.DecodePayload[proto.Respawn](e)
		if err != nil {
			return true, err
		}
		return false, s.onPane(p.A, func(id int) error { return pc.Respawn(id, p.Kill) })
	case proto.TypeRename:
		p, err := proto.DecodePayload[proto.Rename](e)
		if err != nil {
			return true, err
		}
		return false, s.onPane(p.A, func(id int) error { return pc.Rename(id, p.Name) })
	case proto.TypeDiff:
		p, err := proto.DecodePayload[proto.Target](e)
		if err != nil {
			return true, err
		}
		return false, s.onPane(p.A, func(id int) error {
			text, err := pc.Diff(id)
			if err == nil {
				text = fitScreen(text, s.budget(e.ID))
				res.Screen = &text
			}
			return err
		})
	case proto.TypeResize:
		p, err := proto.DecodePayload[proto.Resize](e)
		if err != nil {
			return true, err
		}
		return false, s.onPane(p.A, func(id int) error {
			sh, err := pc.SetShare(id, p.Width, p.Height)
			if err == nil {
				res.Share = sh[:]
			}
			return err
		})
	default:
		p, err := proto.DecodePayload[proto.TypeText](e)
		if err != nil {
			return true, err
		}
		return false, s.onPane(p.A, func(id int) error { return pc.TypeText(id, p.Text, p.Enter) })
	}
}

// onPane runs f on the pane named or numbered ref (the core resolves it).
func (s *state) onPane(ref string, f func(id int) error) error {
	id, err := s.cfg.Core.Resolve(ref)
	if err != nil {
		return err
	}
	return f(id)
}
