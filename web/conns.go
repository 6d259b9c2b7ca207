package web

import (
	"context"
	"crypto/tls"
	"net"
	"sync/atomic"
	"time"
)

// Connections that have not shown a key cost the server a file descriptor each and
// are anyone's to open: any local user can connect to a loopback port. They are held
// to MaxUnauthenticated at once (more are closed as soon as they are accepted), and
// each lives only as long as the server's timeouts let it: ReadHeaderTimeout for a
// request's headers, IdleTimeout between requests on a kept-alive connection,
// AuthTimeout for a WebSocket's first frame. A page that showed its key no longer
// counts (MaxPages bounds those).

// MaxUnauthenticated bounds the connections open at once that have not shown a key.
const MaxUnauthenticated = 64

// The server's timeouts for connections that have not shown a key.
const (
	ReadHeaderTimeout = 5 * time.Second
	IdleTimeout       = 30 * time.Second
)

// gate is the server's listener: it counts the connections that have not shown a key
// and closes new ones past the limit.
type gate struct {
	net.Listener
	limit   int32
	open    atomic.Int32 // connections accepted that have not shown a key and are open
	refused atomic.Int64 // connections closed at once for the limit
	warn    func(refused int64)
}

// Accept returns the next connection within the limit; those past it are closed.
func (g *gate) Accept() (net.Conn, error) {
	for {
		c, err := g.Listener.Accept()
		if err != nil {
			return nil, err // net/http retries temporary errors (EMFILE) with a backoff
		}
		if g.open.Add(1) > g.limit {
			g.open.Add(-1)
			c.Close()
			if n := g.refused.Add(1); g.warn != nil && (n == 1 || n%1000 == 0) {
				g.warn(n)
			}
			continue
		}
		gc := &gatedConn{Conn: c, g: g}
		gc.counted.Store(true)
		return gc, nil
	}
}

// gatedConn is an accepted connection, counted by its gate until it shows a key or
// closes.
type gatedConn struct {
	net.Conn
	g       *gate
	counted atomic.Bool
}

// trusted stops counting c: it showed a key.
func (c *gatedConn) trusted() {
	if c.counted.CompareAndSwap(true, false) {
		c.g.open.Add(-1)
	}
}

// Close closes the connection and stops counting it.
func (c *gatedConn) Close() error {
	c.trusted()
	return c.Conn.Close()
}

// connKey is the request context's key for its connection (http.Server.ConnContext).
type connKey struct{}

// withConn keeps c in ctx for the handler that authenticates it.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// trust stops counting the connection of a request's context: its page showed a key.
func trust(ctx context.Context) {
	c, _ := ctx.Value(connKey{}).(net.Conn)
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	if gc, ok := c.(*gatedConn); ok {
		gc.trusted()
	}
}

// Unauthenticated is how many connections are open that have not shown a key.
func (s *Server) Unauthenticated() int { return int(s.gate.open.Load()) }
