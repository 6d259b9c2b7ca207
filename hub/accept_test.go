// The accept loop through a spell of "too many open files": a child process (this test
// binary run again) serves a hub with its file descriptors limited and used up, the parent
// connects, and the child frees its descriptors when the hub logs that accepting fails.
// The connection must then be served: the parent's HELLO gets WELCOME. The log line is the
// synchronisation; the parent's handshake deadline fails a hub that gave up.
package hub_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/fdtest"
	"github.com/agentmux/agentmux/proto"
)

func TestAcceptSurvivesOutOfFileDescriptors(t *testing.T) {
	if os.Getenv(fdtest.ChildEnv) != "" {
		sp := fdtest.NewSpell()
		e := start(t, nil, "", func(c *hub.Config) { c.Logger = sp.Logger() })
		sp.Exhaust(t)
		sp.Serve(e.path)
		return
	}
	path, out := fdtest.Child(t, "TestAcceptSurvivesOutOfFileDescriptors", "1")
	c, err := client.Dial(path, proto.Hello{Agent: "after-emfile", Capabilities: proto.Capabilities{Ack: true}})
	require.NoError(t, err, "the socket must serve again once descriptors are free")
	c.Raw().Close()
	line, _ := out.ReadString('\n')
	require.Equal(t, fdtest.Logged, line, "the spell must be logged")
}
