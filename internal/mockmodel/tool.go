package mockmodel

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// Tool makes the server answer some turns with a call of the client's shell tool instead
// of text, so a test can bring up a CLI's permission prompt: a turn whose prompt contains
// Trigger, and that does not carry a tool's result, is answered with a call running
// Command. The turn that brings the result back is answered with text as usual.
type Tool struct {
	// Trigger is the word in a prompt that asks for the tool call (e.g. "run-tool").
	Trigger string
	// Command is the shell command the call asks to run.
	Command string
	// Name is the tool to call; "" picks the first shell tool the request offers, or the
	// API's usual one when it lists none (Codex sends no tool list to an unknown model).
	Name string
	// Args, with Name, are the call's arguments as they are, for any tool (an MCP
	// server's): Command is not used. ArgsFrom, when set, makes them from the body of
	// the request being answered (an id the previous call's result brought back).
	Args     map[string]any
	ArgsFrom func(body []byte) map[string]any
	// Then answers the turn that brings this call's result back with another call.
	Then *Tool
	// Offered makes the trigger call only when the request offers the tool Name (a
	// CLI connects its MCP servers while it starts: an early turn may not have them).
	// A tool the request names only as deferred (Claude Code 2.1.332 lists its MCP
	// tools by name in the system prompt and offers ToolSearch to load them) is loaded
	// first, as a model does: the trigger turn is answered with a call of ToolSearch
	// selecting Name and the Names of its Then chain, and the turn that brings the
	// result back with this call.
	Offered bool
	// Input, with Name, makes the call one of a freeform (custom) tool taking Input as
	// it is, not JSON arguments: Codex's exec, which runs JavaScript calling the tools it
	// nests (an MCP server's among them). InputFrom, when set, makes it from the body of
	// the request being answered. Only the OpenAI Responses API has such tools.
	Input     string
	InputFrom func(body []byte) string
	// Ready, when set, makes the trigger call only when it holds for the request's body:
	// Offered for a tool a request names elsewhere than in its tool list (Codex lists
	// its MCP servers' namespaces in a message of its input).
	Ready func(body []byte) bool
}

// toolCall decides whether the turn p (of a request with body offering the tools
// named offered) is answered with a tool call, and which: the configured Tool's on its
// trigger, or the Then of the last call when p brings that call's result back.
func (s *Server) toolCall(p Prompt, offered []string, fallback string, body []byte) (call, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t *Tool
	switch {
	case s.opts.Tool.wants(p):
		t = s.opts.Tool
	case p.ToolResult && s.then != nil:
		t = s.then
	default:
		return call{}, false
	}
	if t.Offered && !slices.Contains(offered, t.Name) && !s.loaded[t.Name] {
		if !slices.Contains(offered, toolSearch) || !bytes.Contains(body, []byte(t.Name)) {
			return call{}, false
		}
		names := t.chain()
		for _, n := range names {
			s.loaded[n] = true
		}
		s.then = t
		return call{Name: toolSearch, Args: map[string]any{"query": "select:" + strings.Join(names, ","), "max_results": len(names)}}, true
	}
	if t.Ready != nil && !t.Ready(body) {
		return call{}, false
	}
	s.then = t.Then
	switch {
	case t.Name != "" && t.InputFrom != nil:
		return call{Name: t.Name, Input: t.InputFrom(body), Custom: true}, true
	case t.Name != "" && t.Input != "":
		return call{Name: t.Name, Input: t.Input, Custom: true}, true
	case t.Name != "" && t.ArgsFrom != nil:
		return call{Name: t.Name, Args: t.ArgsFrom(body)}, true
	case t.Name != "" && t.Args != nil:
		return call{Name: t.Name, Args: maps.Clone(t.Args)}, true
	}
	return t.shellCall(offered, fallback), true
}

// toolSearch is the tool that loads a deferred tool's schema (Claude Code's).
const toolSearch = "ToolSearch"

// chain is the names of t's tool and of the tools of its Then chain, in order.
func (t *Tool) chain() []string {
	var names []string
	for ; t != nil; t = t.Then {
		if t.Name != "" && !slices.Contains(names, t.Name) {
			names = append(names, t.Name)
		}
	}
	return names
}

// call is one tool call the server decided to make: the tool's name and its arguments,
// or, Custom, a freeform tool's name and its input.
type call struct {
	Name   string
	Args   map[string]any
	Input  string
	Custom bool
}

// String is how a call shows in the request log (Request.Reply).
func (c call) String() string {
	if c.Custom {
		return "tool call " + c.Name + " " + c.Input
	}
	b, _ := json.Marshal(c.Args)
	return "tool call " + c.Name + " " + string(b)
}

// wants reports whether a turn with prompt p is to be answered with a tool call.
func (t *Tool) wants(p Prompt) bool {
	return t != nil && t.Trigger != "" && !p.ToolResult && strings.Contains(p.Text, t.Trigger)
}

// The shell tools the CLIs offer, by name, and how each takes its command: Claude Code's
// Bash and Gemini CLI's run_shell_command take a string; Codex offers one of
// shell_command (a string), exec_command (a string in "cmd") or shell (an argv).
var shellTools = []string{"Bash", "run_shell_command", "shell_command", "exec_command", "shell"}

// shellCall returns the call of the first shell tool among offered (the request's tool
// names), falling back to fallback when the request lists none of them.
func (t *Tool) shellCall(offered []string, fallback string) call {
	name := fallback
	for _, s := range shellTools {
		if t.Name != "" {
			name = t.Name
			break
		}
		if contains(offered, s) {
			name = s
			break
		}
	}
	desc := "Run the command the test asked for"
	// Codex's tools run in its sandbox without asking unless the call asks to leave it.
	escalate := func(args map[string]any) call {
		args["sandbox_permissions"] = "require_escalated"
		args["justification"] = desc
		return call{Name: name, Args: args}
	}
	switch name {
	case "exec_command":
		return escalate(map[string]any{"cmd": t.Command})
	case "shell":
		return escalate(map[string]any{"command": []string{"bash", "-lc", t.Command}})
	case "shell_command":
		return escalate(map[string]any{"command": t.Command})
	}
	return call{Name: name, Args: map[string]any{"command": t.Command, "description": desc}}
}

// argsJSON returns the call's arguments encoded.
func (c call) argsJSON() string {
	b, err := json.Marshal(c.Args)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// toolNames returns the names in a list of tools shaped {"name": ...} (Anthropic, OpenAI
// Responses), {"functionDeclarations": [{"name": ...}]} (Gemini) or {"function":
// {"name": ...}} (OpenAI chat completions).
func toolNames(raw json.RawMessage) []string {
	var tools []struct {
		Name  string `json:"name"`
		Decls []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if json.Unmarshal(raw, &tools) != nil {
		return nil
	}
	var out []string
	for _, t := range tools {
		if t.Name != "" {
			out = append(out, t.Name)
		}
		for _, d := range t.Decls {
			out = append(out, d.Name)
		}
		if t.Function.Name != "" {
			out = append(out, t.Function.Name)
		}
	}
	return out
}
