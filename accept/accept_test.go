// Tests of the backoff with a listener that fails as told: a spell of temporary failures
// ends in the connection, logged once when it starts and once when it ends; a permanent
// failure and Quit end Accept. The real spell (a process out of descriptors) is tested
// where the loops run, in hub and server.
package accept

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failing fails Accept with errs in turn, then returns conn.
type failing struct {
	net.Listener
	errs  []error
	calls int
	conn  net.Conn
}

func (f *failing) Accept() (net.Conn, error) {
	f.calls++
	if len(f.errs) > 0 {
		err := f.errs[0]
		f.errs = f.errs[1:]
		return nil, err
	}
	return f.conn, nil
}

func TestSpellEndsInTheConnectionLoggedOnce(t *testing.T) {
	a1, a2 := net.Pipe()
	defer a1.Close()
	defer a2.Close()
	emfile := &net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	f := &failing{errs: []error{emfile, emfile, emfile, emfile, emfile, emfile, emfile, emfile}, conn: a1}
	var logs bytes.Buffer
	a := Loop{L: f, Quit: make(chan struct{}), Logger: slog.New(slog.NewTextHandler(&logs, nil)), Name: "test"}
	nc, err := a.Accept()
	require.NoError(t, err)
	assert.Equal(t, a1, nc)
	assert.Equal(t, 9, f.calls, "one try per backoff, no busy loop")
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	require.Len(t, lines, 2, "one line when the spell starts, one when it ends:\n%s", logs.String())
	assert.Contains(t, lines[0], "too many open files")
	assert.Contains(t, lines[1], "failures=8")
	assert.Zero(t, a.delay, "a success resets the backoff")
}

func TestBackoffDoublesToItsCap(t *testing.T) {
	a := Loop{Quit: make(chan struct{})}
	var got []string
	for range 10 {
		got = append(got, fmt.Sprint(a.next()))
	}
	assert.Equal(t, []string{"5ms", "10ms", "20ms", "40ms", "80ms", "160ms", "320ms", "640ms", "1s", "1s"}, got)
}

func TestPermanentFailureAndQuitEndAccept(t *testing.T) {
	f := &failing{errs: []error{errors.New("broken")}}
	_, err := (&Loop{L: f, Quit: make(chan struct{})}).Accept()
	assert.EqualError(t, err, "broken")

	f = &failing{errs: []error{net.ErrClosed}}
	_, err = (&Loop{L: f, Quit: make(chan struct{})}).Accept()
	assert.ErrorIs(t, err, net.ErrClosed)

	quit := make(chan struct{})
	close(quit)
	f = &failing{errs: []error{syscall.EMFILE}}
	_, err = (&Loop{L: f, Quit: quit}).Accept()
	assert.ErrorIs(t, err, net.ErrClosed)
}

func TestTemporary(t *testing.T) {
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED} {
		assert.True(t, Temporary(&net.OpError{Op: "accept", Err: os.NewSyscallError("accept4", e)}), "%v", e)
	}
	assert.False(t, Temporary(net.ErrClosed))
	assert.False(t, Temporary(syscall.EBADF))
}
