package hub_test

// Delivery options on the wire: payload_meta's mode, ttl_ms, notices and a
// reminder's delay reach the core as SendOptions / Remind, counted from when the
// message was queued (so after a restart too), and the core's mail about a message is
// an event naming it (the member sender gets the notice through its sink).

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

func TestSendOptionsReachTheCore(t *testing.T) {
	core := newFakeCore("bob")
	e := start(t, core, "", nil)
	ctl := e.control()
	_, err := ctl.SendMeta("you", "bob", "stop", &proto.SendMeta{Mode: proto.ModeUrgent, TTLMs: 30000, XNotifyOnDelivery: true, XNotifyAfterMs: 60000})
	require.NoError(t, err)
	sent(t, core)
	plain, err := ctl.SendMeta("you", "bob", "plain", nil)
	require.NoError(t, err)
	sent(t, core)
	got := core.sentOptions()
	require.Len(t, got, 2)
	assert.Equal(t, proto.ModeUrgent, got[0].Mode)
	assert.True(t, got[0].NotifyOnDelivery)
	assert.Equal(t, time.Minute, got[0].NotifyAfter)
	assert.InDelta(t, 30*time.Second, got[0].Timeout, float64(5*time.Second))
	assert.True(t, got[0].Person, "sent by the person")
	assert.NotNil(t, got[1].BeforeSubmit, "every message's submit is written ahead")
	got[1].BeforeSubmit = nil
	assert.Equal(t, proto.SendOptions{ID: plain, Person: true}, got[1], "the store's id, the same each time it is handed")
}

func TestReminderAndTimeoutSurviveARestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	var now atomic.Int64
	now.Store(time.Now().UnixMilli())
	clock := func(c *hub.Config) { c.Now = func() time.Time { return time.UnixMilli(now.Load()) } }
	core := newFakeCore("bob")
	e := start(t, core, db, clock)
	ctl := e.control()
	rid, err := e.paneControl("bob").SendMeta("", "bob", "check the build", &proto.SendMeta{XRemindMs: 600000})
	require.NoError(t, err)
	r := <-core.reminds
	assert.Equal(t, fakeRemind{rid, "bob", "check the build", 10 * time.Minute, "bob"}, r, "the core gets the reminder's id")
	stale, err := ctl.SendMeta("you", "bob", "soon stale", &proto.SendMeta{TTLMs: 60000})
	require.NoError(t, err)
	sent(t, core)
	e.h.Close()

	// Four minutes later the same session starts again: the reminder is due in six,
	// the message whose minute passed is dropped, not handed to the core.
	now.Add(4 * 60000)
	core2 := newFakeCore("bob")
	e2 := start(t, core2, db, clock)
	select {
	case r := <-core2.reminds:
		assert.Equal(t, 6*time.Minute, r.after)
		assert.Equal(t, "check the build", r.text)
		assert.Equal(t, rid, r.id, "under the same id")
	case <-time.After(5 * time.Second):
		t.Fatal("the reminder was not scheduled again")
	}
	res, err := e2.control().Request(proto.TypeRead, proto.Read{ID: stale})
	require.NoError(t, err)
	assert.NotZero(t, res.Message.Expired, "a timeout that passed is expired, not dropped")
	assert.Empty(t, core2.sent)
}

func TestMailIsAnEventAboutTheMessage(t *testing.T) {
	core := newFakeCore("bob")
	e := start(t, core, "", nil)
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	bot := e.member("bot", 0)
	id, err := bot.SendMeta("", "bob", "please rebase", &proto.SendMeta{XNotifyOnDelivery: true})
	require.NoError(t, err)
	s := sent(t, core)
	core.ev.Emit(proto.Event{Kind: "mail", ID: s.id, Member: "bot", Text: `[agentmux] delivered to bob (1): "please rebase"`})
	ev := waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "mail" })
	assert.Equal(t, id, ev.ID, "the mail names the message by its id")
	assert.Equal(t, "bot", ev.Member)
}

func TestHookReachesTheCore(t *testing.T) {
	core := newFakeCore("claude")
	e := start(t, core, "", nil)
	ctl := e.paneControl("claude")
	_, err := ctl.Request(proto.TypeHook, proto.Hook{Pane: "1", Event: "stop", CLI: "claude", Text: "**done**"})
	require.NoError(t, err)
	assert.Equal(t, []string{"hook claude claude stop hook **done**"}, core.Actions())
	_, err = ctl.Request(proto.TypeHook, proto.Hook{Event: "stop"})
	require.Error(t, err, "no pane")

	// Without a core (protocol clients only) a hook is refused, not fatal.
	bare := start(t, nil, "", nil).control()
	_, err = bare.Request(proto.TypeHook, proto.Hook{Pane: "1", Event: "stop"})
	require.Error(t, err)
	_, err = bare.Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
}

// A hook's conversation id is kept in the store under the pane's number, for agentmux
// restore; one that could pass as an option (or is no word) is not kept, and the hook
// still ends the turn.
func TestHookKeepsTheConversation(t *testing.T) {
	core := newFakeCore("claude")
	e := start(t, core, "", nil)
	ctl := e.paneControl("claude")
	_, err := ctl.Request(proto.TypeHook, proto.Hook{Pane: "1", Event: "stop", CLI: "claude", Text: "a", Conversation: "5f1c-22"})
	require.NoError(t, err)
	got, err := e.st.Conversations("test")
	require.NoError(t, err)
	assert.Equal(t, map[int]store.Conversation{1: {CLI: "claude", ID: "5f1c-22"}}, got)

	for _, bad := range []string{"--dangerously-skip-permissions", "a b", "x;rm", strings.Repeat("a", 129)} {
		_, err = ctl.Request(proto.TypeHook, proto.Hook{Pane: "1", Event: "stop", CLI: "claude", Text: "b", Conversation: bad})
		require.NoError(t, err, "the hook itself goes on")
	}
	got, err = e.st.Conversations("test")
	require.NoError(t, err)
	assert.Equal(t, map[int]store.Conversation{1: {CLI: "claude", ID: "5f1c-22"}}, got)
	assert.Len(t, core.Actions(), 5)
}

// A hook that only says which conversation the pane holds (pi's and opencode's
// extensions) keeps the id and ends no turn: those programs' turns end by their screens.
func TestConversationHookEndsNoTurn(t *testing.T) {
	core := newFakeCore("pi")
	e := start(t, core, "", nil)
	ctl := e.paneControl("pi")
	_, err := ctl.Request(proto.TypeHook, proto.Hook{Pane: "1", Event: proto.HookConversation, CLI: "pi", Conversation: "019abc-7f"})
	require.NoError(t, err)
	got, err := e.st.Conversations("test")
	require.NoError(t, err)
	assert.Equal(t, map[int]store.Conversation{1: {CLI: "pi", ID: "019abc-7f"}}, got)
	assert.Empty(t, core.Actions(), "no turn ended")

	// With its session file: the usage is read from it, and still no turn ends.
	_, err = ctl.Request(proto.TypeHook, proto.Hook{Pane: "1", Event: proto.HookConversation, CLI: "pi", Conversation: "019abc-7f", Usage: "/s/019abc-7f.jsonl"})
	require.NoError(t, err)
	assert.Equal(t, []string{"usage 1 pi /s/019abc-7f.jsonl"}, core.Actions(), "pane pi's usage")
}

// A pane's reminder to itself, kept in the store, still comes from it after the pane is
// renamed: once handed again after a restart, the session takes a reminder from a pane
// into its own pane only (session.ErrRemindOther), so one still from the old name into
// the new one would be refused and marked failed, lost.
func TestARenamedPanesOwnReminderStaysItsOwn(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("alice", "bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	rid, err := e.paneControl("bob").SendMeta("", "bob", "check the build", &proto.SendMeta{XRemindMs: 600000})
	require.NoError(t, err)
	require.Equal(t, "bob", (<-core.reminds).from)
	_, err = ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	core.ev.Emit(proto.Event{Kind: proto.EventRenamed, Member: "robert", From: "bob"})
	waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == proto.EventRenamed && ev.Member == "robert" })
	_, err = ctl.Request(proto.TypeHistory, proto.History{}) // what the event changed is written
	require.NoError(t, err)
	e.h.Close()

	core2 := newFakeCore("alice", "robert")
	start(t, core2, db, nil)
	select {
	case r := <-core2.reminds:
		assert.Equal(t, rid, r.id)
		assert.Equal(t, "robert", r.to)
		assert.Equal(t, "robert", r.from, "the renamed pane's own reminder, from it")
	case <-time.After(5 * time.Second):
		t.Fatal("the reminder was not scheduled again")
	}
}
