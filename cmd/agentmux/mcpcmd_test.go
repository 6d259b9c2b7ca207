package main

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A line that is no JSON-RPC message gets JSON-RPC's parse error and is dropped; the
// lines around it reach the server whole, in order.
func TestMCPInputLines(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\nnot json\n\n123\n[{\"jsonrpc\":\"2.0\",\"id\":2}]\n{\"jsonrpc\":\"2.0\",\"id\":3}")
	calls := newInflight()
	w := &lockedWriter{w: &out, calls: calls}
	r := bufio.NewReader(jsonLines(in, w, calls, func() {}))
	first, err := r.ReadString('\n')
	require.NoError(t, err)
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n")) // the server answers it
	rest, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n[{\"jsonrpc\":\"2.0\",\"id\":2}]\n{\"jsonrpc\":\"2.0\",\"id\":3}\n", first+string(rest))
	assert.Equal(t, 2, strings.Count(out.String(), `"code":-32700`), "one parse error for each bad line: %s", out.String())
}

// A client that writes its calls and closes its input (a script, a pipe) still gets
// every answer: the server's input ends once the calls read were answered, and calls
// waiting are told the client left (gone) when it did.
func TestMCPInputEndsOnceAnswered(t *testing.T) {
	var out bytes.Buffer
	calls := newInflight()
	w := &lockedWriter{w: &out, calls: calls}
	gone := make(chan struct{})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":"a","method":"tools/call"}` + "\n" +
		`[{"jsonrpc":"2.0","id":7,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n")
	r := bufio.NewReader(jsonLines(in, w, calls, func() { close(gone) }))
	for range 2 {
		_, err := r.ReadString('\n')
		require.NoError(t, err)
	}
	<-gone
	ended := make(chan error, 1)
	go func() { _, err := r.ReadByte(); ended <- err }()
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n"))
	select {
	case err := <-ended:
		t.Fatalf("the input ended (%v) with call \"a\" unanswered", err)
	case <-time.After(100 * time.Millisecond): // a check that it does not end, not a wait
	}
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"x"}}` + "\n"))
	assert.ErrorIs(t, <-ended, io.EOF, "answered: the input ends")
}
