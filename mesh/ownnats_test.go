package mesh_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/proto"
)

// A team's own NATS server (JetStream on, nkey users, no agentmux hub) works too: each
// session logs in with its nkey seed (--mesh-nkey), which signs its messages too, into
// the stream the administrator made for it. Each user has the permissions
// docs/mesh-security.md tells a team to grant, no more: they are enough, and they let
// no session make a stream (one that took amux.whois.> would read every session's who
// answers); a session whose stream is missing says so.
func TestATeamsOwnNATSServer(t *testing.T) {
	seed := func(name string) (string, string) {
		kp, err := nkeys.CreateUser()
		require.NoError(t, err)
		pub, err := kp.PublicKey()
		require.NoError(t, err)
		s, err := kp.Seed()
		require.NoError(t, err)
		p := filepath.Join(t.TempDir(), name+".nk")
		require.NoError(t, os.WriteFile(p, s, 0o600))
		return pub, p
	}
	lpub, lseed := seed("laptop")
	bpub, bseed := seed("buildbox")
	mpub, mseed := seed("mallory")
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
		Nkeys: []*server.NkeyUser{{Nkey: lpub, Permissions: teamPermissions("laptop")}, {Nkey: bpub, Permissions: teamPermissions("buildbox")},
			{Nkey: mpub, Permissions: teamPermissions("mallory")}},
		Users: []*server.User{{Username: "admin", Password: "admin-secret"}},
	})
	require.NoError(t, err)
	srv.Start()
	defer func() { srv.Shutdown(); srv.WaitForShutdown() }()
	require.True(t, srv.ReadyForConnections(10*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	admin, err := nats.Connect(srv.ClientURL(), nats.UserInfo("admin", "admin-secret"))
	require.NoError(t, err)
	defer admin.Close()
	ajs, err := jetstream.New(admin)
	require.NoError(t, err)
	for _, s := range []string{"laptop", "buildbox"} {
		_, err := ajs.CreateStream(ctx, mesh.TeamStream(s))
		require.NoError(t, err)
	}

	// mallory has no stream: joining says so, and it may make none, on any subjects.
	_, err = mesh.Dial(mesh.Options{URL: srv.ClientURL(), Session: "mallory", NkeyFile: mseed, Store: openStore(t), Timeout: 5 * time.Second})
	require.ErrorContains(t, err, "stream AMUX_mallory is not on the server")
	opt, err := nats.NkeyOptionFromSeed(mseed)
	require.NoError(t, err)
	mnc, err := nats.Connect(srv.ClientURL(), opt, nats.CustomInboxPrefix("_INBOX_mallory"))
	require.NoError(t, err)
	defer mnc.Close()
	mjs, err := jetstream.New(mnc)
	require.NoError(t, err)
	_, err = mjs.CreateStream(ctx, jetstream.StreamConfig{Name: "AMUX_mallory", Subjects: []string{"amux.mallory.>", "amux.whois.>"}})
	require.Error(t, err, "mallory made a stream taking every session's who answers")

	join := func(name, nkey string, core hub.Core) *mesh.Node {
		n, err := mesh.Join(mesh.Options{URL: srv.ClientURL(), Session: name, NkeyFile: nkey, Store: openStore(t), Core: core, Timeout: 5 * time.Second})
		require.NoError(t, err)
		t.Cleanup(n.Close)
		return n
	}
	sink := &sinkCore{got: make(chan string, 1)}
	join("buildbox", bseed, sink)
	laptop := join("laptop", lseed, &sinkCore{got: make(chan string, 1)})
	_, err = laptop.Send("alice", "bob", "buildbox", "through your NATS", proto.SendOptions{})
	require.NoError(t, err)
	select {
	case got := <-sink.got:
		assert.Equal(t, "through your NATS", got)
	case <-time.After(20 * time.Second):
		t.Fatal("the message never arrived")
	}
	_, err = mesh.Dial(mesh.Options{URL: srv.ClientURL(), Session: "mallory", Store: openStore(t), Timeout: 5 * time.Second})
	assert.ErrorContains(t, err, "refused", "no nkey, no entry")
}

// teamPermissions is the permissions block of docs/mesh-security.md for session.
func teamPermissions(session string) *server.Permissions {
	own := "AMUX_" + session + "." + session
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			"amux.*.msg." + session, "amux.*.ph." + session, "amux.*.ln." + session,
			"amux.who.*", "amux.whois.*." + session + ".*",
			"$JS.API.INFO", "$JS.API.STREAM.NAMES",
			"$JS.API.STREAM.INFO.AMUX_" + session,
			"$JS.API.CONSUMER.CREATE." + own, "$JS.API.CONSUMER.CREATE." + own + ".>",
			"$JS.API.CONSUMER.DURABLE.CREATE." + own,
			"$JS.API.CONSUMER.INFO." + own, "$JS.API.CONSUMER.MSG.NEXT." + own,
			"$JS.API.CONSUMER.DELETE." + own,
			"$JS.ACK." + own + ".>",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX_" + session + ".>", "amux.who." + session, "amux.whois." + session + ".>"}},
	}
}
