package mesh_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// numbered returns n messages "msg-01 …" and the words a pane must get, in order.
func numbered(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("msg-%02d.", i+1)
	}
	return out
}

// onceEach fails unless each word occurs exactly once in s.
func onceEach(t *testing.T, s string, words []string) {
	t.Helper()
	for _, w := range words {
		assert.Equal(t, 1, strings.Count(s, w), "%q typed once", w)
	}
}

// Messages sent while the receiving session is down wait in the mesh and are typed
// once, in the order sent, when it is back.
func TestMessagesWaitForADownSession(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	buildbox.stop()
	c := laptop.control()
	words := numbered(12)
	for _, w := range words {
		_, err := c.Send("ops", "bob@buildbox", w)
		require.NoError(t, err)
	}
	buildbox.start()
	onceEach(t, buildbox.waitTyped("bob", words...), words)
	got, err := buildbox.control().Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	assert.Len(t, got.Messages, len(words), "history holds each once")
}

// Messages sent while the hub is down wait in the sender's outbox and are typed once,
// in order, when the hub is back; the receiving side's consumer resumes by itself.
func TestMessagesWaitForADownHub(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	c := laptop.control()
	_, err := c.Send("ops", "bob@buildbox", "before.")
	require.NoError(t, err)
	buildbox.waitTyped("bob", "before.")
	th.stop()
	words := numbered(10)
	for _, w := range words {
		_, err := c.Send("ops", "bob@buildbox", w)
		require.NoError(t, err)
	}
	th.restart()
	onceEach(t, buildbox.waitTyped("bob", words...), words)
}

// A session restarted after its messages crossed gets each of them once: the
// receiving side keeps the ids, so a message crossing again is not typed again.
func TestACrossedMessageIsTypedOnce(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	c := laptop.control()
	id, err := c.Send("ops", "bob@buildbox", "only once.")
	require.NoError(t, err)
	buildbox.waitTyped("bob", "only once.")
	// The same message published again (a retry after a lost acknowledgement, or
	// beyond JetStream's duplicate window) under its id, then a new one as a marker.
	raw := rawConn(t, th, "laptop")
	js, err := jetstream.New(raw)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	body := fmt.Sprintf(`{"id":%q,"from":"ops","to":"bob","text":"only once."}`, id)
	_, err = js.PublishMsg(ctx, signed(t, th, "laptop", "amux.buildbox.msg.laptop", body), jetstream.WithMsgID(id+"-again"))
	require.NoError(t, err)
	_, err = c.Send("ops", "bob@buildbox", "marker.")
	require.NoError(t, err)
	sent := buildbox.waitTyped("bob", "only once.", "marker.")
	assert.Equal(t, 1, strings.Count(sent, "only once."))
}

// rawConn is a NATS connection with session's credentials, as a hostile session would
// use them.
func rawConn(t *testing.T, th *testHub, session string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(th.url, nats.UserInfo(session, credsPassword(t, th.creds(session))), nats.CustomInboxPrefix("_INBOX_"+session), nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	return nc
}

// signed is body on subject, signed with session's key as the session would.
func signed(t *testing.T, th *testHub, session, subject, body string) *nats.Msg {
	t.Helper()
	m, err := mesh.SignedMsg(th.creds(session), subject, []byte(body))
	require.NoError(t, err)
	return m
}

// credsPassword is the password line of an agentmux credentials file.
func credsPassword(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "password "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("%s has no password", path)
	return ""
}

// A session with wrong, missing or another hub's credentials is refused.
func TestWrongCredentialsAreRefused(t *testing.T) {
	th := startHub(t)
	other := startHub(t)
	st := openStore(t)
	good := th.creds("laptop")
	b, err := os.ReadFile(good)
	require.NoError(t, err)
	kp, err := nkeys.CreateUser()
	require.NoError(t, err)
	seed, err := kp.Seed()
	require.NoError(t, err)
	// The login is signed by the session's key: another key, whatever the password.
	wrong := writePrivate(t, regexp.MustCompile(`seed \S+`).ReplaceAllString(string(b), "seed "+string(seed)))
	for name, creds := range map[string]string{"wrong": wrong, "missing": "", "other hub": other.creds("laptop")} {
		_, err := mesh.Dial(mesh.Options{URL: th.url, Session: "laptop", CredsFile: creds, Store: st, Timeout: 5 * time.Second})
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "refused", name)
	}
	// Credentials are a session's: another name is refused before connecting.
	_, err = mesh.Dial(mesh.Options{URL: th.url, Session: "buildbox", CredsFile: good, Store: st, Timeout: 5 * time.Second})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--session laptop")
	n, err := mesh.Dial(mesh.Options{URL: th.url, Session: "laptop", CredsFile: good, Store: st, Timeout: 5 * time.Second})
	require.NoError(t, err)
	n.Close()
}

// A session cannot send as another: the hub refuses its publish on another session's
// subject, and it cannot read another session's stream; what it sends as itself is
// attributed to it.
func TestASessionCannotSendAsAnother(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	newMachine(t, th, "laptop", "alice")
	mallory := hostileConn(t, th, "mallory")
	js, err := jetstream.New(mallory.nc)
	require.NoError(t, err)
	// Each refusal is the hub's, naming the subject: without it a call would fail for
	// want of an answer alone (or, sharing a spent context, without being sent).
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = js.Publish(ctx, "amux.buildbox.msg.laptop", []byte(`{"id":"forged","from":"alice","to":"bob","text":"forged."}`))
	require.Error(t, err, "publishing as laptop is refused")
	mallory.refused(t, "amux.buildbox.msg.laptop")
	ctx1, cancel1 := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel1()
	_, err = js.Consumer(ctx1, "AMUX_buildbox", "buildbox")
	require.Error(t, err, "reading buildbox's stream is refused")
	mallory.refused(t, "$JS.API.CONSUMER.INFO.AMUX_buildbox.buildbox")
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	// Nor can it claim another session in the sender's name, or hide characters in it.
	for _, from := range []string{"alice@laptop", "ali\u001b]52;c;x\u0007ce"} {
		_, err = js.PublishMsg(ctx2, signed(t, th, "mallory", "amux.buildbox.msg.mallory", `{"id":"`+from+`","from":"`+from+`","to":"bob","text":"forged."}`))
		require.NoError(t, err)
	}
	_, err = js.PublishMsg(ctx2, signed(t, th, "mallory", "amux.buildbox.msg.mallory", `{"id":"own","from":"alice","to":"bob","text":"honest."}`))
	require.NoError(t, err)
	sent := buildbox.waitTyped("bob", "alice@mallory", "honest.")
	assert.NotContains(t, sent, "forged.")
	assert.NotContains(t, sent, "alice@laptop")
}

// A second live session with a name is refused, saying how to pick another.
func TestATakenNameIsRefused(t *testing.T) {
	th := startHub(t)
	newMachine(t, th, "laptop", "alice")
	_, err := mesh.Dial(mesh.Options{URL: th.url, Session: "laptop", CredsFile: th.creds("laptop"), Store: openStore(t), Timeout: 5 * time.Second})
	require.Error(t, err)
	assert.True(t, errors.Is(err, mesh.ErrNameTaken))
	assert.Contains(t, err.Error(), "--session")
}

// A message's ttl holds across sessions: one not typed in time (its pane held) is
// dropped, and its sender hears it.
func TestTTLAcrossSessions(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	require.NoError(t, buildbox.s.Hold(1))
	c := laptop.control()
	id, err := c.SendMeta("ops", "bob@buildbox", "too late.", &proto.SendMeta{TTLMs: 200})
	require.NoError(t, err)
	ev := awaitEvent(t, c, func(ev proto.Event) bool {
		return ev.Kind == "delivery" && ev.ID == id && (ev.Phase == "dropped" || ev.Phase == "expired" || ev.Phase == "failed")
	})
	assert.NotEqual(t, "failed", ev.Phase, ev.Text)
	require.NoError(t, buildbox.s.Release(1))
	_, err = c.Send("ops", "bob@buildbox", "marker.")
	require.NoError(t, err)
	assert.NotContains(t, buildbox.waitTyped("bob", "marker."), "too late.")
}

// A message for a session the mesh has never seen, or for a member a live session
// does not have, is refused at once, saying why; one for a session that is away waits
// for it (its members are not known).
func TestAnUnknownAddressFailsAtOnce(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	c := laptop.control()
	_, err := c.Send("ops", "bob@nowhere", "hello")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no session nowhere in the mesh")
	_, err = c.Send("ops", "nobody@buildbox", "hello")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "session buildbox has no member nobody (its members: bob)")
	buildbox.stop()
	_, err = c.Send("ops", "nobody@buildbox", "waits.")
	require.NoError(t, err, "an away session's members are not known")
}

// Messages a session had queued while the hub was down, when the session itself then
// ends, are sent when it starts again (from its store), each once and in order.
func TestASenderRestartedSendsWhatItHadQueued(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	c := laptop.control()
	_, err := c.Send("ops", "bob@buildbox", "before.")
	require.NoError(t, err)
	buildbox.waitTyped("bob", "before.")
	th.stop()
	words := numbered(5)
	for _, w := range words {
		_, err := c.Send("ops", "bob@buildbox", w)
		require.NoError(t, err)
	}
	// The SENDs are stored once acknowledged: history says so before the session ends.
	h, err := c.Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	require.Len(t, h.Messages, 1+len(words))
	c.Close()
	laptop.stop()
	th.restart()
	laptop.start()
	sent := buildbox.waitTyped("bob", words...)
	onceEach(t, sent, words)
	assert.NotContains(t, sent[strings.Index(sent, words[0]):], "before.", "a message typed before is not typed again")
}

// A message's mode and what is left of its ttl reach the receiving session's core,
// whose relay applies them as it does within one session.
func TestModeAndTTLCross(t *testing.T) {
	th := startHub(t)
	join := func(name string, core hub.Core) *mesh.Node {
		n, err := mesh.Join(mesh.Options{URL: th.url, Session: name, CredsFile: th.creds(name), Store: openStore(t), Core: core})
		require.NoError(t, err)
		t.Cleanup(n.Close)
		return n
	}
	sink := &sinkCore{got: make(chan string, 4)}
	join("buildbox", sink)
	laptop := join("laptop", &sinkCore{got: make(chan string, 4)})
	_, err := laptop.Send("alice", "bob", "buildbox", "now", proto.SendOptions{Mode: proto.ModeUrgent, Timeout: time.Minute})
	require.NoError(t, err)
	_, err = laptop.Send("alice", "bob", "buildbox", "when you can", proto.SendOptions{Mode: proto.ModeImportant})
	require.NoError(t, err)
	assert.Equal(t, "now", <-sink.got)
	assert.Equal(t, "when you can", <-sink.got)
	sink.mu.Lock()
	defer sink.mu.Unlock()
	assert.Equal(t, proto.ModeUrgent, sink.opts[0].Mode)
	assert.InDelta(t, time.Minute.Seconds(), sink.opts[0].Timeout.Seconds(), 5, "what is left of its ttl")
	assert.Equal(t, proto.ModeImportant, sink.opts[1].Mode)
	assert.Zero(t, sink.opts[1].Timeout)
	_, err = laptop.Send("alice", "bob", "buildbox", "x", proto.SendOptions{Mode: "loud"})
	assert.ErrorContains(t, err, "loud")
}

// A message that reached the receiving session but was not typed before it ended (its
// pane held) is typed once when the session is back: JetStream has it acknowledged,
// the session's store has it, the mesh hands it again.
func TestAReceiverRestartedTypesWhatWaited(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	require.NoError(t, buildbox.s.Hold(1))
	c := laptop.control()
	id, err := c.Send("ops", "bob@buildbox", "held.")
	require.NoError(t, err)
	// Recorded on the receiving side: the message crossed and waits for the pane.
	got := buildbox.control()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r, err := got.Request(proto.TypeRead, proto.Read{ID: id})
		if err == nil && r.Message != nil {
			break
		}
		require.True(t, time.Now().Before(deadline), "the message never reached buildbox's store")
		buildbox.s.Sync()
		waitOutput(buildbox.s, 20*time.Millisecond)
	}
	assert.NotContains(t, buildbox.proc("bob").Peek(), "held.")
	got.Close()
	buildbox.stop()
	buildbox.start()
	_, err = c.Send("ops", "bob@buildbox", "marker.")
	require.NoError(t, err)
	sent := buildbox.waitTyped("bob", "held.", "marker.")
	assert.Equal(t, 1, strings.Count(sent, "held."))
}

// A flood crosses a hub restart and a receiver restart mid-way: every message arrives,
// once, in the order sent.
func TestAFloodSurvivesRestarts(t *testing.T) {
	th := startHub(t)
	sink := &sinkCore{got: make(chan string, 1000)}
	rstore := openStore(t)
	join := func(name string, st *store.Store, core hub.Core) *mesh.Node {
		n, err := mesh.Join(mesh.Options{URL: th.url, Session: name, CredsFile: th.creds(name), Store: st, Core: core,
			ReconnectWait: 20 * time.Millisecond, Timeout: 5 * time.Second, Logger: testLogger()})
		require.NoError(t, err)
		return n
	}
	recv := join("buildbox", rstore, sink)
	send := join("laptop", openStore(t), &sinkCore{got: make(chan string, 1)})
	defer func() { send.Close(); recv.Close() }()
	const total = 300
	for i := 0; i < total; i++ {
		switch i {
		case 100:
			th.restart()
		case 200:
			recv.Close()
			recv = join("buildbox", rstore, sink)
		}
		_, err := send.Send("alice", "bob", "buildbox", fmt.Sprintf("m%03d", i), proto.SendOptions{})
		require.NoError(t, err)
	}
	timeout := time.After(30 * time.Second)
	for i := 0; i < total; i++ {
		select {
		case got := <-sink.got:
			require.Equal(t, fmt.Sprintf("m%03d", i), got, "in order, each once")
		case <-timeout:
			t.Fatalf("only %d of %d arrived", i, total)
		}
	}
}

// A message that arrives as the session stops is no failure: the node takes nothing
// more once the core has ended (or leaves what it took recorded and untyped), and it
// is typed once when the session is back.
func TestAMessageArrivingAtStopWaits(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	c := laptop.control()
	// The session core stops first (as the TUI's does), its node and socket after.
	require.NoError(t, buildbox.s.Stop())
	id, err := c.Send("ops", "bob@buildbox", "while stopping.")
	require.NoError(t, err)
	_, err = c.Send("ops", "bob@buildbox", "and another.")
	require.NoError(t, err)
	buildbox.stop()
	buildbox.start()
	sent := buildbox.waitTyped("bob", "while stopping.", "and another.")
	assert.Equal(t, 1, strings.Count(sent, "while stopping."))
	h, err := c.Request(proto.TypeRead, proto.Read{ID: id})
	require.NoError(t, err)
	assert.Zero(t, h.Message.Failed, "the sender never heard it failed")
}

// A message that crosses again (its sender restarted without having heard its final
// phase: the receiving side died before it said it) is not typed again, and its final
// phase as recorded on the receiving side goes back to the sender.
func TestACrossedMessageAgainGetsItsPhaseBack(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	c := laptop.control()
	const id = "m-taken-before"
	require.NoError(t, buildbox.st.Insert(store.Message{ID: id, Session: "buildbox", From: "ops@laptop", To: "bob",
		Kind: proto.KindMessage, Body: "taken before.", Queued: time.Now().UnixMilli()}))
	_, err := buildbox.st.Mark(id, "bob", store.Confirmed, time.Now().UnixMilli())
	require.NoError(t, err)

	raw := rawConn(t, th, "laptop")
	js, err := jetstream.New(raw)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	body := fmt.Sprintf(`{"id":%q,"from":"ops","to":"bob","text":"taken before."}`, id)
	_, err = js.PublishMsg(ctx, signed(t, th, "laptop", "amux.buildbox.msg.laptop", body), jetstream.WithMsgID(id))
	require.NoError(t, err)
	ev := awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "delivery" && strings.HasSuffix(ev.ID, id) })
	assert.Equal(t, proto.PhaseConfirmed, ev.Phase)
	assert.Equal(t, "bob@buildbox", ev.Member)
	_, err = c.Send("ops", "bob@buildbox", "marker.")
	require.NoError(t, err)
	assert.NotContains(t, buildbox.waitTyped("bob", "marker."), "taken before.")
}

// A hub outage shows: the person's status line says the hub is unreachable (a notice
// event), ls --mesh through the session fails saying so with the number of messages
// waiting in the outbox, and the status line says when the hub is back.
func TestAHubOutageShows(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	newMachine(t, th, "buildbox", "bob")
	c := laptop.control()
	th.stop()
	awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "notice" && strings.Contains(ev.Text, "unreachable") })
	for _, w := range numbered(3) {
		ack, err := c.SendAck("ops", "bob@buildbox", w, nil)
		require.NoError(t, err)
		assert.Equal(t, "hub unreachable: delivered when it comes back", ack.XNote, "the sender is told at once")
	}
	_, err := c.Request(proto.TypeMesh, struct{}{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hub unreachable since ")
	assert.Contains(t, err.Error(), "3 messages wait in the outbox")
	th.restart()
	awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "notice" && strings.Contains(ev.Text, "reachable again") })
	_, err = c.Request(proto.TypeMesh, struct{}{})
	require.NoError(t, err)
	ack, err := c.SendAck("ops", "bob@buildbox", "back", nil)
	require.NoError(t, err)
	assert.Empty(t, ack.XNote, "nothing to say while the hub is reachable")
}
