package peer

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"

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

// emfileEnv makes the test binary hold a connection of its own with no file
// descriptor left, print what Alive says, and exit.
const emfileEnv = "AGENTMUX_PEER_TEST_EMFILE"

func init() {
	if os.Getenv(emfileEnv) != "" {
		os.Stdout.WriteString(holdWithoutDescriptors() + "\n")
		os.Exit(0)
	}
}

// holdWithoutDescriptors is the child's side of TestHoldWithoutDescriptorsFailsClosed.
func holdWithoutDescriptors() string {
	dir, err := os.MkdirTemp("", "peer-emfile-")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(dir)
	l, err := net.Listen("unix", dir+"/s")
	if err != nil {
		return err.Error()
	}
	c, err := net.Dial("unix", l.Addr().String())
	if err != nil {
		return err.Error()
	}
	defer c.Close()
	s, err := l.Accept()
	if err != nil {
		return err.Error()
	}
	if os.Getenv(emfileEnv) == "old" {
		peerPIDFD = false
	}
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: 64, Max: 64}); err != nil {
		return err.Error()
	}
	for {
		if _, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0); err != nil {
			break // EMFILE: none left
		}
	}
	p := Hold(s)
	return fmt.Sprintf("pid=%v alive=%v", p.PID == os.Getpid(), p.Alive())
}

// A client held while this process is out of file descriptors (one that opened
// connections until none was left, say) is not taken as alive unheld: were it, its
// process id could be read later and name another process.
func TestHoldWithoutDescriptorsFailsClosed(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	for _, kernel := range []string{"new", "old"} {
		cmd := exec.Command(self, "-test.run=^$")
		cmd.Env = append(os.Environ(), emfileEnv+"="+kernel)
		out, err := cmd.Output()
		require.NoError(t, err, kernel)
		assert.Equal(t, "pid=true alive=false\n", string(out), kernel)
	}
}
