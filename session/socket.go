package session

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/relay"
	"github.com/agentmux/agentmux/usage"
)

// What the session socket's server (package hub) needs of the core beyond the commands
// every client uses: the panes as the socket lists them, the events in the form the
// socket passes them on, and the pane commands it takes from the person. The hub
// declares the interface; *Session satisfies it as it is, so the socket is a client of
// the core like the TUI, with no adapter in between. Values turn into proto's types
// here, at the core's edge towards the socket, and nowhere earlier.

// Panes lists the panes as the socket's LIST gives them: each with its state as its
// border says it (an exited one with its code or signal), its group as the status
// line shows it ("2⇄3⇄4") with its turns ("3/8"), its folder and branch. External members are the socket's
// own clients and are not listed.
func (s *Session) Panes() []proto.Member {
	labels, turns := map[int]string{}, map[int]proto.Turns{}
	for _, g := range s.Status().Groups {
		turns[g.ID] = proto.Turns{Used: g.Used, Budget: g.Budget}
		ids := make([]string, len(g.Members))
		for i, id := range g.Members {
			ids[i] = strconv.Itoa(id)
		}
		if g.Remote != "" {
			ids = append(ids, g.Remote)
		}
		labels[g.ID] = strings.Join(ids, "⇄")
	}
	var out []proto.Member
	for _, m := range s.Members() {
		if !m.External {
			out = append(out, wireMember(m, labels, turns))
		}
	}
	return out
}

// wireMember is pane m as LIST gives it, labels naming the groups and turns counting
// their budgets.
func wireMember(m Member, labels map[int]string, turns map[int]proto.Turns) proto.Member {
	w := proto.Member{Number: m.Pane, Name: m.Name, Program: m.Program, State: m.State.String(), Waiting: m.Waiting,
		Held: m.Held, Addressing: m.Addressing, Profile: m.Profile, Folder: m.Dir}
	if m.Tree != nil {
		w.Folder, w.Branch = m.Tree.Folder(), m.Tree.Branch()
	}
	if m.State == Exited {
		w.State = ExitText(m.Code)
	}
	w.Metered = m.Metered
	if sp := m.Spend; !sp.Tokens.IsZero() || sp.Priced {
		w.Tokens = wireTokens(sp.Tokens)
		if sp.Priced {
			usd := sp.USD
			w.CostUSD = &usd
		}
		w.CostPartial = sp.Priced && sp.Unpriced
		w.CostOwn = sp.Own
	}
	w.Asks = WireAsks(m.Asks)
	if m.Group > 0 {
		w.Group = labels[m.Group]
		if t, ok := turns[m.Group]; ok {
			w.Turns = &t
		}
	}
	return w
}

// Events returns a new subscription to the session's events in the form the socket
// passes them on (proto.Events): output and status summaries are left out.
func (s *Session) Events() proto.Events { return wireEvents{s.Subscribe(0)} }

type wireEvents struct{ *Subscription }

// Next takes the pending events.
func (e wireEvents) Next() []proto.Event {
	var out []proto.Event
	for _, ev := range e.Subscription.Next() {
		out = append(out, wireEvent(ev)...)
	}
	return out
}

// wirePhases are the relay's phases by their wire names (the relay log's words, as
// "waiting for idle", are the screens').
var wirePhases = map[relay.Phase]proto.Phase{
	relay.Waiting: proto.PhaseWaiting, relay.WaitingPerson: proto.PhaseWaitingPerson, relay.Held: proto.PhaseHeld,
	relay.Typed: proto.PhaseTyped, relay.Submitted: proto.PhaseSubmitted, relay.Confirmed: proto.PhaseConfirmed,
	relay.Failed: proto.PhaseFailed, relay.Dropped: proto.PhaseDropped, relay.Expired: proto.PhaseExpired,
}

// wireEvent is ev as the socket carries it (none for events it does not carry). A
// delivery the relay queued by itself (Entry.Own: a pane's relayed turn or relay
// command) is announced first, at its first event, by a "relayed" event with its
// whole body, so that the socket records it under its id before its phases.
func wireEvent(ev Event) []proto.Event {
	switch ev := ev.(type) {
	case MemberChanged:
		return []proto.Event{{Kind: proto.EventMember, Member: ev.Member.Name, State: ev.Member.State.String(), Asks: WireAsks(ev.Member.Asks)}}
	case Exit:
		code := ev.Code
		return []proto.Event{{Kind: proto.EventExit, Member: strconv.Itoa(ev.Pane), Code: &code}}
	case Closed:
		if ev.Done {
			return nil
		}
		return []proto.Event{{Kind: proto.EventClosed, Member: strconv.Itoa(ev.Pane)}}
	case Alert:
		return []proto.Event{{Kind: proto.EventAlert, Member: strconv.Itoa(ev.Pane), Text: ev.Text}}
	case Spent:
		sp := &proto.Spend{Model: ev.Model, Requests: ev.Requests, Link: ev.Link, Tokens: *wireTokens(ev.Spend.Tokens)}
		if ev.Spend.Priced && !ev.Spend.Unpriced {
			usd := ev.Spend.USD
			sp.CostUSD = &usd
		}
		return []proto.Event{{Kind: proto.EventSpend, Member: ev.Name, To: ev.Link, Spend: sp}}
	case Delivery:
		en := ev.Entry
		var out []proto.Event
		if ev.Fresh && en.Own && en.ID != "" {
			kind := string(en.Kind)
			if kind == "" {
				kind = proto.KindMessage
			}
			out = append(out, proto.Event{Kind: proto.EventRelayed, ID: en.ID, Member: en.ToName, From: en.FromName, To: en.ToName, MsgKind: kind, Text: en.Body})
		}
		return append(out, proto.Event{
			Kind: proto.EventDelivery, ID: en.ID, Member: en.ToName, From: en.FromName, To: en.ToName, Phase: wirePhases[en.Phase], Text: en.Words,
		})
	case Mail:
		return []proto.Event{{Kind: proto.EventMail, ID: ev.ID, Member: ev.To, Text: ev.Text}}
	case Turn:
		return []proto.Event{{Kind: proto.EventTurn, Member: ev.Name, Text: ev.Text}}
	case Renamed:
		return []proto.Event{{Kind: proto.EventRenamed, Member: ev.To, From: ev.From}}
	case Notice:
		return []proto.Event{{Kind: proto.EventNotice, Text: ev.Entry.Note}}
	}
	return nil
}

// New starts the pane p describes (the socket's NEW) and returns its number and name.
// A pane with a worktree of its own gets it from Options.NewTree, which Options.Closed
// takes back when the pane does not start.
func (s *Session) New(p proto.NewPane) (int, string, error) {
	spec := PaneSpec{Name: p.Name, Argv: p.Argv, Env: p.Env, Dir: p.Dir}
	if p.Worktree {
		if s.opts.NewTree == nil {
			return 0, "", errors.New("this session makes no worktrees")
		}
		if err := s.opts.NewTree(&spec); err != nil {
			return 0, "", err
		}
	}
	id, err := s.Add(spec)
	if err != nil {
		if spec.Tree != nil && s.opts.Closed != nil {
			s.opts.Closed(spec)
		}
		return 0, "", err
	}
	m, _ := s.Member(id)
	return id, m.Name, nil
}

// Diff is what the agent of pane id changed in its own worktree (an error when it has
// none).
func (s *Session) Diff(id int) (string, error) {
	m, ok := s.Member(id)
	if !ok {
		return "", fmt.Errorf("pane %d: %w", id, ErrNoPane)
	}
	if m.Tree == nil {
		return "", fmt.Errorf("pane %d %s has no worktree of its own (start it with --worktree)", m.Pane, m.Name)
	}
	return m.Tree.Diff(false)
}

// wireTokens is t as the socket carries it.
func wireTokens(t usage.Tokens) *proto.Tokens {
	return &proto.Tokens{Input: t.Input, Output: t.Output, CacheRead: t.CacheRead, CacheWrite: t.CacheWrite}
}

// WireAsks is a as the socket carries it (nil for nil).
func WireAsks(a *Asks) *proto.Asks {
	if a == nil {
		return nil
	}
	w := &proto.Asks{Question: a.Question, Since: a.Since.UnixMilli(), Context: a.Context, Options: []proto.Option{}}
	for _, o := range a.Options {
		w.Options = append(w.Options, proto.Option{Key: o.Key, Label: o.Label})
	}
	return w
}

// AnswerPrompt is AnswerTyped in the socket's types (the hub's Answerer): it returns
// once the choice is typed, up to askSettle after it is given.
func (s *Session) AnswerPrompt(id int, option, question string) (proto.Option, error) {
	o, err := s.AnswerTyped(id, option, question)
	return proto.Option{Key: o.Key, Label: o.Label}, err
}
