package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/mcp"
)

// mcpCommand is `agentmux mcp`: the session as an MCP server on stdio (package mcp).
func mcpCommand() command {
	return command{name: "mcp", short: "an MCP server on stdio: the session's tools", flags: []flagSpec{sessionNameFlag}, exec: runMCP, synopsis: `agentmux mcp [--session NAME]`, help: `An MCP server on stdin and stdout for an agent CLI: the session's tools (members, send,
wait, read, history, capture) for the agent to call. Run in a pane it speaks for that
pane (its messages come from it); elsewhere for you. Every rule of the session socket
holds. agentmux --mcp gives it to each supported agent CLI it starts; docs/mcp.md shows
how to register it by hand.`}
}

// runMCP serves MCP on sio until the client closes its side or ctx ends.
func runMCP(ctx context.Context, a clientArgs, sio stdio) (int, error) {
	path, err := client.Socket(a.session)
	if err != nil {
		return 1, fmt.Errorf("agentmux mcp: %w", err)
	}
	srv, err := mcp.New(mcp.Options{Socket: path, Version: versionString()})
	if err != nil {
		return 1, fmt.Errorf("agentmux mcp: %w", err)
	}
	defer srv.Close()
	out := &lockedWriter{w: sio.out}
	t := &sdk.IOTransport{Reader: io.NopCloser(jsonLines(sio.in, out)), Writer: nopWriteCloser{out}}
	if err := srv.Run(ctx, t); err != nil {
		return 1, fmt.Errorf("agentmux mcp: %w", err)
	}
	return 0, nil
}

// jsonLines passes on the lines of in that hold a JSON object or array (a JSON-RPC
// message or batch) and answers any other with JSON-RPC's parse error on out, as the
// protocol asks: the server's transport would end the whole connection on it, and the
// replies to what came before with it. Blank lines are skipped. The returned reader
// ends when in does.
func jsonLines(in io.Reader, out io.Writer) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReader(in)
		for {
			line, err := br.ReadBytes('\n')
			if t := bytes.TrimSpace(line); len(t) > 0 {
				if (t[0] == '{' || t[0] == '[') && json.Valid(t) {
					if _, werr := pw.Write(append(t, '\n')); werr != nil {
						return // the server is gone
					}
				} else {
					_, _ = out.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: a line that is not a JSON-RPC message"}}` + "\n"))
				}
			}
			if err != nil {
				pw.CloseWithError(err) // io.EOF: the client closed its side
				return
			}
		}
	}()
	return pr
}

// lockedWriter writes each Write whole, one at a time: the server's messages and
// jsonLines' parse errors share stdout.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// nopWriteCloser is a writer whose Close does nothing: stdout stays the process's.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
