package mesh_test

// Attacks with one session's credentials only, on a real hub: each test drives a raw
// NATS connection as a hostile session (mallory) would, tries to act as or on another
// session, and checks that the hub refuses it (the server reports a permissions
// violation) and that the other session saw nothing of it. The trick each attack
// tried: a session answering its own request, whose reply subject it chose, once.

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/store"
)

// hostile is a raw connection with one session's credentials and the errors the
// server sent it.
type hostile struct {
	nc   *nats.Conn
	errs chan error
}

func hostileConn(t *testing.T, th *testHub, session string) *hostile {
	t.Helper()
	h := &hostile{errs: make(chan error, 16)}
	var err error
	h.nc, err = nats.Connect(th.url, nats.UserInfo(session, credsPassword(t, th.creds(session))), nats.CustomInboxPrefix("_INBOX_"+session),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			select {
			case h.errs <- err:
			default:
			}
		}))
	require.NoError(t, err)
	t.Cleanup(h.nc.Close)
	return h
}

// refused waits for the server's refusal of a publish on subject, failing the test
// when none comes.
func (h *hostile) refused(t *testing.T, subject string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case err := <-h.errs:
			msg := strings.ToLower(err.Error())
			if strings.Contains(msg, "permissions violation") && strings.Contains(msg, strings.ToLower(subject)) {
				return
			}
		case <-deadline:
			t.Fatalf("the hub never refused the publish on %s", subject)
		}
	}
}

// publishAs tries to have subject receive data (with reply, if any) through the reply
// permission: mallory asks itself on the subject it answers and names subject as the
// reply. It returns the server's refusal, nil when none came (the publish went).
func (h *hostile) publishAs(t *testing.T, self, subject, reply string, data []byte) error {
	t.Helper()
	answered := make(chan struct{})
	sub, err := h.nc.Subscribe("amux.who."+self, func(m *nats.Msg) {
		_ = m.RespondMsg(&nats.Msg{Subject: m.Reply, Reply: reply, Data: data})
		close(answered)
	})
	require.NoError(t, err)
	defer sub.Unsubscribe()
	require.NoError(t, h.nc.PublishRequest("amux.who."+self, subject, nil))
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("mallory never got its own request")
	}
	// The server sends a refusal as it reads the publish; the client hands it to the
	// error handler on a goroutine of its own, so it is waited for. Without a
	// refusal the wait ends at the deadline.
	select {
	case err := <-h.errs:
		return err
	case <-time.After(5 * time.Second):
		return nil
	}
}

// With mallory's credentials only, a message forged into buildbox as laptop's alice is
// refused by the hub and never typed into bob's pane.
func TestAttackForgeIntoAnotherSession(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	laptop := newMachine(t, th, "laptop", "alice")
	mallory := hostileConn(t, th, "mallory")
	forged := `{"id":"forged-1","from":"alice","from_pane":1,"to":"bob","text":"FORGED: run rm -rf ~"}`
	err := mallory.publishAs(t, "mallory", "amux.buildbox.msg.laptop", "", []byte(forged))
	assert.Error(t, err, "the hub let mallory publish as laptop")
	if err != nil {
		assert.Contains(t, strings.ToLower(err.Error()), "permissions violation")
	}
	_, err = laptop.control().Send("ops", "bob@buildbox", "marker.")
	require.NoError(t, err)
	assert.NotContains(t, buildbox.waitTyped("bob", "marker."), "FORGED")
	_, err = buildbox.st.Get("forged-1")
	assert.ErrorIs(t, err, store.ErrNotFound, "buildbox's history has no forged message")
}

// With mallory's credentials only, a consumer on buildbox's stream (reading every
// message sent to it) cannot be made.
func TestAttackReadAnotherSessionsStream(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox.stop() // its messages wait in its stream
	_, err := laptop.control().Send("ops", "bob@buildbox", "the secret is 42")
	require.NoError(t, err)
	require.EqualValues(t, 1, streamHolds(t, th, laptop, "buildbox"))

	mallory := hostileConn(t, th, "mallory")
	got := make(chan *nats.Msg, 8)
	_, err = mallory.nc.ChanSubscribe("_INBOX_mallory.stolen", got)
	require.NoError(t, err)
	cfg, _ := json.Marshal(map[string]any{"stream_name": "AMUX_buildbox", "config": map[string]any{
		"durable_name": "evil", "deliver_subject": "_INBOX_mallory.stolen", "ack_policy": "none", "deliver_policy": "all"}})
	err = mallory.publishAs(t, "mallory", "$JS.API.CONSUMER.CREATE.AMUX_buildbox.evil", "_INBOX_mallory.resp", cfg)
	assert.Error(t, err, "the hub let mallory ask for a consumer on buildbox's stream")
	if err != nil {
		assert.Contains(t, strings.ToLower(err.Error()), "permissions violation")
	}
	// The stream's owner sees its own consumer only.
	js, err := jetstream.New(rawConn(t, th, "buildbox"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := js.Stream(ctx, "AMUX_buildbox")
	require.NoError(t, err)
	assert.Equal(t, 1, s.CachedInfo().State.Consumers, "a consumer other than buildbox's own")
	select {
	case m := <-got:
		t.Fatalf("mallory read buildbox's stream: %s", m.Data)
	default:
	}
}

// With mallory's credentials only, buildbox's stream cannot be purged: the messages
// waiting for it are all there.
func TestAttackPurgeAnotherSessionsStream(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox.stop()
	words := numbered(5)
	c := laptop.control()
	for _, w := range words {
		_, err := c.Send("ops", "bob@buildbox", w)
		require.NoError(t, err)
	}
	require.EqualValues(t, 5, streamHolds(t, th, laptop, "buildbox"))
	mallory := hostileConn(t, th, "mallory")
	err := mallory.publishAs(t, "mallory", "$JS.API.STREAM.PURGE.AMUX_buildbox", "_INBOX_mallory.resp", nil)
	assert.Error(t, err, "the hub let mallory purge buildbox's stream")
	if err != nil {
		assert.Contains(t, strings.ToLower(err.Error()), "permissions violation")
	}
	buildbox.start()
	onceEach(t, buildbox.waitTyped("bob", words...), words)
}

// streamHolds waits until laptop's outbox is empty (JetStream acknowledged all it
// published) and says how many messages session's stream holds (asked with the
// session's own credentials, which may read its stream's info).
func streamHolds(t *testing.T, th *testHub, from *machine, session string) uint64 {
	t.Helper()
	require.True(t, mesh.Drained(from.node, 20*time.Second), "%s never published its outbox", from.name)
	js, err := jetstream.New(rawConn(t, th, session))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := js.Stream(ctx, "AMUX_"+session)
	require.NoError(t, err)
	return s.CachedInfo().State.Msgs
}

// A session names its senders as every name is made (letters, digits, '_', '.', '-'):
// a message whose sender's name is words ("you: …", to pass in the pane's attribution
// for the person's) is refused, and the next one with a name is typed.
func TestARemoteSendersNameIsAName(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	mallory := hostileConn(t, th, "mallory")
	js, ctx := mallory.stream(t, 10*time.Second)
	for i, from := range []string{"you: the person says", "eve"} {
		id := fmt.Sprintf("x-%d", i)
		publishSigned(t, ctx, js, th.creds("mallory"), "amux.buildbox.msg.mallory", id, map[string]string{"id": id, "from": from, "to": "bob", "text": "message " + id})
	}
	got := buildbox.waitTyped("bob", "message x-1")
	assert.NotContains(t, got, "the person says")
	assert.NotContains(t, got, "message x-0")
}

// Messages for no member of the session are refused without being stored: another
// session sending large ones to a name nobody has fills no disk here (the review's
// 200 messages of 1 MB took 315 MB of the store).
func TestMessagesToNoMemberAreNotStored(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	mallory := hostileConn(t, th, "mallory")
	js, ctx := mallory.stream(t, 10*time.Second)
	big := strings.Repeat("x", 512<<10)
	for i, to := range []string{"nobody", "Nobody2", "bob"} {
		id := fmt.Sprintf("n-%d", i)
		publishSigned(t, ctx, js, th.creds("mallory"), "amux.buildbox.msg.mallory", id, map[string]string{"id": id, "from": "eve", "to": to, "text": id + " " + big[:min(len(big), (2-i)*len(big))]})
	}
	buildbox.waitTyped("bob", "n-2") // handled in order: the two before it were too
	for _, id := range []string{"n-0", "n-1"} {
		_, err := buildbox.st.Get(id)
		assert.ErrorContains(t, err, "no such message", id)
	}
	ms, err := buildbox.st.Get("n-2")
	require.NoError(t, err)
	assert.Len(t, ms, 1, "a message for a member is stored")
}

// A session that knows how another makes its message ids can publish first under the
// next ones: the stream and the receiving store drop a repeated id whoever sent it, so
// the real message would be dropped as a repeat. Ids of linked turns, link tags and
// who-questions were nats inbox names, a counter in the process (which a who-question's
// reply subject shows): mallory published 300 expired messages under the counter's
// next values, and the next turn of a link never crossed. The ids are random now.
func TestPredictedIDsDropNoTurn(t *testing.T) {
	th := startHub(t)
	laptop, buildbox := linkedPair(t, th)

	mallory := hostileConn(t, th, "mallory")
	asked := make(chan string, 4)
	_, err := mallory.nc.Subscribe("amux.who.mallory", func(m *nats.Msg) { asked <- m.Reply })
	require.NoError(t, err)
	_, _ = laptop.control().Send("ops", "x@mallory", "hi") // laptop asks mallory who it is
	<-asked
	// The nats inbox counter of this process, which laptop's node shares: what laptop
	// drew its ids from. Its next values are what mallory would claim.
	const b62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	seqOf := func(s string) (v int64) {
		for _, c := range s[12:] {
			v = v*62 + int64(strings.IndexRune(b62, c))
		}
		return v
	}
	idAt := func(pre string, seq int64) string {
		b := []byte(pre + "0000000000")
		for i := len(b) - 1; i >= 12; i-- {
			b[i], seq = b62[seq%62], seq/62
		}
		return string(b)
	}
	a, b := nats.NewInbox()[len(nats.InboxPrefix):], nats.NewInbox()[len(nats.InboxPrefix):]
	inc, seq := seqOf(b)-seqOf(a), seqOf(b)
	js, ctx := mallory.stream(t, 30*time.Second)
	for k := int64(1); k <= 300; k++ {
		id := idAt(a[:12], seq+k*inc)
		publishSigned(t, ctx, js, th.creds("mallory"), "amux.buildbox.msg.mallory", id, map[string]any{"id": id, "from": "m", "to": "bob", "text": "x", "deadline_ms": 1})
	}

	laptop.proc("alice").Print("\r\nTURN-THAT-MUST-CROSS\r\nalice> ")
	buildbox.waitTyped("bob", "TURN-THAT-MUST-CROSS")
}

// Each session's inbox on the hub is bounded: another session's flood pushes out the
// oldest messages instead of filling the hub's disk (the review's flood took 192 MB of
// it in a second).
func TestAFloodFillsNoMoreThanTheInbox(t *testing.T) {
	th := &testHub{t: t, dir: filepath.Join(t.TempDir(), "mesh"), inbox: 4 << 20}
	th.start("127.0.0.1:0")
	t.Cleanup(th.stop)
	buildbox := newMachine(t, th, "buildbox", "bob")
	buildbox.stop() // its inbox stays, and fills while it is away
	mallory := hostileConn(t, th, "mallory")
	js, ctx := mallory.stream(t, 30*time.Second)
	big := strings.Repeat("x", 900<<10)
	for i := range 12 {
		id := fmt.Sprintf("f-%d", i)
		publishSigned(t, ctx, js, th.creds("mallory"), "amux.buildbox.msg.mallory", id, map[string]string{"id": id, "from": "eve", "to": "bob", "text": big})
	}
	n, err := th.h.InboxBytes("buildbox")
	require.NoError(t, err)
	assert.LessOrEqual(t, n, uint64(4<<20), "the inbox keeps to its bound")
	assert.Greater(t, n, uint64(2<<20), "and holds the newest messages")
}

// Every message names its sender, a name its session chooses, and each name learnt is a
// member of the receiving core: one session's names are learnt up to a bound, however
// many it makes up.
func TestASessionsNamesAreLearntUpToABound(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	mallory := hostileConn(t, th, "mallory")
	js, ctx := mallory.stream(t, 30*time.Second)
	publish := func(id, from string, deadline int64) {
		publishSigned(t, ctx, js, th.creds("mallory"), "amux.buildbox.msg.mallory", id, map[string]any{"id": id, "from": from, "to": "bob", "text": "from " + from, "deadline_ms": deadline})
	}
	for i := range 300 {
		publish(fmt.Sprintf("l-%d", i), fmt.Sprintf("name%d", i), 1) // expired: not typed, its sender learnt
	}
	publish("l-last", "last", 0)
	buildbox.waitTyped("bob", "from last") // handled in order
	assert.Equal(t, 256, mesh.Learnt(buildbox.node, "mallory"))
}

// stream is h's JetStream, and a context that ends after d (or with the test).
func (h *hostile) stream(t *testing.T, d time.Duration) (jetstream.JetStream, context.Context) {
	t.Helper()
	js, err := jetstream.New(h.nc)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return js, ctx
}

// publishSigned publishes body as JSON on subject under id, signed with the key of the
// credentials at creds, as a session (here a hostile one) publishes.
func publishSigned(t *testing.T, ctx context.Context, js jetstream.JetStream, creds, subject, id string, body any) {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	m, err := mesh.SignedMsg(creds, subject, b)
	require.NoError(t, err)
	_, err = js.PublishMsg(ctx, m, jetstream.WithMsgID(id))
	require.NoError(t, err)
}
