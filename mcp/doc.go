// Package mcp is agentmux's MCP server (`agentmux mcp`): the session's members,
// messages and screens as tools an agent CLI calls over the Model Context Protocol on
// stdio, built on the official Go SDK.
//
// It is a thin client of the session socket, like the agentmux commands: each tool
// call is one request on a connection of its own (client.DialPane), so every rule
// the socket keeps holds here as it is (who may send as whom, budgets, what only the
// person may do), and a long-lived second connection follows the session's events
// (X_EVENTS) for wait. The caller is the pane the server runs in, proved exactly as
// the socket proves any client (the pane's $AGENTMUX_PROOF, checked against the
// kernel's word about the process); outside every pane it is the person.
//
//	agent CLI ──stdio (JSON-RPC)──▶ Server ──one connection a call──▶ session socket
//	                                   ▲
//	                         eventLog ◀┘◀── events connection (X_EVENTS), one reader
//
// It imports proto and client; never hub's internals, session, ui or the store.
package mcp
