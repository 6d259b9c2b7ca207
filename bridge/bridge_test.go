package bridge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

// The core's events in their wire form: a delivery the hub sent carries the hub's
// reference through every phase (the phase names are the store's); a pane's own
// delivery is announced once as "relayed" with its whole body, then carries a
// reference of its own; a delivery from no pane (a brief) carries none; output is not
// sent.
func TestEvents(t *testing.T) {
	c := &Core{refs: newCoreRefs()}
	ref := c.refs.numbered(5, false) // the hub's Send of delivery 5
	delivery := func(n, from int, fromName string, ph session.Phase) []proto.Event {
		return c.event(session.Delivery{Entry: session.Entry{Delivery: n, From: from, FromName: fromName, ToName: "claude",
			Phase: ph, Words: "please rebase", Body: "please rebase now"}})
	}
	assert.Equal(t, []proto.Event{
		{Kind: "relayed", ID: "c4", Member: "claude", Peer: "codex", State: "message", Text: "please rebase now"},
		{Kind: "delivery", ID: "c4", Member: "claude", Peer: "codex", Phase: "waiting for idle", Text: "please rebase"},
	}, delivery(4, 2, "codex", session.Waiting))
	assert.Equal(t, []proto.Event{{Kind: "delivery", ID: "c4", Member: "claude", Peer: "codex", Phase: "typed", Text: "please rebase"}},
		delivery(4, 2, "codex", session.Typed), "announced once")
	assert.Equal(t, ref, delivery(5, 0, "ops", session.Waiting)[0].ID)
	typed := delivery(5, 0, "ops", session.Typed)
	assert.Equal(t, ref, typed[0].ID)
	assert.Equal(t, "typed", typed[0].Phase)
	assert.Equal(t, "confirmed", delivery(5, 0, "ops", session.Confirmed)[0].Phase)
	assert.Equal(t, "confirmed", delivery(4, 2, "codex", session.Confirmed)[0].Phase)
	assert.Empty(t, c.refs.byDelivery, "forgotten after the final phase")
	assert.Equal(t, []proto.Event{{Kind: "delivery", Member: "claude", Peer: "agentmux", Phase: "waiting for idle", Text: "please rebase"}},
		delivery(6, 0, "agentmux", session.Waiting), "a brief is no message")

	evs := c.event(session.MemberChanged{Member: session.Member{Pane: 1, Name: "claude", State: session.Busy}})
	assert.Equal(t, []proto.Event{{Kind: "member", Member: "claude", State: "busy"}}, evs)
	evs = c.event(session.Exit{Pane: 2, Code: 3})
	assert.Equal(t, 3, *evs[0].Code)
	assert.Empty(t, c.event(session.Output{Pane: 1}))
}

// A member is listed as its border and the status line show it: its group as "2⇄3⇄4",
// an exited pane with its code or signal, held and addressing, its profile.
func TestMember(t *testing.T) {
	labels := map[int]string{1: "2⇄3⇄4"}
	assert.Equal(t, proto.Member{Number: 2, Name: "codex", Program: "codex", State: "idle", Group: "2⇄3⇄4", Waiting: 3, Held: true, Addressing: true, Profile: "codex"},
		member(session.Member{Pane: 2, Name: "codex", Program: "codex", State: session.Idle, Group: 1, Waiting: 3, Held: true, Addressing: true, Profile: "codex"}, labels))
	assert.Equal(t, "killed (SIGSEGV)", member(session.Member{Pane: 1, State: session.Exited, Code: -11}, labels).State)
	assert.Equal(t, "exited (3)", member(session.Member{Pane: 1, State: session.Exited, Code: 3}, labels).State)
}
