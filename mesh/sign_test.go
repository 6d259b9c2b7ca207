package mesh_test

// Signatures, on a permissive NATS server (no authentication, every client may publish
// anywhere): the server stops nothing, so whatever a receiving session refuses it
// refuses by the signature alone. A hostile client (mallory) publishes into buildbox's
// stream as laptop: unsigned, signed with its own key, a real message of laptop's
// with its text changed, and a real message of laptop's for another session. Each is
// refused and logged, never typed, never in history; laptop's own messages are typed.

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// permissiveHub is a NATS server with JetStream and no authentication at all, and a
// state folder for the sessions' credentials (their keys; the passwords go unused).
func permissiveHub(t *testing.T) *testHub {
	t.Helper()
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true,
		StoreDir: t.TempDir(), NoLog: true, NoSigs: true})
	require.NoError(t, err)
	srv.Start()
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	require.True(t, srv.ReadyForConnections(10*time.Second))
	return &testHub{t: t, dir: filepath.Join(t.TempDir(), "mesh"), url: srv.ClientURL()}
}

// logBuffer is a log the test reads while the node writes it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

func TestForgedMessagesAreRefusedByTheReceiver(t *testing.T) {
	th := permissiveHub(t)
	var log logBuffer
	buildbox := newMachineWith(t, &machine{t: t, name: "buildbox", dir: t.TempDir(), url: th.url, creds: th.creds("buildbox"),
		panes: []string{"bob"}, log: log.logger()})
	review := newMachine(t, th, "review", "carol")
	laptop := newMachine(t, th, "laptop", "alice")

	mallory, err := nats.Connect(th.url)
	require.NoError(t, err)
	defer mallory.Close()
	seen, err := mallory.SubscribeSync("amux.buildbox.msg.laptop") // the server lets anyone read
	require.NoError(t, err)
	require.NoError(t, mallory.Flush())
	c := laptop.control()
	_, err = c.Send("ops", "bob@buildbox", "hello.")
	require.NoError(t, err)
	buildbox.waitTyped("bob", "ops@laptop", "hello.") // laptop's key pinned on first sight
	real, err := seen.NextMsg(10 * time.Second)
	require.NoError(t, err)

	js, err := jetstream.New(mallory)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	publish := func(m *nats.Msg, id string) {
		t.Helper()
		_, err := js.PublishMsg(ctx, m, jetstream.WithMsgID(id))
		require.NoError(t, err, "the permissive server takes it")
	}
	body := func(id, text string) []byte {
		return []byte(`{"id":"` + id + `","from":"alice","from_pane":1,"to":"bob","text":"` + text + `"}`)
	}
	// Unsigned.
	publish(&nats.Msg{Subject: "amux.buildbox.msg.laptop", Data: body("f-unsigned", "FORGED unsigned")}, "f-unsigned")
	// Signed, by mallory's own key.
	m, err := mesh.SignedMsg(th.creds("mallory"), "amux.buildbox.msg.laptop", body("f-otherkey", "FORGED other key"))
	require.NoError(t, err)
	publish(m, "f-otherkey")
	// laptop's real message and signature, its text changed.
	tampered := nats.NewMsg(real.Subject)
	tampered.Header = real.Header
	tampered.Data = bytes.Replace(real.Data, []byte("hello."), []byte("FORGED tampered"), 1)
	publish(tampered, "f-tampered")
	// laptop's real message, as it is, into another session.
	replayed := nats.NewMsg("amux.review.msg.laptop")
	replayed.Header, replayed.Data = real.Header, real.Data
	publish(replayed, "f-replayed")

	_, err = c.Send("ops", "bob@buildbox", "marker.")
	require.NoError(t, err)
	_, err = c.Send("ops", "carol@review", "marker.")
	require.NoError(t, err)
	assert.NotContains(t, buildbox.waitTyped("bob", "hello.", "marker."), "FORGED")
	assert.NotContains(t, review.waitTyped("carol", "marker."), "hello.", "a message for buildbox was typed in review")
	for _, id := range []string{"f-unsigned", "f-otherkey"} {
		_, err := buildbox.st.Get(id)
		assert.ErrorIs(t, err, store.ErrNotFound, id)
	}
	h, err := buildbox.control().Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	for _, msg := range h.Messages {
		assert.NotContains(t, msg.Body, "FORGED")
	}
	logged := log.String()
	assert.Equal(t, 3, strings.Count(logged, "bad signature"), "each refusal logged:\n%s", logged)
	assert.Contains(t, logged, "unsigned")
	assert.Contains(t, logged, "(pinned)")
	assert.Contains(t, logged, "does not verify")
}

// A key written in the known-keys file before first sight holds: a message for laptop
// signed by another key is refused even though buildbox never heard from laptop.
func TestAKnownKeyHoldsBeforeFirstSight(t *testing.T) {
	th := permissiveHub(t)
	known := filepath.Join(t.TempDir(), "known_keys")
	key, err := mesh.PublicKey(th.creds("laptop"), false)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(known, []byte("# laptop's key, from its owner\nlaptop "+key+"\n"), 0o600))
	buildbox := newMachineWith(t, &machine{t: t, name: "buildbox", dir: t.TempDir(), url: th.url, creds: th.creds("buildbox"),
		panes: []string{"bob"}, knownKeys: known})

	mallory, err := nats.Connect(th.url)
	require.NoError(t, err)
	defer mallory.Close()
	js, err := jetstream.New(mallory)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := mesh.SignedMsg(th.creds("mallory"), "amux.buildbox.msg.laptop",
		[]byte(`{"id":"f-1","from":"alice","to":"bob","text":"FORGED first"}`))
	require.NoError(t, err)
	_, err = js.PublishMsg(ctx, m, jetstream.WithMsgID("f-1"))
	require.NoError(t, err)

	laptop := newMachine(t, th, "laptop", "alice")
	_, err = laptop.control().Send("ops", "bob@buildbox", "the real laptop.")
	require.NoError(t, err)
	assert.NotContains(t, buildbox.waitTyped("bob", "the real laptop."), "FORGED")
	b, err := os.ReadFile(known)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(b), "laptop "), "nothing pinned over the known key")
}
