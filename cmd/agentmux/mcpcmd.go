package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

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
	calls := newInflight()
	out := &lockedWriter{w: sio.out, calls: calls}
	in := jsonLines(sio.in, out, calls, srv.ClientGone)
	t := &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	if err := srv.Run(ctx, t); err != nil {
		return 1, fmt.Errorf("agentmux mcp: %w", err)
	}
	return 0, nil
}

// jsonLines passes on the lines of in that hold a JSON object or array (a JSON-RPC
// message or batch) and answers any other with JSON-RPC's parse error on out, as the
// protocol asks: the server's transport would end the whole connection on it, and the
// replies to what came before with it. Blank lines are skipped. The requests passed on
// are counted in calls. The returned reader ends when in does, once every request read
// was answered: the server's transport drops the answers still to come when its input
// ends, and a client that writes its calls and closes its side (a script, a pipe) still
// reads them. gone is called at in's end, so that calls waiting give up.
func jsonLines(in io.Reader, out io.Writer, calls *inflight, gone func()) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReader(in)
		for {
			line, err := br.ReadBytes('\n')
			if t := bytes.TrimSpace(line); len(t) > 0 {
				if (t[0] == '{' || t[0] == '[') && json.Valid(t) {
					calls.add(t)
					if _, werr := pw.Write(append(t, '\n')); werr != nil {
						return // the server is gone
					}
				} else {
					_, _ = out.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: a line that is not a JSON-RPC message"}}` + "\n"))
				}
			}
			if err != nil {
				gone()
				calls.drained()
				pw.CloseWithError(err) // io.EOF: the client closed its side
				return
			}
		}
	}()
	return pr
}

// inflight counts the requests read and not yet answered, by id.
type inflight struct {
	mu      sync.Mutex
	pending map[string]int
	empty   chan struct{} // closed (and replaced) each time pending empties
}

func newInflight() *inflight {
	return &inflight{pending: map[string]int{}, empty: make(chan struct{})}
}

// rpc is what inflight reads of a JSON-RPC message.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// messages are the JSON-RPC messages of a line: one, or a batch's.
func messages(line []byte) []rpc {
	var batch []rpc
	if len(line) > 0 && line[0] == '[' {
		_ = json.Unmarshal(line, &batch)
		return batch
	}
	var one rpc
	if json.Unmarshal(line, &one) != nil {
		return nil
	}
	return []rpc{one}
}

// add counts the requests of a line read (a method and an id: notifications are
// answered by nothing).
func (f *inflight) add(line []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range messages(line) {
		if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			f.pending[string(m.ID)]++
		}
	}
}

// answered takes the responses of a line written off the count.
func (f *inflight) answered(line []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range messages(line) {
		id := string(m.ID)
		if m.Method != "" || f.pending[id] == 0 {
			continue
		}
		if f.pending[id]--; f.pending[id] == 0 {
			delete(f.pending, id)
		}
	}
	if len(f.pending) == 0 {
		close(f.empty)
		f.empty = make(chan struct{})
	}
}

// drained returns once every request read was answered, or after drainCap: an answer
// the server never writes must not hold the process for ever.
func (f *inflight) drained() {
	f.mu.Lock()
	if len(f.pending) == 0 {
		f.mu.Unlock()
		return
	}
	empty := f.empty
	f.mu.Unlock()
	select {
	case <-empty:
	case <-time.After(drainCap):
	}
}

// drainCap bounds the wait for the answers to the calls read before the input ended.
const drainCap = 30 * time.Second

// lockedWriter writes each Write whole, one at a time: the server's messages and
// jsonLines' parse errors share stdout.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	// calls, when set, takes each answer written off the requests in flight.
	calls *inflight
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if l.calls != nil {
		l.calls.answered(bytes.TrimSpace(p))
	}
	return n, err
}

// nopWriteCloser is a writer whose Close does nothing: stdout stays the process's.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
