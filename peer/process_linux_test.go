package peer

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withoutPeerPIDFD runs the rest of the test as on a kernel without SO_PEERPIDFD.
func withoutPeerPIDFD(t *testing.T) {
	t.Cleanup(func() { peerPIDFD = true })
	peerPIDFD = false
}

// A process held from a connection is the one that connected: once it ends, Alive says
// so though its connection lives on in another process (which could then wait for a
// process of the person's to take the number and pass for it, were the number read
// again later), and so does a Hold taken after it ended.
func TestHoldTellsTheConnectingProcessEnded(t *testing.T) {
	t.Run("as it connected", holdTellsTheConnectingProcessEnded)
	// Linux before 6.5 (pidfd_open of the number, as soon as asked)
	t.Run("by its number", func(t *testing.T) { withoutPeerPIDFD(t); holdTellsTheConnectingProcessEnded(t) })
}

func holdTellsTheConnectingProcessEnded(t *testing.T) {
	l := listen(t, t.TempDir())
	self, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), dialEnv+"="+l.Addr().String(), handoffEnv+"=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "connected\n", line)
	s, err := l.Accept()
	require.NoError(t, err)
	defer s.Close() // the holder then ends

	p := Hold(s)
	defer p.Close()
	assert.Equal(t, cmd.Process.Pid, p.PID)
	assert.True(t, p.Alive(), "the client runs")
	_, err = stdin.Write([]byte("\n"))
	require.NoError(t, err)
	require.NoError(t, cmd.Wait())
	assert.False(t, p.Alive(), "the client ended: its number may be another's")
	late := Hold(s)
	defer late.Close()
	assert.Equal(t, cmd.Process.Pid, late.PID)
	assert.False(t, late.Alive(), "held after the client ended")

	_, own := pair(t, l)
	me := Hold(own)
	assert.True(t, me.Alive())
	me.Close()
	assert.False(t, me.Alive(), "let go: it can no longer tell")
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	assert.True(t, Hold(a).Alive(), "no process to hold: cannot tell")
}
