package hub_test

// Strategy: the core's "spend" events go to the store as they pass (and on to the
// events stream): after the hub closes, the store's sums hold exactly what the events
// carried. A hook's report naming a usage file has the core read it before the turn
// end.

import (
	"path/filepath"
	"testing"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpendEventsAreRecorded(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("alice", "bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	usd := 0.25
	core.ev.Emit(proto.Event{Kind: "spend", Member: "alice", To: "1⇄2", Spend: &proto.Spend{Model: "gpt-5", Requests: 2, Link: "1⇄2",
		Tokens: proto.Tokens{Input: 100, Output: 20, CacheRead: 300}, CostUSD: &usd}})
	core.ev.Emit(proto.Event{Kind: "spend", Member: "bob", Spend: &proto.Spend{Model: "mock", Requests: 1, Tokens: proto.Tokens{Input: 7}}})
	ev := waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "spend" && ev.Member == "bob" })
	assert.Equal(t, int64(7), ev.Spend.Tokens.Input)
	e.h.Close()

	st, err := store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	got, err := st.SpendBy("test", "pane", 0)
	require.NoError(t, err)
	assert.Equal(t, []store.SpendTotal{
		{Key: "alice", Requests: 2, Input: 100, Output: 20, CacheRead: 300, CostUSD: 0.25, Priced: 1},
		{Key: "bob", Requests: 1, Input: 7, Unpriced: 1},
	}, got)
}

func TestHookUsageIsReadBeforeTheTurnEnds(t *testing.T) {
	core := newFakeCore("claude")
	e := start(t, core, "", nil)
	ctl := e.paneControl("claude")
	_, err := ctl.Request(proto.TypeHook, proto.Hook{Pane: "1", Event: "stop", CLI: "claude", Text: "done", Usage: "/tmp/t.jsonl"})
	require.NoError(t, err)
	assert.Equal(t, []string{"usage 1 claude /tmp/t.jsonl", "hook 1 claude stop hook done"}, core.Actions())
}

// A pane renamed keeps what it spent: the store's spend by pane name (what a restore
// gives each pane back, and its spend cap counts from) holds its whole total under the
// name it has now, not part of it under a name no pane has.
func TestARenamedPanesSpendFollowsIt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("alice", "bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	core.ev.Emit(proto.Event{Kind: "spend", Member: "bob", Spend: &proto.Spend{Model: "mock", Requests: 1, Tokens: proto.Tokens{Input: 800, Output: 200}}})
	core.ev.Emit(proto.Event{Kind: proto.EventRenamed, Member: "robert", From: "bob"})
	core.ev.Emit(proto.Event{Kind: "spend", Member: "robert", Spend: &proto.Spend{Model: "mock", Requests: 1, Tokens: proto.Tokens{Input: 800, Output: 200}}})
	waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "spend" && ev.Member == "robert" })
	e.h.Close()

	st, err := store.Open(db)
	require.NoError(t, err)
	defer st.Close()
	got, err := st.SpendBy("test", "pane", 0)
	require.NoError(t, err)
	assert.Equal(t, []store.SpendTotal{{Key: "robert", Requests: 2, Input: 1600, Output: 400, Unpriced: 2}}, got)
}
