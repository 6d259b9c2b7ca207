package hub_test

import (
	"net"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/peer"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// endedPeers is a listener in front of the hub (as a session server's is) whose
// connections come with their client's process held, then let go: as if the process
// that connected had ended, its connection handed to another.
type endedPeers struct{ net.Listener }

type heldConn struct {
	net.Conn
	proc *peer.Process
}

func (c heldConn) Peer() *peer.Process { return c.proc }

func (l endedPeers) Accept() (net.Conn, error) {
	nc, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	p := peer.Hold(nc)
	p.Close()
	return heldConn{nc, p}, nil
}

// A connection whose client process ended after it connected is not the person's,
// whatever process has its number when its HELLO comes: a pane's program that handed
// its connection on and waited for the person's shell to take its number would
// otherwise pass for the person.
func TestAClientThatEndedIsNotThePerson(t *testing.T) {
	dir := t.TempDir()
	name, l, err := dirs.Claim(dir, "test")
	require.NoError(t, err)
	st, err := store.Open(filepath.Join(t.TempDir(), "agentmux.db"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	h, err := hub.Start(hub.Config{Session: name, Store: st, Core: newFakeCore("claude", "codex")}, endedPeers{l})
	require.NoError(t, err)
	t.Cleanup(func() { h.Close() })

	c, err := client.DialPane(dirs.SocketPath(dir, name), "")
	require.NoError(t, err)
	defer c.Raw().Close()
	_, err = deadline(c).Request(proto.TypeAnswer, proto.Answer{A: "claude", Option: "yes"})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "a process that ended after it connected")
}
