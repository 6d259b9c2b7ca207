package hooks

import (
	"encoding/json"
	"slices"
)

// With Options.MCP each supported program also gets agentmux's MCP server (`agentmux
// mcp`, named "agentmux") through its own per-run mechanism, never a file of the
// person's:
//
//   - Claude Code: --mcp-config with the server's JSON as a string (Claude adds it to
//     the person's servers). The option takes several values, so it goes last, or
//     before a "--": it swallows no word of the person's command line.
//   - Codex: -c mcp_servers.agentmux.command=…, args and env_vars. Codex gives an MCP
//     server only a few variables of its environment; env_vars passes the pane's
//     agentmux ones, without which the server could not prove its pane. Approval stays
//     the person's: Codex holds send (not read-only) for it, and refuses it under
//     approval_policy never unless the person approves the server's tools.
//   - Gemini CLI: the extension of the pane's Gemini home (geminihome.go) declares it.
//   - Qwen Code: the system defaults file of the run (qwen.go) declares it.
//
// The server inherits the pane's environment ($AGENTMUX_SOCKET, $AGENTMUX_PROOF), so
// it speaks for the pane it runs in, proved as any client of the socket is. Gemini and
// Qwen start MCP servers only in folders they trust: elsewhere the pane runs without.

// MCPServerName is the name the programs know agentmux's MCP server by: its tools are
// mcp__agentmux__send and the like in Claude Code, and in Codex (0.171) the same names
// on the tools object of its exec tool, the one tool it gives its model.
const MCPServerName = "agentmux"

// mcpEnv are the variables the server needs from the pane's environment.
var mcpEnv = []string{"AGENTMUX_SOCKET", "AGENTMUX_PROOF", "AGENTMUX_SESSION", "AGENTMUX_NAME", "AGENTMUX_PANE"}

// mcpServer is the server's entry in a program's mcpServers.
func (h *Setup) mcpServer() map[string]any {
	return map[string]any{"command": h.bin, "args": []string{"mcp"}}
}

// mcpServerIf is mcpServer when the run gives it, else nil.
func (h *Setup) mcpServerIf() map[string]any {
	if !h.mcp {
		return nil
	}
	return h.mcpServer()
}

// claudeMCP adds --mcp-config with server to Claude Code's argv: before a "--", else
// last.
func claudeMCP(argv []string, server map[string]any) []string {
	server = map[string]any{"type": "stdio", "command": server["command"], "args": server["args"]}
	conf, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{MCPServerName: server}})
	at := len(argv)
	if i := slices.Index(argv, "--"); i > 0 {
		at = i
	}
	return slices.Insert(slices.Clone(argv), at, "--mcp-config", string(conf))
}

// codexMCP is Codex's -c options that add the server running bin.
func codexMCP(bin string) []string {
	cmd, _ := json.Marshal(bin) // a TOML basic string too
	env, _ := json.Marshal(mcpEnv)
	key := "mcp_servers." + MCPServerName + "."
	return []string{
		"-c", key + "command=" + string(cmd),
		"-c", key + `args=["mcp"]`,
		"-c", key + "env_vars=" + string(env),
	}
}
