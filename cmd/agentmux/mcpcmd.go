package main

import (
	"context"
	"fmt"
	"io"

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
	t := &sdk.IOTransport{Reader: io.NopCloser(sio.in), Writer: nopWriteCloser{sio.out}}
	if err := srv.Run(ctx, t); err != nil {
		return 1, fmt.Errorf("agentmux mcp: %w", err)
	}
	return 0, nil
}

// nopWriteCloser is a writer whose Close does nothing: stdout stays the process's.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
