package mockmodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// chatRequest is the part of an OpenAI chat/completions request body the server reads (the
// API OpenAI-compatible providers speak: opencode's custom providers, Qwen Code).
type chatRequest struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	Tools    json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// lastUser returns the typed text of the last user message.
func (c *chatRequest) lastUser() string {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if m := c.Messages[i]; m.Role == "user" {
			return joinTyped(textParts(m.Content, "text"))
		}
	}
	return ""
}

// toolResult reports whether the last message brings back a tool's output.
func (c *chatRequest) toolResult() bool {
	return len(c.Messages) > 0 && c.Messages[len(c.Messages)-1].Role == "tool"
}

// qwenBackground open the user messages of the requests Qwen Code 0.24 sends by itself
// after a turn: its memory agent's, its memory consolidation's ("Dream", which starts
// with the memory folder) and its next-prompt suggestion's.
var qwenBackground = []string{"Managed memory has TWO directories", "Memory directory: `", "[SUGGESTION MODE:"}

// side reports whether the request is a side request, not a conversation turn: it asks
// for JSON (a next-speaker check), a short system prompt asks for a title (opencode's and
// Qwen Code's session titles), or it is one of Qwen Code's background requests. A side
// request is answered with JSON that fits its schema, or with a short title.
func (c *chatRequest) side() (string, bool) {
	for _, b := range qwenBackground {
		if strings.HasPrefix(c.lastUser(), b) {
			return "Mock note.", true
		}
	}
	if f := c.ResponseFormat; f != nil && (f.Type == "json_schema" || f.Type == "json_object") {
		var sch map[string]any
		if f.JSONSchema != nil {
			sch = f.JSONSchema.Schema
		}
		return sampleJSONText(sch), true
	}
	for _, m := range c.Messages {
		if m.Role != "system" {
			continue
		}
		// A title prompt is short; an agent's own system prompt, which may speak of
		// titles too, is long.
		if s := strings.ToLower(strings.Join(textParts(m.Content), " ")); len(s) < titlePrompt && strings.Contains(s, "title") {
			return "Mock session", true
		}
	}
	return "", false
}

// titlePrompt bounds the length of a system prompt that asks for a session title.
const titlePrompt = 4000

// handleChat answers POST /v1/chat/completions: a turn streamed as chat.completion.chunk
// events, a first one with the role, one per word, one with finish_reason "stop", a usage
// chunk when asked, then [DONE]; or the whole answer at once when not streamed.
func (s *Server) handleChat(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "mock: body is not JSON")
		rec.Status, rec.Err = http.StatusBadRequest, err.Error()
		return
	}
	rec.API, rec.Model, rec.Stream, rec.Prompt = APIOpenAIChat, req.Model, req.Stream, req.lastUser()
	rec.Status = http.StatusOK
	if text, ok := req.side(); ok {
		rec.Kind, rec.Reply = KindSide, text
	} else {
		rec.Kind, rec.N = KindTurn, s.nextTurn()
		p := Prompt{API: APIOpenAIChat, Model: req.Model, Text: rec.Prompt, N: rec.N, ToolResult: req.toolResult()}
		if c, ok := s.toolCall(p, toolNames(req.Tools), "run_shell_command", body); ok {
			rec.Reply = c.String()
			s.chatToolCall(w, &req, c, rec)
			return
		}
		rec.Reply = s.opts.Reply(p)
	}
	const id = "chatcmpl-mock"
	usage := chatUsage
	if !req.Stream || req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		rec.Usage = Usage{Input: 10, Output: 9}
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": rec.Reply},
				"finish_reason": "stop"}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	deltas := chunks(rec.Reply)
	out := startSSE(w)
	out.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	pace := s.pacer(r, rec.Kind, len(deltas), deltas)
	for _, d := range deltas {
		if !pace.wait() {
			rec.Err = "stream cut: client or server gone"
			return
		}
		out.event("", chunk(map[string]any{"content": d}, nil))
	}
	out.event("", chunk(map[string]any{}, "stop"))
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		out.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": req.Model,
			"choices": []any{}, "usage": usage})
	}
	if err := out.done(); err != nil {
		rec.Err = err.Error()
	}
}

// chatUsage is the usage every chat/completions answer reports.
var chatUsage = map[string]any{"prompt_tokens": 10, "completion_tokens": 9, "total_tokens": 19}

// chatToolCall answers with a call of c as the assistant's one tool call: streamed as a
// chunk with its id and name, one with its arguments, one with finish_reason
// "tool_calls" (and a usage chunk when asked), then [DONE]; or whole when not streamed.
func (s *Server) chatToolCall(w http.ResponseWriter, req *chatRequest, c call, rec *Request) {
	const id, callID = "chatcmpl-mock", "call_mock"
	args := c.argsJSON()
	if !req.Stream || req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		rec.Usage = Usage{Input: 10, Output: 9}
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": nil,
				"tool_calls": []any{map[string]any{"id": callID, "type": "function",
					"function": map[string]any{"name": c.Name, "arguments": args}}}},
				"finish_reason": "tool_calls"}}, "usage": chatUsage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	out := startSSE(w)
	out.event("", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
		"index": 0, "id": callID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}}}, nil))
	out.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": args}}}}, nil))
	out.event("", chunk(map[string]any{}, "tool_calls"))
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		out.event("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": req.Model,
			"choices": []any{}, "usage": chatUsage})
	}
	if err := out.done(); err != nil {
		rec.Err = err.Error()
	}
}
