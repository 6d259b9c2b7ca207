// Tests of the hub through a real Unix socket in a temp folder, with a real store and a
// fake core (fake_test.go). Every wait is a blocking read of the next frame under a
// deadline (5 s: a hang fails, it never sleeps): the order of frames on one connection
// is the synchronisation. Heartbeats use intervals of tens of ms, set in Config.
package hub_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/hubtest"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

type env struct {
	t      testing.TB
	h      *hub.Hub
	path   string
	dbPath string
	st     *store.Store
	core   *fakeCore
}

// start serves a session "test" with a fresh store (or dbPath's), core may be nil.
func start(t testing.TB, core *fakeCore, dbPath string, mod func(*hub.Config)) *env {
	t.Helper()
	if dbPath == "" {
		dbPath = filepath.Join(t.TempDir(), "agentmux.db")
	}
	st, err := store.Open(dbPath)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() }) // after the hub's (hubtest.Start's) close
	cfg := hub.Config{Session: "test", Store: st}
	if core != nil {
		cfg.Core = core
	}
	if mod != nil {
		mod(&cfg)
	}
	srv := hubtest.Start(t, "", cfg)
	return &env{t: t, h: srv.Hub, path: srv.Path, dbPath: dbPath, st: st, core: core}
}

// deadline bounds the next reads and writes on c (next and stillWorks renew it): a
// hang fails the test instead of the test run. 30 s: a megabyte frame under -race on a
// loaded machine took more than 10.
func deadline(c *client.Conn) *client.Conn {
	c.SetDeadline(time.Now().Add(30 * time.Second))
	return c
}

func (e *env) member(name string, maxInflight int) *client.Conn {
	e.t.Helper()
	c, err := client.Dial(e.path, proto.Hello{Agent: name, Capabilities: proto.Capabilities{Ack: true, Resume: true, MaxInflight: maxInflight}})
	require.NoError(e.t, err)
	e.t.Cleanup(func() { c.Raw().Close() })
	return deadline(c)
}

func (e *env) control() *client.Conn { return e.paneControl("") }

// paneControl is a control client that proved it runs in pane ("": the person).
func (e *env) paneControl(pane string) *client.Conn {
	e.t.Helper()
	proof := ""
	if pane != "" {
		proof = proofOf(pane)
	}
	c, err := client.DialPane(e.path, proof)
	require.NoError(e.t, err)
	e.t.Cleanup(func() { c.Raw().Close() })
	return deadline(c)
}

func next(t *testing.T, c *client.Conn, typ string) *proto.Envelope {
	t.Helper()
	e, err := deadline(c).Read()
	require.NoError(t, err)
	require.Equal(t, typ, e.Type, "payload %s", e.Payload)
	return e
}

func payload[T any](t *testing.T, e *proto.Envelope) T {
	t.Helper()
	p, err := proto.DecodePayload[T](e)
	require.NoError(t, err)
	return p
}

// expectClosed reads until the server closes the connection, returning the ERROR it
// sent first (nil when none).
func expectClosed(t *testing.T, c *client.Conn) *proto.Error {
	t.Helper()
	var last *proto.Error
	for {
		e, err := c.Read()
		if err != nil {
			require.True(t, errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, io.ErrUnexpectedEOF) || isReset(err), "want close, got %v", err)
			return last
		}
		if e.Type == proto.TypeError {
			p := payload[proto.Error](t, e)
			last = &p
		}
	}
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && !op.Timeout()
}

func TestHandshakeAgentRelayClient(t *testing.T) {
	e := start(t, nil, "", nil)
	c, err := client.DialRaw(e.path)
	require.NoError(t, err)
	defer c.Raw().Close()
	deadline(c)
	// Byte for byte what agent-relay 1.0.7 writes: extra HELLO fields, no waiting.
	hello := `{"v":1,"type":"HELLO","id":"0b6c","ts":1734440000000,"payload":{"agent":"claude-1","cli":"claude","program":"claude","model":"opus","task":"review","workingDirectory":"/w","capabilities":{"ack":true,"resume":true,"max_inflight":256,"supports_topics":true}}}`
	require.NoError(t, proto.WriteFrame(c.Raw(), []byte(hello)))
	w := payload[proto.Welcome](t, next(t, c, proto.TypeWelcome))
	assert.Equal(t, "test/claude-1", w.SessionID)
	assert.NotEmpty(t, w.ResumeToken)
	assert.Equal(t, proto.DefaultMaxFrameBytes, w.Server.MaxFrameBytes)
	assert.Equal(t, int64(5000), w.Server.HeartbeatMs)
	assert.Equal(t, 1, w.Server.Extensions["agentmux"])

	// Types agent-relay sends that we do not implement: ERROR, and the connection lives.
	_, err = c.Write("LOG", "", "", map[string]any{"data": "x"})
	require.NoError(t, err)
	er := payload[proto.Error](t, next(t, c, proto.TypeError))
	assert.Equal(t, proto.CodeUnknownType, er.Code)
	assert.False(t, er.Fatal)
	_, err = c.Write(proto.TypePing, "", "", proto.Ping{Nonce: "n1"})
	require.NoError(t, err)
	assert.Equal(t, "n1", payload[proto.Ping](t, next(t, c, proto.TypePong)).Nonce)
}

func TestNamesAreUnique(t *testing.T) {
	e := start(t, newFakeCore("alice"), "", nil)
	e.member("bot", 0)
	for _, name := range []string{"bot", "alice"} {
		c, err := client.Dial(e.path, proto.Hello{Agent: name})
		var ce *client.Error
		require.ErrorAs(t, err, &ce, name)
		assert.Equal(t, proto.CodeNameTaken, ce.Code)
		if c != nil {
			c.Raw().Close()
		}
	}
	assert.True(t, e.core.isRegistered("bot"))
}

func TestSendDeliverInOrderAndAck(t *testing.T) {
	e := start(t, nil, "", nil)
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	const n = 200
	ids := make([]string, n)
	for i := range n {
		// from is the server's: a member cannot pose as another.
		env, err := proto.New(proto.TypeSend, fmt.Sprint("s", i), 1, proto.Send{Body: fmt.Sprint("msg ", i)})
		require.NoError(t, err)
		env.To, env.Topic, env.From = "bob", "chat", "mallory"
		require.NoError(t, alice.WriteEnvelope(env))
		ack := payload[proto.Ack](t, next(t, alice, proto.TypeAck))
		assert.Equal(t, fmt.Sprint("s", i), ack.AckID)
		ids[i] = ack.MessageID
	}
	for i := range n {
		d := next(t, bob, proto.TypeDeliver)
		assert.Equal(t, ids[i], d.ID)
		assert.Equal(t, "alice", d.From)
		assert.Equal(t, "chat", d.Topic)
		assert.Equal(t, int64(i+1), d.Delivery.Seq)
		assert.Equal(t, "test/bob", d.Delivery.SessionID)
		assert.Equal(t, fmt.Sprint("msg ", i), payload[proto.Send](t, d).Body)
		require.NoError(t, bob.Ack(d))
	}
	// Confirmed in the store once acknowledged: read it through the protocol.
	ctl := e.control()
	var last *proto.Result
	// The ACKs precede this request on bob's connection, but not on ctl's: wait for
	// bob's last ACK to be processed by asking bob's own connection something first.
	_, err := bob.Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
	last, err = ctl.Request(proto.TypeRead, proto.Read{ID: ids[n-1]})
	require.NoError(t, err)
	assert.NotZero(t, last.Message.Confirmed)
	assert.Equal(t, "alice", last.Message.From)
}

func TestRedeliveryAfterReconnect(t *testing.T) {
	e := start(t, nil, "", nil)
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	tok := bob.Welcome.ResumeToken
	id1, err := alice.Send("", "bob", "one")
	require.NoError(t, err)
	d := next(t, bob, proto.TypeDeliver)
	require.Equal(t, id1, d.ID)
	ctl := e.control()
	_, err = ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	bob.Raw().Close() // gone without ACK

	// A message while bob is away is stored and waits; bob comes back with its token.
	for {
		x := next(t, ctl, proto.TypeEvent)
		if p := payload[proto.Event](t, x); p.Kind == "member" && p.Member == "bob" && p.State == "disconnected" {
			break
		}
	}
	id2, err := alice.Send("", "bob", "two")
	require.NoError(t, err)
	bob2, err := client.Dial(e.path, proto.Hello{Agent: "bob", Session: &proto.HelloSession{ResumeToken: tok}})
	require.NoError(t, err)
	defer bob2.Raw().Close()
	deadline(bob2)
	d1 := next(t, bob2, proto.TypeDeliver)
	d2 := next(t, bob2, proto.TypeDeliver)
	assert.Equal(t, []string{id1, id2}, []string{d1.ID, d2.ID}, "the unacked one again, same id, then the new one")
	assert.Equal(t, []int64{1, 2}, []int64{d1.Delivery.Seq, d2.Delivery.Seq})
}

func TestResumeSyncReplay(t *testing.T) {
	e := start(t, nil, "", nil)
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	var ids []string
	for i := 1; i <= 3; i++ {
		id, err := alice.Send("", "bob", fmt.Sprint("m", i))
		require.NoError(t, err)
		ids = append(ids, id)
	}
	for i := 1; i <= 3; i++ {
		d := next(t, bob, proto.TypeDeliver)
		if i <= 2 {
			require.NoError(t, bob.Ack(d))
		}
	}
	_, err := bob.Request(proto.TypeList, struct{}{}) // the ACKs are in
	require.NoError(t, err)
	bob.Raw().Close()
	id4, err := alice.Send("", "bob", "m4")
	require.NoError(t, err)

	// RESUME as the first frame: it had seq 3 (unacked), so only 4 is replayed.
	c, err := client.DialRaw(e.path)
	require.NoError(t, err)
	defer c.Raw().Close()
	deadline(c)
	_, err = c.Write(proto.TypeResume, "", "", proto.Resume{SessionID: "test/bob", Agent: "bob", ResumeToken: bob.Welcome.ResumeToken, Streams: map[string]proto.StreamPos{"": {LastSeq: 3}}})
	require.NoError(t, err)
	next(t, c, proto.TypeWelcome)
	sync := payload[proto.Sync](t, next(t, c, proto.TypeSync))
	assert.Equal(t, "test/bob", sync.SessionID)
	assert.Equal(t, []proto.SyncStream{{Topic: "", Peer: "*", LastSeq: 3, ServerLastSeq: 4}}, sync.Streams)
	assert.Equal(t, 1, sync.Replay)
	d := next(t, c, proto.TypeDeliver)
	assert.Equal(t, id4, d.ID)
	assert.Equal(t, int64(4), d.Delivery.Seq)
	r, err := deadline(c).Request(proto.TypeRead, proto.Read{ID: ids[2]})
	require.NoError(t, err)
	assert.NotZero(t, r.Message.Confirmed, "seq 3 ≤ last_seq counts as received")
}

// TestResumeTakesNoConnectedMemberWithoutItsToken: a RESUME that spells a connected
// member's session id (SESSION/NAME, which `agentmux ls` shows anyone) but not its
// resume token is refused, and the member keeps its connection and its messages.
func TestResumeTakesNoConnectedMemberWithoutItsToken(t *testing.T) {
	e := start(t, nil, "", nil)
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	for _, tok := range []string{"", "0123456789abcdef0123456789abcdef"} {
		c, err := client.DialRaw(e.path)
		require.NoError(t, err)
		deadline(c)
		_, err = c.Write(proto.TypeResume, "", "", proto.Resume{SessionID: "test/bob", Agent: "bob", ResumeToken: tok, Streams: map[string]proto.StreamPos{}})
		require.NoError(t, err)
		f := next(t, c, proto.TypeError)
		assert.Equal(t, proto.CodeNameTaken, payload[proto.Error](t, f).Code, "token %q", tok)
		c.Raw().Close()
	}
	id, err := alice.Send("", "bob", "for bob only")
	require.NoError(t, err)
	assert.Equal(t, id, next(t, bob, proto.TypeDeliver).ID, "bob keeps his connection")
}

// A client that takes the name of a member who is away, without its token, gets the
// name and a new token, not the member's: with the member's it could take over the
// member's own connection once that is back.
func TestAnAwayMembersNameComesWithANewToken(t *testing.T) {
	e := start(t, nil, "", nil)
	bob := e.member("bob", 0)
	tok := bob.Welcome.ResumeToken
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	bob.Raw().Close()
	for {
		x := next(t, ctl, proto.TypeEvent)
		if p := payload[proto.Event](t, x); p.Kind == "member" && p.Member == "bob" && p.State == "disconnected" {
			break
		}
	}
	other := e.member("bob", 0)
	assert.NotEqual(t, tok, other.Welcome.ResumeToken, "the away member's token handed to a client that did not show it")
	// bob, back with his own token, finds his name taken, and the other keeps it.
	_, err = client.Dial(e.path, proto.Hello{Agent: "bob", Session: &proto.HelloSession{ResumeToken: tok}})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, proto.CodeNameTaken, ce.Code)
}

func TestResumeStale(t *testing.T) {
	e := start(t, nil, "", nil)
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	for range 3 {
		_, err := alice.Send("", "bob", "x")
		require.NoError(t, err)
	}
	bob.Raw().Close()
	_, err := e.st.Prune(time.Now().Add(time.Hour).UnixMilli()) // retention passed them all
	require.NoError(t, err)
	c, err := client.DialRaw(e.path)
	require.NoError(t, err)
	defer c.Raw().Close()
	deadline(c)
	_, err = c.Write(proto.TypeResume, "", "", proto.Resume{SessionID: "test/bob", ResumeToken: bob.Welcome.ResumeToken, Streams: map[string]proto.StreamPos{"": {LastSeq: 1}}})
	require.NoError(t, err)
	next(t, c, proto.TypeWelcome)
	n := payload[proto.Nack](t, next(t, c, proto.TypeNack))
	assert.Equal(t, proto.NackStale, n.Code)
}

func TestBusyWhenQueueFull(t *testing.T) {
	e := start(t, nil, "", func(c *hub.Config) { c.MaxQueue = 3 })
	alice := e.member("alice", 0)
	bob := e.member("bob", 2) // reads but does not ACK yet
	for i := range 3 {
		_, err := alice.Send("", "bob", fmt.Sprint(i))
		require.NoError(t, err)
	}
	_, err := alice.Send("", "bob", "3")
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "BUSY", ce.Code)
	assert.Contains(t, ce.Message, "3 messages waiting")

	d0 := next(t, bob, proto.TypeDeliver)
	d1 := next(t, bob, proto.TypeDeliver)
	require.NoError(t, bob.Ack(d0)) // the window opens: the third comes
	d2 := next(t, bob, proto.TypeDeliver)
	assert.Equal(t, []int64{1, 2, 3}, []int64{d0.Delivery.Seq, d1.Delivery.Seq, d2.Delivery.Seq})
	_, err = alice.Send("", "bob", "4") // room again
	require.NoError(t, err)
}

func TestHeartbeat(t *testing.T) {
	// The live client below answers each PING from this test's goroutine, and the hub
	// rightly drops it when that answer comes more than a heartbeat after the PING: the
	// heartbeat must stay well above how long a loaded machine leaves a runnable
	// goroutine waiting under -race. At 150 ms the wait outlasted it in 2 runs of 40
	// (the PONG written into a socket the hub had closed).
	hb := time.Second
	e := start(t, nil, "", func(c *hub.Config) { c.Heartbeat = hb })
	// A client that does not answer PINGs is dead after two heartbeats of silence.
	began := time.Now()
	dead := e.member("dead", 0)
	dead.NoPong = true
	next(t, dead, proto.TypePing)
	expectClosed(t, dead)
	assert.GreaterOrEqual(t, time.Since(began), 2*hb)

	// One that answers them outlives many heartbeats.
	live := e.member("live", 0)
	live.NoPong = true
	for range 3 { // silent but for its PONGs for longer than two heartbeats
		p := payload[proto.Ping](t, next(t, live, proto.TypePing))
		_, err := live.Write(proto.TypePong, "", "", p)
		require.NoError(t, err)
	}
	res, err := live.Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
	states := map[string]string{}
	for _, m := range res.Members {
		states[m.Name] = m.State
	}
	assert.Equal(t, map[string]string{"dead": "away", "live": "connected"}, states)
}

// A client that only listens (`agentmux events`) says nothing but PONGs: the hub must
// PING it every heartbeat even while frames flow to it, or it is dead after two
// heartbeats of events. Here each event read brings the next at once, so the
// connection is never quiet on the hub's side, for three PINGs. The heartbeat is long
// enough that the test's own goroutine, slowed by a loaded machine, answers in time.
func TestHeartbeatWhileEventsFlow(t *testing.T) {
	hb := 500 * time.Millisecond
	core := newFakeCore("bob")
	e := start(t, core, "", func(c *hub.Config) { c.Heartbeat = hb })
	ctl := e.control()
	_, err := ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	ctl.NoPong = true
	state := []string{"busy", "idle"}
	core.ev.Emit(proto.Event{Kind: "member", Member: "bob", State: state[0]})
	events, pings := 0, 0
	for pings < 3 {
		f, err := deadline(ctl).Read()
		require.NoError(t, err, "the hub closed a listening client after %d events and %d PINGs", events, pings)
		switch f.Type {
		case proto.TypePing:
			pings++
			_, err := ctl.Write(proto.TypePong, "", "", payload[proto.Ping](t, f))
			require.NoError(t, err)
		case proto.TypeEvent:
			events++
			core.ev.Emit(proto.Event{Kind: "member", Member: "bob", State: state[events%2]})
		}
	}
}

// After agentmux restarts on the same store, a client member that reconnects the way
// agent-relay's client does (HELLO with its old token) gets every DELIVER it never
// ACKed, with the same ids and seqs, and its seqs continue.
func TestRedeliveryAcrossRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "agentmux.db")
	e := start(t, nil, db, nil)
	alice := e.member("alice", 0)
	bob := e.member("bob", 0)
	tok := bob.Welcome.ResumeToken
	var ids []string
	for _, text := range []string{"one", "two"} {
		id, err := alice.Send("", "bob", text)
		require.NoError(t, err)
		ids = append(ids, id)
	}
	d := next(t, bob, proto.TypeDeliver)
	require.NoError(t, bob.Ack(d))
	next(t, bob, proto.TypeDeliver) // read, never acknowledged
	_, err := bob.Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
	e.h.Close()

	e2 := start(t, nil, db, nil)
	bob2, err := client.Dial(e2.path, proto.Hello{Agent: "bob", Session: &proto.HelloSession{ResumeToken: tok}})
	require.NoError(t, err)
	defer bob2.Raw().Close()
	again := next(t, bob2, proto.TypeDeliver)
	assert.Equal(t, ids[1], again.ID)
	assert.Equal(t, int64(2), again.Delivery.Seq)
	require.NoError(t, bob2.Ack(again))
	alice2 := e2.member("alice", 0)
	_, err = alice2.Send("", "bob", "three")
	require.NoError(t, err)
	assert.Equal(t, int64(3), next(t, bob2, proto.TypeDeliver).Delivery.Seq)
}

// Every request of the extension reaches its handler through the socket: sent with an
// empty payload, each is answered (X_RESULT, or an ERROR that is not UNKNOWN_TYPE),
// while a type the session does not know gets UNKNOWN_TYPE and the connection lives.
func TestEveryExtensionRequestIsDispatched(t *testing.T) {
	e := start(t, newFakeCore("alice"), "", nil)
	for _, typ := range proto.ClientTypes {
		if typ[:2] != "X_" {
			continue
		}
		c := e.control()
		id, err := c.Write(typ, "", "", map[string]any{})
		require.NoError(t, err, typ)
		for {
			f, err := deadline(c).Read()
			require.NoError(t, err, typ)
			if f.Type == proto.TypeEvent { // X_EVENTS' stream
				continue
			}
			if f.Type == proto.TypeError {
				er := payload[proto.Error](t, f)
				assert.NotEqual(t, proto.CodeUnknownType, er.Code, "%s: %s", typ, er.Message)
				assert.Equal(t, id, er.Re, typ)
			} else {
				assert.Equal(t, proto.TypeResult, f.Type, typ)
				assert.Equal(t, id, payload[proto.Result](t, f).Re, typ)
			}
			break
		}
	}
	c := e.control()
	id, err := c.Write("X_FROBNICATE", "", "", map[string]any{})
	require.NoError(t, err)
	er := payload[proto.Error](t, next(t, c, proto.TypeError))
	assert.Equal(t, proto.CodeUnknownType, er.Code)
	assert.Equal(t, `unknown message type "X_FROBNICATE"`, er.Message)
	assert.Equal(t, id, er.Re)
	assert.False(t, er.Fatal)
	_, err = c.Write(proto.TypePing, "", "", proto.Ping{Nonce: "n"})
	require.NoError(t, err)
	assert.Equal(t, "n", payload[proto.Ping](t, next(t, c, proto.TypePong)).Nonce)
}

// paneFake is a core that runs pane commands: it starts pane 3 and sets every share to
// what was asked.
type paneFake struct {
	*fakeCore
	diffing chan struct{} // when set, Diff says it began there and ends when told
}

func (paneFake) New(proto.NewPane) (int, string, error) { return 3, "new", nil }
func (paneFake) Respawn(int, bool) error                { return nil }
func (paneFake) Rename(int, string) error               { return nil }
func (paneFake) TypeText(int, string, bool) error       { return nil }
func (paneFake) SetShare(_, w, h int) ([2]int, error)   { return [2]int{w, h}, nil }
func (f paneFake) Diff(int) (string, error) {
	if f.diffing != nil {
		f.diffing <- struct{}{}
		<-f.diffing
	}
	return "diff", nil
}

// The pane commands keep their rule through the handler table: a pane's program is
// refused (BAD_REQUEST, the connection lives), a payload that does not validate closes
// the person's connection, and a good one is answered.
func TestPaneCommandsThroughTheTable(t *testing.T) {
	core := paneFake{fakeCore: newFakeCore("alice")}
	e := start(t, nil, "", func(c *hub.Config) { c.Core = core })
	for _, typ := range []string{proto.TypeNew, proto.TypeRespawn, proto.TypeRename, proto.TypeType, proto.TypeResize, proto.TypeDiff} {
		pane := e.paneControl("alice")
		_, err := pane.Write(typ, "", "", proto.Target{A: "alice"})
		require.NoError(t, err)
		er := payload[proto.Error](t, next(t, pane, proto.TypeError))
		assert.Equal(t, proto.CodeBadRequest, er.Code, typ)
		assert.Contains(t, er.Message, "only the person", typ)
		assert.False(t, er.Fatal, typ)

		person := e.control()
		_, err = person.Write(typ, "", "", "not an object")
		require.NoError(t, err)
		if er := expectClosed(t, person); assert.NotNil(t, er, typ) {
			assert.Equal(t, proto.CodeBadRequest, er.Code, typ)
			assert.True(t, er.Fatal, typ)
		}
	}
	person := e.control()
	res, err := person.Request(proto.TypeResize, proto.Resize{A: "alice", Width: 150, Height: 80})
	require.NoError(t, err)
	assert.Equal(t, []int{150, 80}, res.Share)
	res, err = person.Request(proto.TypeNew, proto.NewPane{Argv: []string{"bash"}})
	require.NoError(t, err)
	assert.Equal(t, 3, res.Number)
}

// X_DIFF runs git off the hub's loop: while a large tree's diff is read, the hub
// answers others, and the diff reaches the person who asked when it is done.
func TestDiffDoesNotHoldTheHub(t *testing.T) {
	core := paneFake{fakeCore: newFakeCore("alice"), diffing: make(chan struct{})}
	e := start(t, nil, "", func(c *hub.Config) { c.Core = core })
	type got struct {
		res *proto.Result
		err error
	}
	done := make(chan got, 1)
	person := e.control()
	go func() {
		res, err := person.Request(proto.TypeDiff, proto.Target{A: "Alice"})
		done <- got{res, err}
	}()
	<-core.diffing
	listed := make(chan got, 1)
	go func() {
		res, err := e.control().Request(proto.TypeList, struct{}{})
		listed <- got{res, err}
	}()
	select {
	case l := <-listed:
		require.NoError(t, l.err)
		assert.Len(t, l.res.Members, 1)
	case <-time.After(10 * time.Second):
		t.Fatal("the hub answered nothing while git ran")
	}
	core.diffing <- struct{}{}
	g := <-done
	require.NoError(t, g.err)
	assert.Equal(t, "diff", *g.res.Screen)
}
