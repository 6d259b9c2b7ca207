package mesh_test

// Strategy: a session logs in to an agentmux hub by signing the hub's nonce with its
// key, never by sending a secret: a program that holds the hub's address while the hub
// is down (another local user on the loopback port) reads nothing it could log in
// with. The hub takes a signature by the session's own key only, of its own nonce.

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/mesh"
)

// squat listens where a hub would and returns the CONNECT the first client sends it,
// after an INFO carrying nonce.
func squat(t *testing.T, nonce string) (string, <-chan map[string]any) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	got := make(chan map[string]any, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = c.Write([]byte(`INFO {"server_id":"x","version":"2.10.0","proto":1,"headers":true,"max_payload":1048576,"nonce":"` + nonce + `"}` + "\r\n"))
		line, _ := bufio.NewReader(c).ReadString('\n')
		var m map[string]any
		_ = json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(line), "CONNECT ")), &m)
		got <- m
	}()
	return "nats://" + l.Addr().String(), got
}

func TestALoginSendsNoSecret(t *testing.T) {
	th := startHub(t)
	creds := th.creds("buildbox")
	url, got := squat(t, "squatters-nonce")
	_, _ = mesh.Dial(mesh.Options{URL: url, Session: "buildbox", CredsFile: creds, Store: openStore(t), Timeout: 2 * time.Second})
	var connect map[string]any
	select {
	case connect = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("no CONNECT")
	}
	pass, err := mesh.SessionPassword(th.dir, "buildbox")
	require.NoError(t, err)
	assert.NotContains(t, connect, "pass", "the session sent a password")
	b, _ := json.Marshal(connect)
	assert.NotContains(t, string(b), pass)
	pub, err := mesh.PublicKey(creds, false)
	require.NoError(t, err)
	assert.Equal(t, pub, connect["nkey"], "it proves itself by its key")
	assert.Equal(t, "buildbox", connect["user"])

	// What it sent logs in to nothing: the hub asks another nonce.
	nc, err := nats.Connect(th.url, nats.UserInfo("buildbox", ""), nats.Nkey(pub, func([]byte) ([]byte, error) {
		return base64.RawURLEncoding.DecodeString(connect["sig"].(string))
	}), nats.NoReconnect())
	if err == nil {
		nc.Close()
	}
	require.ErrorIs(t, err, nats.ErrAuthorization, "a signature of the squatter's nonce logged in")

	// The hub takes the session's own key only, and still its password (older sessions).
	other, err := nkeys.CreateUser()
	require.NoError(t, err)
	opub, _ := other.PublicKey()
	nc, err = nats.Connect(th.url, nats.UserInfo("buildbox", ""), nats.Nkey(opub, other.Sign), nats.NoReconnect())
	if err == nil {
		nc.Close()
	}
	require.ErrorIs(t, err, nats.ErrAuthorization, "another key logged in as buildbox")
	nc, err = nats.Connect(th.url, nats.UserInfo("buildbox", pass), nats.NoReconnect())
	require.NoError(t, err, "a session of an older agentmux, with its password")
	nc.Close()
	n, err := mesh.Dial(mesh.Options{URL: th.url, Session: "buildbox", CredsFile: creds, Store: openStore(t), Timeout: 5 * time.Second})
	require.NoError(t, err, "by its key")
	n.Close()
}
