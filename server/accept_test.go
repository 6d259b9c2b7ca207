// The demux's accept loop through a spell of "too many open files": a child process (this
// test binary run again) sorts a socket's connections with its file descriptors limited
// and used up; the parent connects and sends a frame the hub would take; the child frees
// its descriptors when the demux logs that accepting fails, and must then hand the
// connection on: the child answers "taken" on it. The log line is the synchronisation;
// the parent's read deadline fails a demux that gave up.
package server

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/internal/fdtest"
	"github.com/agentmux/agentmux/peer"
	"github.com/agentmux/agentmux/proto"
)

func TestDemuxSurvivesOutOfFileDescriptors(t *testing.T) {
	if path := os.Getenv(fdtest.ChildEnv); path != "" {
		sp := fdtest.NewSpell()
		l, err := net.Listen("unix", path)
		require.NoError(t, err)
		d := newDemux(l, func(nc net.Conn, _ *proto.Envelope, p *peer.Process) { nc.Close(); p.Close() }, sp.Logger())
		defer d.Close()
		go func() {
			for {
				c, err := d.Accept()
				if err != nil {
					return
				}
				c.Write([]byte("taken\n"))
			}
		}()
		sp.Exhaust(t)
		sp.Serve(path)
		return
	}
	path, out := fdtest.Child(t, "TestDemuxSurvivesOutOfFileDescriptors", filepath.Join(t.TempDir(), "s.sock"))
	nc, err := net.Dial("unix", path)
	require.NoError(t, err)
	defer nc.Close()
	require.NoError(t, proto.WriteFrame(nc, []byte(`{"v":1,"type":"HELLO"}`)))
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, err := bufio.NewReader(nc).ReadString('\n')
	require.NoError(t, err, "the socket must serve again once descriptors are free")
	require.Equal(t, "taken\n", got)
	line, _ := out.ReadString('\n')
	require.Equal(t, fdtest.Logged, line, "the spell must be logged")
}
