package mockmodel

// Tool calls: with Options.Tool set, a turn whose prompt holds the trigger is answered, in
// each API's own shape, with a call of the shell tool the request offers (its input being
// the configured command); the turn that brings the tool's result back, though its history
// still holds the trigger, is answered with text; a prompt without the trigger is text. A
// request offering no shell tool gets the API's usual one, or Tool.Name when set.

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var testTool = &Tool{Trigger: "run-tool", Command: "echo agentmux-tool"}

func TestAnthropicToolUse(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Fixed("done"), Tool: testTool})
	req := `{"model":"m","stream":true,"tools":[{"name":"Read"},{"name":"Bash"}],
	 "messages":[{"role":"user","content":[{"type":"text","text":"please run-tool now"}]}]}`
	_, _, body := post(t, hs.URL+"/v1/messages", req)
	evs := parseSSE(t, body)
	equal(t, "events", strings.Join(names(evs), ","),
		"message_start,content_block_start,content_block_delta,content_block_stop,message_delta,message_stop")
	equal(t, "block type", get(evs[1].Data, "content_block", "type"), any("tool_use"))
	equal(t, "tool name", get(evs[1].Data, "content_block", "name"), any("Bash"))
	var input map[string]any
	if err := json.Unmarshal([]byte(get(evs[2].Data, "delta", "partial_json").(string)), &input); err != nil {
		t.Fatalf("partial_json: %v", err)
	}
	equal(t, "command", input["command"], any("echo agentmux-tool"))
	equal(t, "stop reason", get(evs[4].Data, "delta", "stop_reason"), any("tool_use"))

	result := `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[
	 {"role":"user","content":[{"type":"text","text":"please run-tool now"}]},
	 {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}]},
	 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"agentmux-tool"}]}]}`
	_, _, body = post(t, hs.URL+"/v1/messages", result)
	evs = parseSSE(t, body)
	equal(t, "after the result: block type", get(evs[1].Data, "content_block", "type"), any("text"))
	turns := s.Turns()
	equal(t, "turns", len(turns), 2)
	equal(t, "logged call", turns[0].Reply, `tool call Bash {"command":"echo agentmux-tool","description":"Run the command the test asked for"}`)
	equal(t, "logged answer", turns[1].Reply, "done")
}

func TestOpenAIFunctionCall(t *testing.T) {
	const esc = `"justification":"Run the command the test asked for","sandbox_permissions":"require_escalated"}`
	for tool, want := range map[string]string{
		"shell_command": `{"command":"echo agentmux-tool",` + esc,
		"exec_command":  `{"cmd":"echo agentmux-tool",` + esc,
		"shell":         `{"command":["bash","-lc","echo agentmux-tool"],` + esc,
	} {
		t.Run(tool, func(t *testing.T) {
			_, hs := newTestServer(t, Options{Reply: Fixed("done"), Tool: testTool})
			req := `{"model":"m","stream":true,"tools":[{"type":"function","name":"` + tool + `"}],
			 "input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"run-tool please"}]}]}`
			_, _, body := post(t, hs.URL+"/v1/responses", req)
			evs := parseSSE(t, body)
			equal(t, "events", strings.Join(names(evs), ","), "response.created,response.output_item.added,"+
				"response.function_call_arguments.delta,response.output_item.done,response.completed")
			done := evs[3].Data
			equal(t, "item type", get(done, "item", "type"), any("function_call"))
			equal(t, "name", get(done, "item", "name"), any(tool))
			equal(t, "arguments", get(done, "item", "arguments"), any(want))
			if get(done, "item", "call_id") == nil {
				t.Error("no call_id")
			}

			result := `{"model":"m","stream":true,"input":[
			 {"type":"message","role":"user","content":[{"type":"input_text","text":"run-tool please"}]},
			 {"type":"function_call","call_id":"c1","name":"` + tool + `","arguments":"{}"},
			 {"type":"function_call_output","call_id":"c1","output":"agentmux-tool"}]}`
			_, _, body = post(t, hs.URL+"/v1/responses", result)
			evs = parseSSE(t, body)
			equal(t, "after the output: item type", get(evs[1].Data, "item", "type"), any("message"))
		})
	}
}

func TestGeminiFunctionCall(t *testing.T) {
	_, hs := newTestServer(t, Options{Reply: Fixed("done"), Tool: testTool})
	url := hs.URL + "/v1beta/models/g:streamGenerateContent?alt=sse"
	req := `{"tools":[{"functionDeclarations":[{"name":"read_file"},{"name":"run_shell_command"}]}],
	 "contents":[{"role":"user","parts":[{"text":"run-tool please"}]}]}`
	_, _, body := post(t, url, req)
	evs := parseSSE(t, body)
	equal(t, "chunks", len(evs), 1)
	equal(t, "function", get(evs[0].Data, "candidates", 0, "content", "parts", 0, "functionCall", "name"), any("run_shell_command"))
	equal(t, "command", get(evs[0].Data, "candidates", 0, "content", "parts", 0, "functionCall", "args", "command"), any("echo agentmux-tool"))

	result := `{"contents":[{"role":"user","parts":[{"text":"run-tool please"}]},
	 {"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{}}}]},
	 {"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"x"}}}]}]}`
	_, _, body = post(t, url, result)
	evs = parseSSE(t, body)
	equal(t, "after the response: text", get(evs[0].Data, "candidates", 0, "content", "parts", 0, "text"), any("done"))
}

func TestChatToolCall(t *testing.T) {
	_, hs := newTestServer(t, Options{Reply: Fixed("done"), Tool: testTool})
	req := `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"read_file"}},
	 {"type":"function","function":{"name":"run_shell_command"}}],
	 "messages":[{"role":"user","content":"run-tool please"}]}`
	const done = "data: [DONE]\n\n"
	_, _, body := post(t, hs.URL+"/v1/chat/completions", req)
	evs := parseSSE(t, bytes.TrimSuffix(body, []byte(done)))
	equal(t, "chunks", len(evs), 3) // the call's name, its arguments, the finish
	equal(t, "name", get(evs[0].Data, "choices", 0, "delta", "tool_calls", 0, "function", "name"), any("run_shell_command"))
	var args map[string]any
	if err := json.Unmarshal([]byte(get(evs[1].Data, "choices", 0, "delta", "tool_calls", 0, "function", "arguments").(string)), &args); err != nil {
		t.Fatalf("arguments: %v", err)
	}
	equal(t, "command", args["command"], any("echo agentmux-tool"))
	equal(t, "finish", get(evs[2].Data, "choices", 0, "finish_reason"), any("tool_calls"))

	result := `{"model":"m","stream":true,"messages":[{"role":"user","content":"run-tool please"},
	 {"role":"assistant","content":null,"tool_calls":[{"id":"call_mock","type":"function","function":{"name":"run_shell_command","arguments":"{}"}}]},
	 {"role":"tool","tool_call_id":"call_mock","content":"agentmux-tool"}]}`
	_, _, body = post(t, hs.URL+"/v1/chat/completions", result)
	evs = parseSSE(t, bytes.TrimSuffix(body, []byte(done)))
	equal(t, "after the result: text", get(evs[1].Data, "choices", 0, "delta", "content"), any("done"))
}

func TestNoTriggerNoTool(t *testing.T) {
	_, hs := newTestServer(t, Options{Reply: Fixed("plain"), Tool: testTool})
	_, _, body := post(t, hs.URL+"/v1/messages", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hello"}]}`)
	evs := parseSSE(t, body)
	equal(t, "block type", get(evs[1].Data, "content_block", "type"), any("text"))
}

func TestToolFallbackAndName(t *testing.T) {
	noTools := `{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"run-tool"}]}]}`
	for _, tc := range []struct {
		tool *Tool
		want string
	}{
		{testTool, "exec_command"}, // Codex 0.169 sends an unknown model no tool list, and runs exec_command
		{&Tool{Trigger: "run-tool", Command: "true", Name: "shell"}, "shell"},
	} {
		_, hs := newTestServer(t, Options{Tool: tc.tool})
		_, _, body := post(t, hs.URL+"/v1/responses", noTools)
		evs := parseSSE(t, body)
		equal(t, "tool name", get(evs[3].Data, "item", "name"), any(tc.want))
	}
}

// Codex 0.171 offers MCP tools only inside its exec tool (JavaScript calling
// tools.mcp__server__tool), naming the servers' namespaces in a message of its input:
// a Tool with Input answers with a custom_tool_call of exec, only once Ready holds, and
// its Then's InputFrom reads the result the call brought back.
func TestOpenAICustomToolCall(t *testing.T) {
	tool := &Tool{Trigger: "ask", Name: "exec", Input: "text(await tools.mcp__x__send({}))",
		Ready: func(body []byte) bool { return strings.Contains(string(body), "mcp__x") },
		Then: &Tool{Name: "exec", InputFrom: func(body []byte) string {
			if strings.Contains(string(body), "id-42") {
				return "wait id-42"
			}
			return "no id"
		}}}
	s, hs := newTestServer(t, Options{Reply: Fixed("done"), Tool: tool})
	ask := `{"type":"message","role":"user","content":[{"type":"input_text","text":"ask please"}]}`
	_, _, body := post(t, hs.URL+"/v1/responses", `{"model":"m","stream":true,"input":[`+ask+`]}`)
	equal(t, "before the namespace: item type", get(parseSSE(t, body)[1].Data, "item", "type"), any("message"))

	tools := `{"type":"message","role":"developer","content":[{"type":"input_text","text":"- mcp__x: a server"}]}`
	_, _, body = post(t, hs.URL+"/v1/responses", `{"model":"m","stream":true,"input":[`+tools+`,`+ask+`]}`)
	evs := parseSSE(t, body)
	equal(t, "events", strings.Join(names(evs), ","), "response.created,response.output_item.added,"+
		"response.custom_tool_call_input.delta,response.output_item.done,response.completed")
	done := evs[3].Data
	equal(t, "item type", get(done, "item", "type"), any("custom_tool_call"))
	equal(t, "name", get(done, "item", "name"), any("exec"))
	equal(t, "input", get(done, "item", "input"), any("text(await tools.mcp__x__send({}))"))

	result := `{"model":"m","stream":true,"input":[` + tools + `,` + ask + `,
	 {"type":"custom_tool_call","call_id":"c1","name":"exec","input":"…"},
	 {"type":"custom_tool_call_output","call_id":"c1","output":"sent id-42"}]}`
	_, _, body = post(t, hs.URL+"/v1/responses", result)
	equal(t, "then: input", get(parseSSE(t, body)[3].Data, "item", "input"), any("wait id-42"))
	turns := s.Turns()
	equal(t, "logged call", turns[len(turns)-1].Reply, "tool call exec wait id-42")
}

// A tool the request names only as deferred (Claude Code 2.1.332's MCP tools) is loaded
// with ToolSearch first, its chain's tools with it; one the request offers is called at
// once; one it neither offers nor names is not called.
func TestDeferredToolIsSearchedFirst(t *testing.T) {
	tool := func() *Tool {
		return &Tool{Trigger: "ask-peer", Offered: true, Name: "mcp__x__send", Args: map[string]any{"to": "2"},
			Then: &Tool{Name: "mcp__x__wait", Args: map[string]any{"id": "m1"}}}
	}
	callOf := func(t *testing.T, body []byte) (string, map[string]any) {
		t.Helper()
		evs := parseSSE(t, body)
		if get(evs[1].Data, "content_block", "type") != "tool_use" {
			return "", nil
		}
		var input map[string]any
		if err := json.Unmarshal([]byte(get(evs[2].Data, "delta", "partial_json").(string)), &input); err != nil {
			t.Fatalf("partial_json: %v", err)
		}
		return get(evs[1].Data, "content_block", "name").(string), input
	}
	const ask = `{"role":"user","content":[{"type":"text","text":"ask-peer please"}]}`
	result := func(id string) string {
		return `,{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"x","input":{}}]},
		 {"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":"ok"}]}`
	}
	deferred := `"system":"deferred tools, loaded by ToolSearch: mcp__x__send\nmcp__x__wait","tools":[{"name":"Bash"},{"name":"ToolSearch"}]`

	t.Run("deferred", func(t *testing.T) {
		_, hs := newTestServer(t, Options{Reply: Fixed("done"), Tool: tool()})
		_, _, body := post(t, hs.URL+"/v1/messages", `{"model":"m","stream":true,`+deferred+`,"messages":[`+ask+`]}`)
		name, input := callOf(t, body)
		equal(t, "first call", name, "ToolSearch")
		equal(t, "its query", input["query"], any("select:mcp__x__send,mcp__x__wait"))
		_, _, body = post(t, hs.URL+"/v1/messages", `{"model":"m","stream":true,`+deferred+`,"messages":[`+ask+result("t1")+`]}`)
		name, input = callOf(t, body)
		equal(t, "after the search", name, "mcp__x__send")
		equal(t, "its arguments", input["to"], any("2"))
		_, _, body = post(t, hs.URL+"/v1/messages", `{"model":"m","stream":true,`+deferred+`,"messages":[`+ask+result("t1")+result("t2")+`]}`)
		name, _ = callOf(t, body)
		equal(t, "the chain's next", name, "mcp__x__wait")
	})
	t.Run("offered", func(t *testing.T) {
		_, hs := newTestServer(t, Options{Reply: Fixed("done"), Tool: tool()})
		_, _, body := post(t, hs.URL+"/v1/messages", `{"model":"m","stream":true,"tools":[{"name":"ToolSearch"},{"name":"mcp__x__send"}],"messages":[`+ask+`]}`)
		name, _ := callOf(t, body)
		equal(t, "call", name, "mcp__x__send")
	})
	t.Run("neither", func(t *testing.T) {
		_, hs := newTestServer(t, Options{Reply: Fixed("done"), Tool: tool()})
		_, _, body := post(t, hs.URL+"/v1/messages", `{"model":"m","stream":true,"tools":[{"name":"ToolSearch"}],"messages":[`+ask+`]}`)
		name, _ := callOf(t, body)
		equal(t, "call", name, "")
	})
}
