package web

// Connections that show no key, as another local user would open them by the hundred:
// each is read from the client's side until the server closes it, so every wait is on
// the server's own act (an EOF), bounded by a deadline. Past MaxUnauthenticated they
// are closed as soon as they are accepted; the rest end with the header, idle and key
// timeouts; a page that showed its key no longer counts.

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// closedWithin reads c until the server closes it; false when it stays open past d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

func TestUnauthenticatedConnectionsBounded(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	const n = 200
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.Dial("tcp", r.srv.Addr())
		require.NoError(t, err)
		defer c.Close()
		conns[i] = c
	}
	// Those past the limit are closed at once; the others stay until the header
	// timeout.
	closed := make(chan bool, n)
	for _, c := range conns {
		go func() { closed <- closedWithin(c, ReadHeaderTimeout/2) }()
	}
	early := 0
	for range n {
		if <-closed {
			early++
		}
	}
	assert.Equal(t, n-MaxUnauthenticated, early, "connections closed at once")
	assert.Equal(t, MaxUnauthenticated, r.srv.Unauthenticated(), "connections held")
	for _, c := range conns {
		go func() { closed <- closedWithin(c, 3*ReadHeaderTimeout) }()
	}
	for range n {
		assert.True(t, <-closed, "a connection that sent no request outlived the header timeout")
	}
	assert.Zero(t, r.srv.Unauthenticated(), "connections held after the timeout")

	// The view still opens a page once the flood is over.
	conn, _, err := r.dial("http://" + r.srv.Addr())
	require.NoError(t, err)
	defer conn.CloseNow()
	frameOf(t, conn, "members")
	assert.Zero(t, r.srv.Unauthenticated(), "a page that showed its key is not counted")
}

// A kept-alive connection is closed once idle, and a WebSocket that shows no key in
// time is closed too.
func TestIdleAndKeylessConnectionsClosed(t *testing.T) {
	r := newRig(t, Options{idleTimeout: 200 * time.Millisecond, authTimeout: 200 * time.Millisecond}, "alice")
	c, err := net.Dial("tcp", r.srv.Addr())
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, "GET /style.css HTTP/1.1\r\nHost: "+r.srv.Addr()+"\r\n\r\n")
	require.NoError(t, err)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, closedWithin(c, 10*time.Second), "an idle kept-alive connection stayed open")

	conn, _, err := r.dialAuth("http://"+r.srv.Addr(), "")
	require.NoError(t, err)
	defer conn.CloseNow()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err = conn.Read(ctx)
	require.Error(t, err)
	assert.NotErrorIs(t, err, context.DeadlineExceeded, "a WebSocket that showed no key in time stayed open")
	assert.Zero(t, r.srv.Unauthenticated())
}
