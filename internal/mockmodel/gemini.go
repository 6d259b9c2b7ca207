package mockmodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// geminiRequest is the part of a generateContent request body the server reads.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             *string         `json:"text"`
			FunctionResponse json.RawMessage `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools            json.RawMessage `json:"tools"`
	GenerationConfig *struct {
		ResponseMimeType   string         `json:"responseMimeType"`
		ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
		ResponseSchema     map[string]any `json:"responseSchema"`
	} `json:"generationConfig"`
}

// lastUser returns the typed text of the last user content.
func (g *geminiRequest) lastUser() string {
	for i := len(g.Contents) - 1; i >= 0; i-- {
		c := g.Contents[i]
		if c.Role != "user" && c.Role != "" {
			continue
		}
		var texts []string
		for _, p := range c.Parts {
			if p.Text != nil {
				texts = append(texts, *p.Text)
			}
		}
		if len(texts) == 0 {
			continue // a function response, not typed text
		}
		return joinTyped(texts)
	}
	return ""
}

// toolResult reports whether the last content brings back a function's response.
func (g *geminiRequest) toolResult() bool {
	if len(g.Contents) == 0 {
		return false
	}
	for _, p := range g.Contents[len(g.Contents)-1].Parts {
		if len(p.FunctionResponse) > 0 {
			return true
		}
	}
	return false
}

// wantsJSON reports whether the request asks for a JSON answer, and its schema if it has one.
func (g *geminiRequest) wantsJSON() (bool, map[string]any) {
	gc := g.GenerationConfig
	if gc == nil {
		return false, nil
	}
	if gc.ResponseJSONSchema != nil {
		return true, gc.ResponseJSONSchema
	}
	if gc.ResponseSchema != nil {
		return true, gc.ResponseSchema
	}
	return gc.ResponseMimeType == "application/json", nil
}

// geminiModel returns the model name in a path like /v1beta/models/NAME:generateContent.
func geminiModel(path string) string {
	i := strings.LastIndex(path, "/models/")
	if i < 0 {
		return ""
	}
	m := path[i+len("/models/"):]
	if j := strings.IndexByte(m, ':'); j >= 0 {
		m = m[:j]
	}
	return m
}

// geminiCandidate is one response chunk's candidate holding text.
func geminiCandidate(text string, final bool) map[string]any {
	c := map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}}, "index": 0}
	if final {
		c["finishReason"] = "STOP"
	}
	return c
}

// decodeGemini reads a Gemini request into rec; it answers 400 itself and returns false when
// the body is not JSON.
func decodeGemini(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) (*geminiRequest, bool) {
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "mock: body is not JSON")
		rec.Status, rec.Err = http.StatusBadRequest, err.Error()
		return nil, false
	}
	rec.API, rec.Model, rec.Prompt, rec.Status = APIGemini, geminiModel(r.URL.Path), req.lastUser(), http.StatusOK
	return &req, true
}

// handleGeminiGenerate answers :generateContent, which Gemini CLI uses only for side requests
// (routing, the next-speaker check): JSON shaped by the request's schema, or the side text.
func (s *Server) handleGeminiGenerate(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	req, ok := decodeGemini(w, r, body, rec)
	if !ok {
		return
	}
	rec.Kind, rec.Reply = KindSide, s.opts.SideText
	if asJSON, schema := req.wantsJSON(); asJSON {
		rec.Reply = sampleJSONText(schema)
	}
	rec.Usage = Usage{Input: 1, Output: 1}
	writeJSON(w, http.StatusOK, map[string]any{
		"candidates":    []any{geminiCandidate(rec.Reply, true)},
		"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		"modelVersion":  rec.Model,
	})
}

// handleGeminiStream answers :streamGenerateContent?alt=sse: a conversation turn streamed as
// data-only events, one per word, the last with finishReason STOP.
func (s *Server) handleGeminiStream(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	req, ok := decodeGemini(w, r, body, rec)
	if !ok {
		return
	}
	rec.Stream = true
	if asJSON, schema := req.wantsJSON(); asJSON {
		rec.Kind, rec.Reply = KindSide, sampleJSONText(schema)
	} else {
		rec.Kind, rec.N = KindTurn, s.nextTurn()
		p := Prompt{API: APIGemini, Model: rec.Model, Text: rec.Prompt, N: rec.N, ToolResult: req.toolResult()}
		if s.opts.Tool.wants(p) {
			c := s.opts.Tool.shellCall(toolNames(req.Tools), "run_shell_command")
			rec.Reply = c.String()
			s.geminiFunctionCall(w, r, c, rec)
			return
		}
		rec.Reply = s.opts.Reply(p)
	}
	deltas := chunks(rec.Reply)
	if len(deltas) == 0 {
		deltas = []string{""} // the finishReason still has to arrive in a chunk
	}
	rec.Usage = Usage{Input: 5, Output: len(deltas)} // as the last chunk reports it
	out := startSSE(w)
	pace := s.pacer(r, rec.Kind, len(deltas), deltas)
	for i, d := range deltas {
		if !pace.wait() {
			rec.Err = "stream cut: client or server gone"
			return
		}
		err := out.event("", map[string]any{
			"candidates": []any{geminiCandidate(d, i == len(deltas)-1)},
			"usageMetadata": map[string]any{"promptTokenCount": 5, "candidatesTokenCount": i + 1,
				"totalTokenCount": 6 + i},
			"modelVersion": rec.Model,
		})
		if err != nil {
			rec.Err = err.Error()
			return
		}
	}
}

// geminiFunctionCall streams one chunk whose candidate holds a functionCall part for c.
func (s *Server) geminiFunctionCall(w http.ResponseWriter, r *http.Request, c call, rec *Request) {
	rec.Usage = Usage{Input: 5, Output: 5}
	out := startSSE(w)
	if !s.pacer(r, rec.Kind, 1, nil).wait() {
		rec.Err = "stream cut: client or server gone"
		return
	}
	err := out.event("", map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP", "content": map[string]any{"role": "model",
			"parts": []any{map[string]any{"functionCall": map[string]any{"name": c.Name, "args": c.Args}}}}}},
		"usageMetadata": map[string]any{"promptTokenCount": 5, "candidatesTokenCount": 5, "totalTokenCount": 10},
		"modelVersion":  rec.Model,
	})
	if err != nil {
		rec.Err = err.Error()
	}
}
