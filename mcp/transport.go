package mcp

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// watchedTransport is a transport whose connection closes gone once reading from the
// client fails (it closed its side): the SDK lets calls in flight finish before its
// Run returns, and a wait would otherwise hold the process for up to MaxWait after
// its client left.
type watchedTransport struct {
	sdk.Transport
	gone chan struct{}
	once *sync.Once
}

func (t watchedTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return watchedConn{Connection: c, t: t}, nil
}

type watchedConn struct {
	sdk.Connection
	t watchedTransport
}

func (c watchedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err != nil {
		c.t.once.Do(func() { close(c.t.gone) })
	}
	return m, err
}

func (c watchedConn) Close() error {
	c.t.once.Do(func() { close(c.t.gone) })
	return c.Connection.Close()
}
