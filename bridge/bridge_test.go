package bridge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

// The core's events in their wire form: a delivery the hub sent carries the hub's
// reference through every phase (the phase names are the store's), a pane's own
// delivery carries none, and output is not sent.
func TestEvents(t *testing.T) {
	c := &Core{refs: newCoreRefs()}
	ref := c.refs.sent("ops", "claude")
	delivery := func(n int, from string, ph session.Phase) proto.Event {
		ev, ok := c.event(session.Delivery{Entry: session.Entry{Delivery: n, FromName: from, ToName: "claude", Phase: ph, Words: "please rebase"}})
		assert.True(t, ok)
		return ev
	}
	assert.Equal(t, proto.Event{Kind: "delivery", ID: "", Member: "claude", Peer: "codex", Phase: "waiting for idle", Text: "please rebase"},
		delivery(4, "codex", session.Waiting))
	assert.Equal(t, ref, delivery(5, "ops", session.Waiting).ID)
	typed := delivery(5, "ops", session.Typed)
	assert.Equal(t, ref, typed.ID)
	assert.Equal(t, "typed", typed.Phase)
	assert.Equal(t, "confirmed", delivery(5, "ops", session.Confirmed).Phase)
	assert.Empty(t, c.refs.byDelivery, "forgotten after the final phase")

	ev, ok := c.event(session.MemberChanged{Member: session.Member{Pane: 1, Name: "claude", State: session.Busy}})
	assert.True(t, ok)
	assert.Equal(t, proto.Event{Kind: "member", Member: "claude", State: "busy"}, ev)
	ev, ok = c.event(session.Exit{Pane: 2, Code: 3})
	assert.True(t, ok)
	assert.Equal(t, 3, *ev.Code)
	_, ok = c.event(session.Output{Pane: 1})
	assert.False(t, ok)
}

func TestMember(t *testing.T) {
	assert.Equal(t, proto.Member{Number: 2, Name: "codex", Program: "codex", State: "idle", Group: "1", Waiting: 3},
		member(session.Member{Pane: 2, Name: "codex", Program: "codex", State: session.Idle, Group: 1, Waiting: 3}))
}
