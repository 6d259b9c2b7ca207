package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// anthropicRequest is the part of a Messages API request body the server reads.
type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools        json.RawMessage  `json:"tools"`
	OutputFormat *anthropicFormat `json:"output_format"`
	OutputConfig *struct {
		Format *anthropicFormat `json:"format"`
	} `json:"output_config"`
}

// anthropicFormat is a structured-output request: {"type":"json_schema","schema":{...}}.
type anthropicFormat struct {
	Type   string         `json:"type"`
	Schema map[string]any `json:"schema"`
}

// schema returns the JSON schema the answer must follow, or nil. Claude Code asks for one in
// its title request (output_config.format).
func (a *anthropicRequest) schema() map[string]any {
	f := a.OutputFormat
	if f == nil && a.OutputConfig != nil {
		f = a.OutputConfig.Format
	}
	if f == nil || f.Type != "json_schema" {
		return nil
	}
	if f.Schema == nil {
		return map[string]any{}
	}
	return f.Schema
}

// lastUser returns the typed text of the last user message, and whether that message
// brings back a tool's result.
func (a *anthropicRequest) lastUser() (string, bool) {
	for i := len(a.Messages) - 1; i >= 0; i-- {
		if a.Messages[i].Role == "user" {
			var parts []struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(a.Messages[i].Content, &parts)
			result := false
			for _, p := range parts {
				result = result || p.Type == "tool_result"
			}
			return joinTyped(textParts(a.Messages[i].Content, "text")), result
		}
	}
	return "", false
}

// handleAnthropic answers POST /v1/messages. A request asking for structured output (Claude
// Code's session title) or not streamed is a side request, answered at once; any other is a
// conversation turn, streamed word by word: message_start, content_block_start,
// content_block_delta per word, content_block_stop, message_delta (end_turn), message_stop.
func (s *Server) handleAnthropic(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "mock: body is not JSON")
		rec.Status, rec.Err = http.StatusBadRequest, err.Error()
		return
	}
	model := req.Model
	if model == "" {
		model = "mock"
	}
	prompt, result := req.lastUser()
	rec.API, rec.Model, rec.Stream, rec.Prompt = APIAnthropic, req.Model, req.Stream, prompt
	rec.Status = http.StatusOK
	sch := req.schema()
	var tc *call
	if sch != nil || !req.Stream {
		rec.Kind, rec.Reply = KindSide, s.opts.SideText
		if sch != nil {
			rec.Reply = sampleJSONText(sch)
		}
	} else {
		rec.Kind, rec.N = KindTurn, s.nextTurn()
		p := Prompt{API: APIAnthropic, Model: req.Model, Text: rec.Prompt, N: rec.N, ToolResult: result}
		if c, ok := s.toolCall(p, toolNames(req.Tools), "Bash", body); ok && req.Stream {
			tc, rec.Reply = &c, c.String()
		} else {
			rec.Reply = s.opts.Reply(p)
		}
	}
	if tc != nil {
		s.anthropicToolUse(w, r, model, *tc, rec, s.nextID())
		return
	}
	// Every answer has ids of its own (the request-id header and the message id), as
	// the real API's do: a CLI's transcript counts usage once per id.
	id := s.nextID()
	w.Header().Set("request-id", "req_mock_"+id)
	if !req.Stream {
		rec.Usage = Usage{Input: 1, Output: 1}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": "msg_mock_" + id, "type": "message", "role": "assistant", "model": model,
			"content":     []any{map[string]any{"type": "text", "text": rec.Reply}},
			"stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 1, "output_tokens": 1},
		})
		return
	}
	deltas := chunks(rec.Reply)
	rec.Usage = Usage{Input: 10, Output: len(deltas), CacheRead: turnCacheRead, CacheWrite: turnCacheWrite}
	out := startSSE(w)
	out.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_mock_" + id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": anthropicStartUsage(),
	}})
	out.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	pace := s.pacer(r, rec.Kind, len(deltas), deltas)
	for _, d := range deltas {
		if !pace.wait() {
			rec.Err = "stream cut: client or server gone"
			return
		}
		out.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": d}})
	}
	out.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	out.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": len(deltas)}})
	if err := out.event("message_stop", map[string]any{"type": "message_stop"}); err != nil {
		rec.Err = err.Error()
	}
}

// anthropicToolUse streams an answer that is one tool_use block calling c, with the
// input as one input_json_delta, ending with stop_reason tool_use.
func (s *Server) anthropicToolUse(w http.ResponseWriter, r *http.Request, model string, c call, rec *Request, mid string) {
	w.Header().Set("request-id", "req_mock_"+mid)
	rec.Usage = Usage{Input: 10, Output: 5, CacheRead: turnCacheRead, CacheWrite: turnCacheWrite}
	out := startSSE(w)
	out.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_mock_tool_" + mid, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": anthropicStartUsage(),
	}})
	id := fmt.Sprintf("toolu_mock_%d", rec.N)
	out.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "tool_use", "id": id, "name": c.Name, "input": map[string]any{}}})
	if !s.pacer(r, rec.Kind, 1, nil).wait() {
		rec.Err = "stream cut: client or server gone"
		return
	}
	out.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": c.argsJSON()}})
	out.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	out.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5}})
	if err := out.event("message_stop", map[string]any{"type": "message_stop"}); err != nil {
		rec.Err = err.Error()
	}
}

// A turn's answer reports input read from and written to the cache too, so a reader
// of a CLI's usage is checked on all four kinds.
const (
	turnCacheRead  = 100
	turnCacheWrite = 20
)

// anthropicStartUsage is a turn's usage as message_start reports it: its output is
// the final count's start (message_delta reports the whole).
func anthropicStartUsage() map[string]any {
	return map[string]any{"input_tokens": 10, "output_tokens": 1,
		"cache_read_input_tokens": turnCacheRead, "cache_creation_input_tokens": turnCacheWrite}
}
