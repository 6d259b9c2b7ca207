package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// openaiRequest is the part of a Responses API request body the server reads.
type openaiRequest struct {
	Model  string          `json:"model"`
	Stream bool            `json:"stream"`
	Input  json.RawMessage `json:"input"`
	Tools  json.RawMessage `json:"tools"`
	Text   *struct {
		Format *struct {
			Type   string         `json:"type"`
			Schema map[string]any `json:"schema"`
		} `json:"format"`
	} `json:"text"`
}

// lastUser returns the typed text of the last user message of the input (a plain string
// input is the message itself).
func (o *openaiRequest) lastUser() string {
	var s string
	if json.Unmarshal(o.Input, &s) == nil {
		return s
	}
	var items []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(o.Input, &items) != nil {
		return ""
	}
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if it.Role == "user" && (it.Type == "" || it.Type == "message") {
			return joinTyped(textParts(it.Content, "input_text", "text"))
		}
	}
	return ""
}

// toolResult reports whether the input's last item brings back a tool's output.
func (o *openaiRequest) toolResult() bool {
	var items []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(o.Input, &items) != nil || len(items) == 0 {
		return false
	}
	return strings.HasSuffix(items[len(items)-1].Type, "_call_output")
}

// schema returns the JSON schema the request asks the answer to follow, or nil.
func (o *openaiRequest) schema() map[string]any {
	if o.Text == nil || o.Text.Format == nil || o.Text.Format.Type != "json_schema" {
		return nil
	}
	if o.Text.Format.Schema == nil {
		return map[string]any{}
	}
	return o.Text.Format.Schema
}

// handleOpenAI answers POST /v1/responses. A request with a JSON schema for its output is a
// side request (Codex's thread title) answered with JSON that fits; any other is a turn.
// Both stream the answer as Codex expects: response.created, response.output_item.added,
// response.output_text.delta per word, response.output_item.done, response.completed.
func (s *Server) handleOpenAI(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	var req openaiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "mock: body is not JSON")
		rec.Status, rec.Err = http.StatusBadRequest, err.Error()
		return
	}
	rec.API, rec.Model, rec.Stream, rec.Prompt = APIOpenAI, req.Model, req.Stream, req.lastUser()
	rec.Status = http.StatusOK
	if sch := req.schema(); sch != nil {
		rec.Kind, rec.Reply = KindSide, sampleJSONText(sch)
	} else {
		rec.Kind, rec.N = KindTurn, s.nextTurn()
		p := Prompt{API: APIOpenAI, Model: req.Model, Text: rec.Prompt, N: rec.N, ToolResult: req.toolResult()}
		if c, ok := s.toolCall(p, toolNames(req.Tools), "exec_command", body); ok && req.Stream {
			rec.Reply = c.String()
			s.openaiFunctionCall(w, r, req.Model, c, rec)
			return
		}
		rec.Reply = s.opts.Reply(p)
	}
	const respID, itemID = "resp_mock", "msg_mock"
	rec.Usage = Usage{Input: 10, Output: 9}
	done := map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": rec.Reply, "annotations": []any{}}}}
	usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 9, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 19}
	if !req.Stream {
		writeJSON(w, http.StatusOK, map[string]any{"id": respID, "object": "response", "status": "completed",
			"model": req.Model, "output": []any{done}, "usage": usage})
		return
	}
	deltas := chunks(rec.Reply)
	out := startSSE(w)
	out.event("response.created", map[string]any{"type": "response.created",
		"response": map[string]any{"id": respID, "object": "response", "status": "in_progress", "model": req.Model}})
	out.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
		"item": map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": "in_progress", "content": []any{}}})
	pace := s.pacer(r, rec.Kind, len(deltas), deltas)
	for _, d := range deltas {
		if !pace.wait() {
			rec.Err = "stream cut: client or server gone"
			return
		}
		out.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
			"item_id": itemID, "output_index": 0, "content_index": 0, "delta": d})
	}
	out.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": done})
	err := out.event("response.completed", map[string]any{"type": "response.completed",
		"response": map[string]any{"id": respID, "object": "response", "status": "completed", "model": req.Model,
			"output": []any{}, "usage": usage}})
	if err != nil {
		rec.Err = err.Error()
	}
}

// openaiFunctionCall streams a response whose one output item is a function_call of c
// (a custom_tool_call when c is Custom): response.created, response.output_item.added,
// response.function_call_arguments.delta (response.custom_tool_call_input.delta),
// response.output_item.done, response.completed.
func (s *Server) openaiFunctionCall(w http.ResponseWriter, r *http.Request, model string, c call, rec *Request) {
	id, callID := fmt.Sprintf("fc_mock_%d", rec.N), fmt.Sprintf("call_mock_%d", rec.N)
	item := func(status, args string) map[string]any {
		return map[string]any{"type": "function_call", "id": id, "call_id": callID, "name": c.Name,
			"arguments": args, "status": status}
	}
	delta, whole := "response.function_call_arguments.delta", c.argsJSON()
	if c.Custom { // a freeform tool's call: its input as it is
		id, delta, whole = fmt.Sprintf("ctc_mock_%d", rec.N), "response.custom_tool_call_input.delta", c.Input
		item = func(status, input string) map[string]any {
			return map[string]any{"type": "custom_tool_call", "id": id, "call_id": callID, "name": c.Name,
				"input": input, "status": status}
		}
	}
	usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}
	rec.Usage = Usage{Input: 10, Output: 5}
	out := startSSE(w)
	out.event("response.created", map[string]any{"type": "response.created",
		"response": map[string]any{"id": "resp_mock_tool", "object": "response", "status": "in_progress", "model": model}})
	out.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
		"item": item("in_progress", "")})
	if !s.pacer(r, rec.Kind, 1, nil).wait() {
		rec.Err = "stream cut: client or server gone"
		return
	}
	out.event(delta, map[string]any{"type": delta, "item_id": id, "output_index": 0, "delta": whole})
	out.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0,
		"item": item("completed", whole)})
	err := out.event("response.completed", map[string]any{"type": "response.completed",
		"response": map[string]any{"id": "resp_mock_tool", "object": "response", "status": "completed", "model": model,
			"output": []any{}, "usage": usage}})
	if err != nil {
		rec.Err = err.Error()
	}
}
