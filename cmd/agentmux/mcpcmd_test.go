package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A line that is no JSON-RPC message gets JSON-RPC's parse error and is dropped; the
// lines around it reach the server whole, in order.
func TestMCPInputLines(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\nnot json\n\n123\n[{\"jsonrpc\":\"2.0\",\"id\":2}]\n{\"jsonrpc\":\"2.0\",\"id\":3}")
	got, err := io.ReadAll(jsonLines(in, &lockedWriter{w: &out}))
	require.NoError(t, err)
	assert.Equal(t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n[{\"jsonrpc\":\"2.0\",\"id\":2}]\n{\"jsonrpc\":\"2.0\",\"id\":3}\n", string(got))
	assert.Equal(t, 2, strings.Count(out.String(), `"code":-32700`), "one parse error for each bad line: %s", out.String())
}
