// The hub with a (fake) session core: sends to panes by name, number and broadcast,
// long messages cut with a pointer to `agentmux read`, delivery phases recorded from the
// core's events, pane messages handed again after a restart unless confirmed (marked
// as possible repeats when they were submitting), a pane's relay to a client member,
// topics, payload_meta, and the extension requests.
package hub_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

func sent(t *testing.T, f *fakeCore) fakeSend {
	t.Helper()
	select {
	case s := <-f.sent:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("the core got nothing")
		return fakeSend{}
	}
}

// waitEvent reads events on c (subscribed) until one matches.
func waitEvent(t *testing.T, c *client.Conn, match func(proto.Event) bool) proto.Event {
	t.Helper()
	for {
		if ev := payload[proto.Event](t, next(t, c, proto.TypeEvent)); match(ev) {
			return ev
		}
	}
}

func TestSendToPanes(t *testing.T) {
	core := newFakeCore("claude", "codex")
	e := start(t, core, "", nil)
	bot := e.member("bot", 0)
	ctl := e.control()

	id, err := ctl.Send("alice", "claude", "review please")
	require.NoError(t, err)
	assert.Equal(t, fakeSend{id, "alice", "claude", "review please"}, sent(t, core), "the core gets the message's id")
	id2, err := ctl.Send("", "2", "by number")
	require.NoError(t, err)
	assert.Equal(t, fakeSend{id2, "you", "codex", "by number"}, sent(t, core))
	id3, err := ctl.Send("", "codex@test", "this session's, in full")
	require.NoError(t, err)
	assert.Equal(t, fakeSend{id3, "you", "codex", "this session's, in full"}, sent(t, core), "NAME@SESSION of this session is NAME")

	// A broadcast from bot reaches both panes, not bot.
	_, err = bot.Send("", "*", "all")
	require.NoError(t, err)
	got := []string{sent(t, core).to, sent(t, core).to}
	assert.ElementsMatch(t, []string{"claude", "codex"}, got)

	_, err = ctl.Send("", "nobody", "x")
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, proto.NackInvalid, ce.Code)
	assert.Contains(t, ce.Message, `no member "nobody"`)

	core.mu.Lock()
	core.refuse["codex"] = errors.New("budget spent (8/8)")
	core.mu.Unlock()
	_, err = ctl.Send("", "codex", "x")
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "budget spent (8/8)", ce.Message, "one recipient refused: its reason is the answer")

	r, err := ctl.Request(proto.TypeRead, proto.Read{ID: id})
	require.NoError(t, err)
	assert.Equal(t, "alice", r.Message.From)
	assert.Equal(t, "claude", r.Message.To)
	assert.Equal(t, "review please", r.Message.Body)
}

func TestLongMessageIsCut(t *testing.T) {
	core := newFakeCore("claude")
	e := start(t, core, "", func(c *hub.Config) { c.CutChars = 10 })
	ctl := e.control()
	body := strings.Repeat("é", 25)
	id, err := ctl.Send("", "claude", body)
	require.NoError(t, err)
	s := sent(t, core)
	assert.Equal(t, strings.Repeat("é", 10)+"\n[cut: `agentmux read "+id+"` shows the rest]", s.text)
	r, err := ctl.Request(proto.TypeRead, proto.Read{ID: id})
	require.NoError(t, err)
	assert.Equal(t, body, r.Message.Body, "the store keeps it whole")
}

func TestDeliveryPhasesAndRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	var ids []string
	for _, text := range []string{"one", "two", "three", "four", "five"} {
		id, err := ctl.Send("alice", "bob", text)
		require.NoError(t, err)
		ids = append(ids, id)
		require.Equal(t, id, sent(t, core).id)
	}
	phase := func(id string, ph proto.Phase) {
		core.ev.Emit(proto.Event{Kind: "delivery", ID: id, Member: "bob", Phase: ph})
		waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "delivery" && ev.Phase == ph })
	}
	core.ev.Emit(proto.Event{Kind: "delivery", ID: ids[0], Member: "bob", Phase: "typed"})
	ev := waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "delivery" && ev.Phase == "typed" })
	assert.Equal(t, ids[0], ev.ID, "the core's event carries the message's id")
	phase(ids[1], "submitted")
	phase(ids[4], "confirmed")
	// three is about to be submitted: the core calls its write-ahead, and is killed
	// before its event could say so.
	require.NoError(t, core.sentOptions()[2].BeforeSubmit())
	e.h.Close() // as good as a kill for the store: nothing is written on the way out

	// Started again on the same store with the same pane: one, typed and never
	// submitted (its text died with the pane's terminal), and four, never typed, are
	// handed to the core again as they were; two and three, which the program may have
	// read, marked as possible repeats; five, confirmed, never again.
	core2 := newFakeCore("bob")
	e2 := start(t, core2, db, nil)
	assert.Equal(t, "one", sent(t, core2).text)
	assert.Equal(t, hub.RepeatNote(ids[1])+"two", sent(t, core2).text)
	assert.Equal(t, hub.RepeatNote(ids[2])+"three", sent(t, core2).text)
	assert.Equal(t, "four", sent(t, core2).text)
	_, err = e2.control().Request(proto.TypeList, struct{}{}) // the loop is past its start
	require.NoError(t, err)
	assert.Empty(t, core2.sent)
}

func TestRelayFromPaneToClient(t *testing.T) {
	core := newFakeCore("claude")
	e := start(t, core, "", nil)
	bot := e.member("bot", 0)
	core.relay("claude", "bot", "@relay:bot done") // through the sink Register was given
	d := next(t, bot, proto.TypeDeliver)
	assert.Equal(t, "claude", d.From)
	assert.Equal(t, "@relay:bot done", payload[proto.Send](t, d).Body)
	assert.Equal(t, int64(1), d.Delivery.Seq)
}

// A delivery the core queued by itself (a pane's relayed turn) is recorded from its
// "relayed" event under the id the core gave it: subscribers see it as a message,
// history holds it, its phases mark it, it is never handed back to the core; after a
// restart one never typed is handed to the core again, under that id.
func TestRelayedDeliveriesAreRecorded(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("alice", "bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	core.ev.Emit(proto.Event{Kind: proto.EventRelayed, ID: "c1", Member: "bob", From: "alice", To: "bob", MsgKind: "message", Text: "the tests pass"})
	core.ev.Emit(proto.Event{Kind: proto.EventDelivery, ID: "c1", Member: "bob", From: "alice", To: "bob", Phase: proto.PhaseTyped})
	core.ev.Emit(proto.Event{Kind: proto.EventRelayed, ID: "c2", Member: "alice", From: "bob", To: "alice", MsgKind: "action", Text: "merge it"})
	msg := waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "message" })
	assert.Equal(t, "alice", msg.Member)
	assert.Equal(t, "alice", msg.From)
	assert.Equal(t, "bob", msg.To)
	assert.Equal(t, "c1", msg.ID, "recorded under the core's id")
	typed := waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "delivery" })
	assert.Equal(t, msg.ID, typed.ID, "the phase names the recorded message")
	waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "message" && ev.Member == "bob" })
	res, err := ctl.Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	require.Len(t, res.Messages, 2)
	assert.Equal(t, "the tests pass", res.Messages[0].Body)
	assert.NotZero(t, res.Messages[0].Typed)
	assert.Equal(t, "action", res.Messages[1].Kind)
	assert.Empty(t, core.sent, "recorded, not sent again")
	e.h.Close()

	core2 := newFakeCore("alice", "bob")
	start(t, core2, db, nil)
	assert.Equal(t, fakeSend{"c2", "bob", "alice", "merge it"}, sent(t, core2))
}

func TestTopicsAndMeta(t *testing.T) {
	now := atomic.Int64{}
	now.Store(time.Now().UnixMilli())
	e := start(t, nil, "", func(c *hub.Config) {
		c.Now = func() time.Time { return time.UnixMilli(now.Load()) }
	})
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	carol := e.member("carol", 0)
	_, err := bob.Call(proto.TypeSubscribe, "", "builds", struct{}{})
	require.NoError(t, err)
	_, err = alice.Call(proto.TypeSend, "", "builds", proto.Send{Body: "green"})
	require.NoError(t, err)
	d := next(t, bob, proto.TypeDeliver)
	assert.Equal(t, "builds", d.Topic)
	require.NoError(t, bob.Ack(d))

	// requires_ack false: confirmed once sent. ttl_ms: dropped when it expires waiting.
	f := false
	env, err := proto.New(proto.TypeSend, "na", 1, proto.Send{Body: "fire and forget"})
	require.NoError(t, err)
	env.To, env.PayloadMeta = "carol", &proto.SendMeta{RequiresAck: &f}
	require.NoError(t, alice.WriteEnvelope(env))
	ack := payload[proto.Ack](t, next(t, alice, proto.TypeAck))
	d = next(t, carol, proto.TypeDeliver)
	require.NotNil(t, d.PayloadMeta)
	ctl := e.control()
	_, err = ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	carol.Raw().Close()
	r, err := ctl.Request(proto.TypeRead, proto.Read{ID: ack.MessageID})
	require.NoError(t, err)
	assert.NotZero(t, r.Message.Confirmed)
	waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Member == "carol" && ev.State == "disconnected" })
	env, err = proto.New(proto.TypeSend, "ttl", 1, proto.Send{Body: "soon stale"})
	require.NoError(t, err)
	env.To, env.PayloadMeta = "carol", &proto.SendMeta{TTLMs: 1000}
	require.NoError(t, alice.WriteEnvelope(env))
	ack = payload[proto.Ack](t, next(t, alice, proto.TypeAck))
	now.Add(2000)
	carol2 := e.member("carol", 0)
	r, err = carol2.Request(proto.TypeRead, proto.Read{ID: ack.MessageID})
	require.NoError(t, err)
	assert.NotZero(t, r.Message.Expired, "a ttl that passed is expired, not dropped")
	assert.Zero(t, r.Message.Confirmed)
}

func TestExtensions(t *testing.T) {
	core := newFakeCore("claude", "codex")
	e := start(t, core, "", nil)
	bot := e.member("bot", 0)
	bot.Raw().Close()
	ctl := e.control()
	res, err := ctl.Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
	require.Len(t, res.Members, 3)
	assert.Equal(t, "claude", res.Members[0].Name)
	assert.Equal(t, 2, res.Members[1].Number)
	assert.True(t, res.Members[2].Client)
	assert.Equal(t, "client", res.Members[2].Program)

	res, err = ctl.Request(proto.TypeCapture, proto.Capture{Target: "claude", Lines: 5, SGR: true})
	require.NoError(t, err)
	assert.Equal(t, "screen of claude lines=5 sgr=true", *res.Screen)
	_, err = ctl.Request(proto.TypeCapture, proto.Capture{Target: "ghost"})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `no pane "ghost"`, ce.Message)

	for _, req := range []struct {
		typ string
		p   proto.Target
	}{{proto.TypeLink, proto.Target{A: "1", B: "codex"}}, {proto.TypeUnlink, proto.Target{A: "1"}}, {proto.TypeHold, proto.Target{A: "Codex"}}, {proto.TypeRelease, proto.Target{A: "codex"}}} {
		_, err := ctl.Request(req.typ, req.p)
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"link claude codex", "unlink claude", "hold codex", "release codex"}, core.Actions(),
		"names and numbers reach the core as the panes its resolver found")
	_, err = ctl.Request(proto.TypeHold, proto.Target{A: "ghost"})
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `no pane "ghost"`, ce.Message)

	for i, text := range []string{"a", "b", "c"} {
		to := []string{"claude", "codex", "claude"}[i]
		_, err := ctl.Send("alice", to, text)
		require.NoError(t, err)
	}
	res, err = ctl.Request(proto.TypeHistory, proto.History{Member: "claude"})
	require.NoError(t, err)
	require.Len(t, res.Messages, 2)
	assert.Equal(t, []string{"a", "c"}, []string{res.Messages[0].Body, res.Messages[1].Body})
	res, err = ctl.Request(proto.TypeHistory, proto.History{Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, "c", res.Messages[0].Body)
	_, err = ctl.Request(proto.TypeHistory, proto.History{Member: "claud"})
	require.ErrorAs(t, err, &ce, "a name no pane, client or stored message has is told")
	assert.Contains(t, ce.Message, `no member "claud"`)
	res, err = ctl.Request(proto.TypeHistory, proto.History{Member: "ALICE"})
	require.NoError(t, err, "a sender of stored messages is a member to ask about, gone or not")
	assert.Len(t, res.Messages, 3)
	res, err = ctl.Request(proto.TypeHistory, proto.History{Member: "codex", SinceMs: 1 << 60})
	require.NoError(t, err, "a pane with nothing in the range has an empty history")
	assert.Empty(t, res.Messages)

	_, err = ctl.Request(proto.TypeRead, proto.Read{ID: "m-none"})
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, proto.CodeNotFound, ce.Code)

	// Without a core there are no panes to act on.
	e2 := start(t, nil, "", nil)
	_, err = e2.control().Request(proto.TypeHold, proto.Target{A: "x"})
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, proto.CodeBadRequest, ce.Code)
}

// X_WEB starts the session's web view through the hub's Web hook and answers its URL;
// a hub without one says so, and the connection carries on.
func TestWebRequest(t *testing.T) {
	var got []proto.Web
	e := start(t, newFakeCore("claude"), "", func(c *hub.Config) {
		c.Web = func(p proto.Web) (proto.WebView, error) {
			got = append(got, p)
			return proto.WebView{URL: "http://127.0.0.1:1/#token=x", Control: p.Control}, nil
		}
	})
	ctl := e.control()
	res, err := ctl.Request(proto.TypeWeb, proto.Web{Listen: "127.0.0.1:0", Control: true})
	require.NoError(t, err)
	require.NotNil(t, res.Web)
	assert.Equal(t, "http://127.0.0.1:1/#token=x", res.Web.URL)
	assert.True(t, res.Web.Control)
	assert.Equal(t, []proto.Web{{Listen: "127.0.0.1:0", Control: true}}, got)

	// A pane's program (its proof, or its process) may not open the session to a browser.
	_, err = e.paneControl("claude").Request(proto.TypeWeb, proto.Web{Control: true})
	var refused *client.Error
	require.ErrorAs(t, err, &refused)
	assert.Contains(t, refused.Message, "only the person")
	assert.Len(t, got, 1, "the hook was not called")

	none := start(t, newFakeCore("claude"), "", nil).control()
	_, err = none.Request(proto.TypeWeb, proto.Web{})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "no web view")
	_, err = none.Request(proto.TypeList, struct{}{})
	require.NoError(t, err, "not fatal")
}

// A process running inside a pane, showing no proof, is not the person either.
func TestWebRefusedFromInsideAPane(t *testing.T) {
	core := newFakeCore("claude")
	called := false
	e := start(t, core, "", func(c *hub.Config) {
		c.Web = func(proto.Web) (proto.WebView, error) { called = true; return proto.WebView{URL: "x"}, nil }
	})
	core.runIn(os.Getpid(), "claude") // this test's connections come from pane claude
	_, err := e.control().Request(proto.TypeWeb, proto.Web{})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "X_WEB from pane claude")
	assert.False(t, called)
}

// linkingCore is a core in front of which a mesh links panes with members of other
// sessions (hub.Linker).
type linkingCore struct {
	*fakeCore
}

func (c linkingCore) LinkAcross(a int, addr string, shell bool) error {
	return c.act("link " + c.name(a) + " " + addr)
}

func (c linkingCore) UnlinkAcross(addr string) error { return c.act("unlink " + addr) }

// A link with a member of another session (NAME@SESSION, in either place) goes to the
// core's Linker, and streams a pane's turns to it: only the person makes one, never a
// pane's program (by its proof or its process); a link of the session's own panes
// stays open to them, NAME@SESSION of this session is its pane; unlinking a member of
// another session is the person's too.
func TestLinkAcrossSessionsIsThePersons(t *testing.T) {
	core := newFakeCore("claude", "codex")
	e := start(t, core, "", func(c *hub.Config) { c.Core = linkingCore{core} })
	_, err := e.paneControl("claude").Request(proto.TypeLink, proto.Target{A: "claude", B: "bob@buildbox"})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "only the person links and unlinks across sessions")
	_, err = e.paneControl("claude").Request(proto.TypeLink, proto.Target{A: "claude", B: "codex@test"})
	require.NoError(t, err)
	_, err = e.control().Request(proto.TypeLink, proto.Target{A: "bob@buildbox", B: "codex"})
	require.NoError(t, err)
	_, err = e.control().Request(proto.TypeLink, proto.Target{A: "bob@buildbox", B: "carol@buildbox"})
	require.ErrorAs(t, err, &ce)
	_, err = e.paneControl("claude").Request(proto.TypeUnlink, proto.Target{A: "bob@buildbox"})
	require.ErrorAs(t, err, &ce)
	_, err = e.control().Request(proto.TypeUnlink, proto.Target{A: "bob@buildbox"})
	require.NoError(t, err)
	assert.Equal(t, []string{"link claude codex by pane", "link codex bob@buildbox", "unlink bob@buildbox"}, core.Actions())

	core.runIn(os.Getpid(), "codex") // a process of pane codex, without its proof
	_, err = e.control().Request(proto.TypeLink, proto.Target{A: "codex", B: "bob@buildbox"})
	require.ErrorAs(t, err, &ce)
	assert.Len(t, core.Actions(), 3)

	// A session in no mesh says so.
	plain := start(t, newFakeCore("claude"), "", nil)
	_, err = plain.control().Request(proto.TypeLink, proto.Target{A: "claude", B: "bob@buildbox"})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "joined no mesh")
}

// After a restart, a message that was being submitted to a pane the session no longer
// has is settled: recorded dropped (nothing will type it again, and its program may
// have read it), said to the person with the number settled; one to a pane still here
// is typed again marked as a possible repeat; one never submitted stays pending.
func TestRestartSettlesSubmissionsToPanesGone(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("bob", "carol")
	e := start(t, core, db, nil)
	ctl := e.control()
	var ids []string
	for _, to := range []string{"carol", "carol", "bob", "carol"} {
		id, err := ctl.Send("alice", to, "to "+to)
		require.NoError(t, err)
		require.Equal(t, id, sent(t, core).id)
		ids = append(ids, id)
	}
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	require.NoError(t, core.sentOptions()[0].BeforeSubmit()) // carol: submitting
	require.NoError(t, core.sentOptions()[1].BeforeSubmit()) // carol: submitted
	core.ev.Emit(proto.Event{Kind: "delivery", ID: ids[1], Member: "carol", Phase: "submitted"})
	waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == "delivery" && ev.Phase == "submitted" })
	require.NoError(t, core.sentOptions()[2].BeforeSubmit()) // bob: submitting
	e.h.Close()                                              // killed: nothing more is written

	// Started again without carol.
	core2 := newFakeCore("bob")
	e2 := start(t, core2, db, nil)
	assert.Equal(t, hub.RepeatNote(ids[2])+"to bob", sent(t, core2).text)
	select {
	case w := <-core2.warned:
		assert.Contains(t, w, "2 messages")
		assert.Contains(t, w, "settled as dropped")
	case <-time.After(5 * time.Second):
		t.Fatal("the person was not told")
	}
	_, err = e2.control().Request(proto.TypeHistory, proto.History{}) // the marks are written
	require.NoError(t, err)
	for i, want := range []bool{true, true, false, false} {
		ms, err := e2.st.Get(ids[i])
		require.NoError(t, err)
		require.Len(t, ms, 1)
		assert.Equal(t, want, ms[0].Dropped != 0, "message %d dropped", i)
	}
	left, err := e2.st.Unsettled("test")
	require.NoError(t, err)
	require.Len(t, left, 1, "bob's, typed again, waits for its phases")
	assert.Equal(t, ids[2], left[0].ID)
}

// A pane's program may link agents and leave, hold or release its own link, however
// prompted; a link into a shell, unlinking a link it is not in, and holding or
// releasing another pane are the person's alone. A process of another session's pane
// is not the person either.
func TestPanesRelayOnlyWhatIsTheirs(t *testing.T) {
	core := newFakeCore("claude", "codex", "gemini", "sh")
	core.panes[0].Group, core.panes[1].Group = "1⇄2", "1⇄2"
	e := start(t, core, "", nil)
	pane := e.paneControl("claude")
	refused := []proto.Target{}
	for _, c := range []struct {
		typ string
		t   proto.Target
		ok  bool
	}{
		{proto.TypeLink, proto.Target{A: "sh", B: "claude", Shell: true}, false},
		{proto.TypeLink, proto.Target{A: "gemini", B: "sh", Shell: true}, false},
		{proto.TypeLink, proto.Target{A: "claude", B: "gemini"}, true},
		{proto.TypeUnlink, proto.Target{A: "codex"}, true}, // its own link
		{proto.TypeUnlink, proto.Target{A: "claude"}, true},
		{proto.TypeUnlink, proto.Target{A: "gemini"}, false},
		{proto.TypeHold, proto.Target{A: "claude"}, true},
		{proto.TypeHold, proto.Target{A: "codex"}, false},
		{proto.TypeRelease, proto.Target{A: "codex"}, false},
		{proto.TypeRelease, proto.Target{A: "1"}, true},
	} {
		_, err := pane.Request(c.typ, c.t)
		if c.ok {
			assert.NoError(t, err, "%s %+v", c.typ, c.t)
			continue
		}
		var ce *client.Error
		if assert.ErrorAs(t, err, &ce, "%s %+v", c.typ, c.t) {
			assert.Contains(t, ce.Message, "only the person")
		}
		refused = append(refused, c.t)
	}
	assert.Equal(t, []string{"link claude gemini by pane", "unlink codex", "unlink claude", "hold claude", "release claude"}, core.Actions())
	assert.Len(t, refused, 5)

	// The person does all of it.
	ctl := e.control()
	for _, typ := range []string{proto.TypeHold, proto.TypeRelease, proto.TypeUnlink} {
		_, err := ctl.Request(typ, proto.Target{A: "gemini"})
		require.NoError(t, err)
	}
	_, err := ctl.Request(proto.TypeLink, proto.Target{A: "sh", B: "gemini", Shell: true})
	require.NoError(t, err)
	assert.Len(t, core.Actions(), 9)

	if runtime.GOOS == "linux" {
		core.runIn(os.Getpid(), "") // a process of another session's pane
		_, err = e.control().Request(proto.TypeHold, proto.Target{A: "gemini"})
		require.Error(t, err)
		_, err = e.control().Request(proto.TypeLink, proto.Target{A: "sh", B: "gemini", Shell: true})
		require.Error(t, err)
		assert.Len(t, core.Actions(), 9)
	}
}

// budgetCore is a fake core that links with budgets (hub.LinkBudgeter).
type budgetCore struct{ *fakeCore }

func (c budgetCore) LinkWithBudget(a, b int, shell bool, turns int, budget string) error {
	return c.act(fmt.Sprintf("link %s %s shell=%v turns=%d budget=%s", c.name(a), c.name(b), shell, turns, budget))
}

// X_LINK with budgets goes to the core's LinkBudgeter, from the person only: a pane's
// program links with the session's budgets, never with ones of its own choosing, and
// through LinkByPane, which renews none.
func TestLinkBudgetsAreThePersons(t *testing.T) {
	core := newFakeCore("claude", "codex")
	e := start(t, core, "", func(c *hub.Config) { c.Core = budgetCore{core} })
	var ce *client.Error
	_, err := e.paneControl("claude").Request(proto.TypeLink, proto.Target{A: "claude", B: "codex", Budget: "$100"})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "only the person gives a link its budget")
	_, err = e.paneControl("claude").Request(proto.TypeLink, proto.Target{A: "claude", B: "codex", Turns: 99})
	require.ErrorAs(t, err, &ce)
	_, err = e.control().Request(proto.TypeLink, proto.Target{A: "claude", B: "codex", Turns: 12, Budget: "300k"})
	require.NoError(t, err)
	_, err = e.paneControl("claude").Request(proto.TypeLink, proto.Target{A: "claude", B: "codex"})
	require.NoError(t, err)
	assert.Equal(t, []string{"link claude codex shell=false turns=12 budget=300k", "link claude codex by pane"}, core.Actions())

	// A core that sets no budgets says so, and links nothing.
	plain := newFakeCore("claude", "codex")
	p := start(t, plain, "", nil)
	_, err = p.control().Request(proto.TypeLink, proto.Target{A: "claude", B: "codex", Budget: "300k"})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "sets no link budgets")
	assert.Empty(t, plain.Actions())
}

// A pane renamed while a message waits for it (held, say) has that message waiting
// under its new name: after a restart, it is typed again into the pane as it is
// called now, and it is not settled as for a pane gone.
func TestARenamedPanesWaitingMessagesFollowIt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("alice", "bob")
	e := start(t, core, db, nil)
	ctl := e.control()
	id, err := ctl.Send("ops", "bob", "pending-1")
	require.NoError(t, err)
	require.Equal(t, id, sent(t, core).id)
	_, err = ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	core.ev.Emit(proto.Event{Kind: proto.EventRenamed, Member: "robert", From: "bob"})
	waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == proto.EventRenamed && ev.Member == "robert" })
	_, err = ctl.Request(proto.TypeHistory, proto.History{}) // what the event changed is written
	require.NoError(t, err)
	e.h.Close()

	core2 := newFakeCore("alice", "robert")
	start(t, core2, db, nil)
	got := sent(t, core2)
	assert.Equal(t, "pending-1", got.text)
	assert.Equal(t, "robert", got.to)
	ms, err := e.st.Get(id)
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.Equal(t, "robert", ms[0].To)
}

// A message for a pane whose program did not start (a restored pane whose CLI is gone)
// is kept, not failed: the sender's send is queued, the event says held, and once the
// pane's program runs (its next member event) the core gets it, once.
func TestMessageForAPaneNotStartedIsKept(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("bob")
	core.refuse["bob"] = fmt.Errorf("send to %q: %w", "bob", proto.ErrNotStarted)
	e := start(t, core, db, nil)
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	id, err := ctl.Send("alice", "bob", "kept for bob")
	require.NoError(t, err, "the send is queued, not refused")
	ev := waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == proto.EventDelivery && ev.ID == id })
	assert.Equal(t, proto.PhaseHeld, ev.Phase)
	assert.Contains(t, ev.Text, "did not start")
	assert.Contains(t, ev.Text, "kept until it runs")

	// The stand-in's own state changes: refused again, still kept.
	core.ev.Emit(proto.Event{Kind: proto.EventMember, Member: "bob", State: "exited (127)"})
	ev = waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == proto.EventDelivery && ev.ID == id })
	assert.Equal(t, proto.PhaseHeld, ev.Phase)

	// A respawn started its program: the next member event hands it to the core.
	core.mu.Lock()
	delete(core.refuse, "bob")
	core.mu.Unlock()
	core.ev.Emit(proto.Event{Kind: proto.EventMember, Member: "bob", State: "idle"})
	got := sent(t, core)
	assert.Equal(t, fakeSend{id, "alice", "bob", "kept for bob"}, got)
	// Handed once: later member events hand nothing again, and a new message is next.
	core.ev.Emit(proto.Event{Kind: proto.EventMember, Member: "bob", State: "busy"})
	id2, err := ctl.Send("alice", "bob", "after")
	require.NoError(t, err)
	assert.Equal(t, id2, sent(t, core).id)
	_, err = ctl.Request(proto.TypeList, struct{}{}) // the loop is past the events
	require.NoError(t, err)
	assert.Empty(t, core.sent)
}

// A message kept for a pane whose program did not start ends when the pane is closed
// before its program ran: failed, said as an event and in the store, not left waiting
// for a pane that is gone (no member event of its will hand it again).
func TestMessageKeptForAClosedPaneFails(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	core := newFakeCore("alice", "bob")
	core.refuse["bob"] = fmt.Errorf("send to %q: %w", "bob", proto.ErrNotStarted)
	e := start(t, core, db, nil)
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	id, err := ctl.Send("ops", "bob", "kept for bob")
	require.NoError(t, err)
	ev := waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == proto.EventDelivery && ev.ID == id })
	require.Equal(t, proto.PhaseHeld, ev.Phase)

	core.mu.Lock()
	core.panes = core.panes[:1] // bob closed
	core.mu.Unlock()
	core.ev.Emit(proto.Event{Kind: proto.EventClosed, Member: "2"})
	ev = waitEvent(t, ctl, func(ev proto.Event) bool { return ev.Kind == proto.EventDelivery && ev.ID == id })
	assert.Equal(t, proto.PhaseFailed, ev.Phase)
	_, err = ctl.Request(proto.TypeHistory, proto.History{}) // what the event changed is written
	require.NoError(t, err)
	ms, err := e.st.Get(id)
	require.NoError(t, err)
	require.Len(t, ms, 1)
	assert.NotZero(t, ms[0].Failed, "marked failed in the store")
}
