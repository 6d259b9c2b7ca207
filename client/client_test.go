package client

import (
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/dirs"
)

// silentSocket listens at a new socket and accepts connections without a word; it closes
// them when the test ends.
func silentSocket(t *testing.T) string {
	t.Helper()
	return silentSocketAt(t, filepath.Join(t.TempDir(), "s.sock"))
}

// silentSocketAt is silentSocket at path.
func silentSocketAt(t *testing.T, path string) string {
	t.Helper()
	l, err := net.Listen("unix", path)
	require.NoError(t, err)
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return path
}

// A socket that accepts and says nothing (no session, a hung one) is an error within the
// handshake's deadline, not a hang of send, ls or hook.
func TestHandshakeDeadline(t *testing.T) {
	old := handshakeTimeout
	handshakeTimeout = 200 * time.Millisecond
	defer func() { handshakeTimeout = old }()
	path := silentSocket(t)
	errc := make(chan error, 1)
	go func() {
		_, err := DialControl(path)
		errc <- err
	}()
	select {
	case err := <-errc:
		require.Error(t, err)
		assert.Contains(t, err.Error(), "no answer to HELLO within 200ms")
	case <-time.After(5 * time.Second):
		t.Fatal("the handshake hangs on a socket that says nothing")
	}
}

// A client connects only to a socket of its own user, in a folder nobody else can write:
// whoever listens there gets the person's words.
func TestRefusesSocketsOfOthers(t *testing.T) {
	path := silentSocket(t)
	require.NoError(t, checkSocket(path))

	t.Run("socket of another user", func(t *testing.T) {
		old := ownUID
		ownUID = old + 1 // as another user would see it
		defer func() { ownUID = old }()
		_, err := DialRaw(path)
		assert.ErrorContains(t, err, "belongs to user")
		assert.ErrorContains(t, err, "refused")
	})
	if os.Getuid() == 0 {
		t.Run("socket chowned to nobody", func(t *testing.T) {
			other := silentSocket(t)
			require.NoError(t, os.Lchown(other, 65534, 65534))
			_, err := DialRaw(other)
			assert.ErrorContains(t, err, "belongs to user 65534")
		})
	}
	t.Run("symlink to a socket", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link.sock")
		require.NoError(t, os.Symlink(path, link))
		_, err := DialRaw(link)
		assert.ErrorContains(t, err, "not a socket")
	})
	t.Run("folder others can write", func(t *testing.T) {
		dir := filepath.Dir(path)
		require.NoError(t, os.Chmod(dir, 0o777))
		defer os.Chmod(dir, 0o700)
		_, err := DialRaw(path)
		assert.ErrorContains(t, err, "can be written by other users")
	})
	t.Run("not a socket", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file.sock")
		require.NoError(t, os.WriteFile(f, nil, 0o600))
		_, err := DialRaw(f)
		assert.ErrorContains(t, err, "not a socket")
	})
}

// A session is found by its name in any case, as attach finds it.
func TestSocketFoldsTheSessionsCase(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_SESSION", "")
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	silentSocketAt(t, dirs.SocketPath(dir, "MyS"))
	for _, name := range []string{"MyS", "mys", "MYS"} {
		p, err := Socket(name)
		if assert.NoError(t, err, name) {
			assert.Equal(t, dirs.SocketPath(dir, "MyS"), p, name)
		}
	}
	_, err = Socket("other")
	assert.ErrorContains(t, err, `no session "other"`)
}
