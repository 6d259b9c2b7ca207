package peer

// The credentials are read from real sockets: a connection this process makes to itself,
// and one made by a copy of this test binary run as another user (when the tests run as
// root, which may start one). The path of a system that names the user alone (FreeBSD
// before 13, say) runs here too, through readCred.

import (
	"bufio"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dialEnv makes the test binary a client: it connects to the socket the variable
// names, prints "connected", and exits once the server closes the connection.
const dialEnv = "AGENTMUX_PEER_TEST_DIAL"

// handoffEnv makes a dialing copy hand its connection to a copy of its own (which
// holds it until the server closes it), print "connected", and exit when its stdin
// gives a line: the client that connected ends while its connection lives on.
const handoffEnv = "AGENTMUX_PEER_TEST_HANDOFF"

func TestMain(m *testing.M) {
	if os.Getenv(handoffEnv) == "hold" {
		_, _ = io.Copy(io.Discard, os.NewFile(3, "conn"))
		os.Exit(0)
	}
	if path := os.Getenv(dialEnv); path != "" && os.Getenv(handoffEnv) == "1" {
		c, err := net.Dial("unix", path)
		if err != nil {
			os.Exit(2)
		}
		f, err := c.(*net.UnixConn).File()
		if err != nil {
			os.Exit(2)
		}
		self, _ := os.Executable()
		holder := exec.Command(self)
		holder.Env = append(os.Environ(), handoffEnv+"=hold")
		holder.ExtraFiles = []*os.File{f}
		if holder.Start() != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString("connected\n")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(0)
	}
	if path := os.Getenv(dialEnv); path != "" {
		c, err := net.Dial("unix", path)
		if err != nil {
			os.Stdout.WriteString("dial: " + err.Error() + "\n")
			os.Exit(2)
		}
		os.Stdout.WriteString("connected\n")
		_, _ = io.Copy(io.Discard, c)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// uidOnly stands in for a system whose kernel names the peer's user alone, for the
// rest of the test.
func uidOnly(t *testing.T) {
	t.Cleanup(func() { readCred = credOf })
	readCred = func(fd int) (Cred, error) {
		c, err := credOf(fd)
		c.PID = 0
		return c, err
	}
}

// pair returns both ends of a connection this process made to itself over l.
func pair(t *testing.T, l net.Listener) (client, server net.Conn) {
	t.Helper()
	c, err := net.Dial("unix", l.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	s, err := l.Accept()
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return c, s
}

func listen(t *testing.T, dir string) net.Listener {
	t.Helper()
	l, err := net.Listen("unix", filepath.Join(dir, "s"))
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	return l
}

// The peer of a connection this process made to itself is this process, run by this
// user; a connection that is no socket is unknown.
func TestOfOurOwnConnection(t *testing.T) {
	_, s := pair(t, listen(t, t.TempDir()))
	c, err := Of(s)
	require.NoError(t, err)
	assert.Equal(t, Cred{UID: os.Geteuid(), PID: os.Getpid()}, c)
	assert.True(t, c.Trusted())
	assert.Equal(t, os.Getpid(), PID(s))

	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	_, err = Of(a)
	assert.Error(t, err)
	assert.Zero(t, PID(a), "a pipe has no peer")
}

// Where the kernel names the user alone, the user is still known and the process is 0:
// the checks that look for the client's process find none.
func TestOfWhereOnlyTheUserIsKnown(t *testing.T) {
	uidOnly(t)
	_, s := pair(t, listen(t, t.TempDir()))
	c, err := Of(s)
	require.NoError(t, err)
	assert.Equal(t, Cred{UID: os.Geteuid()}, c)
	assert.Zero(t, PID(s))
}

func TestTrusted(t *testing.T) {
	assert.True(t, Cred{UID: os.Geteuid()}.Trusted())
	assert.True(t, Cred{UID: 0}.Trusted(), "root")
	assert.False(t, Cred{UID: os.Geteuid() + 12345}.Trusted())
}

// A client of another user reaches the socket (its folder and the socket itself are
// open to all here, as a misconfigured runtime folder would be) and is closed at once;
// the next client, of this user, is taken. Both with the process known and without.
func TestOwnUserRefusesAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can run a client as another user")
	}
	t.Run("user and process", func(t *testing.T) { refusesAnotherUser(t) })
	t.Run("user alone", func(t *testing.T) { uidOnly(t); refusesAnotherUser(t) })
}

func refusesAnotherUser(t *testing.T) {
	dir, err := os.MkdirTemp("", "peer-test-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	l := listen(t, dir)
	require.NoError(t, os.Chmod(filepath.Join(dir, "s"), 0o777))

	// A copy of this binary that the other user may run.
	self, err := os.Executable()
	require.NoError(t, err)
	bin := filepath.Join(dir, "client")
	b, err := os.ReadFile(self)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bin, b, 0o755))

	refused := make(chan error, 4)
	own := OwnUser(l, func(err error) { refused <- err })
	accepted := make(chan net.Conn, 1)
	go func() {
		nc, err := own.Accept()
		if err == nil {
			accepted <- nc
		}
		close(accepted)
	}()

	const nobody = 65534
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), dialEnv+"="+filepath.Join(dir, "s"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	require.Equal(t, "connected\n", line, "the other user reached the socket")
	select {
	case err := <-refused:
		assert.Contains(t, err.Error(), "user 65534")
	case nc := <-accepted:
		t.Fatalf("the other user's connection was taken: %v", nc)
	case <-time.After(10 * time.Second):
		t.Fatal("the other user's connection was neither refused nor taken")
	}
	require.NoError(t, cmd.Wait(), "the other user's client ends once its connection is closed")
	select {
	case nc := <-accepted:
		t.Fatalf("a connection was taken: %v", nc)
	default:
	}

	mine, err := net.Dial("unix", filepath.Join(dir, "s"))
	require.NoError(t, err)
	defer mine.Close()
	select {
	case nc, ok := <-accepted:
		require.True(t, ok, "this user's connection was refused: %v", drain(refused))
		defer nc.Close()
		assert.Equal(t, os.Geteuid(), mustOf(t, nc).UID)
	case <-time.After(10 * time.Second):
		t.Fatal("this user's connection was not taken")
	}
}

func mustOf(t *testing.T, nc net.Conn) Cred {
	t.Helper()
	c, err := Of(nc)
	require.NoError(t, err)
	return c
}

// drain is what refused holds now, for a failure's message.
func drain(refused chan error) string {
	var out []string
	for {
		select {
		case err := <-refused:
			out = append(out, err.Error())
		default:
			return strings.Join(out, "; ")
		}
	}
}
