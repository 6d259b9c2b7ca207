package mockmodel

// Gemini: streamGenerateContent turns arrive as data-only events, one candidate chunk per
// word, the last with finishReason STOP; generateContent side requests get JSON shaped by
// their schema (the next-speaker check must hear "user", the router a score).

import (
	"encoding/json"
	"strings"
	"testing"
)

const geminiTurn = `{"contents":[
 {"role":"user","parts":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]},
 {"role":"model","parts":[{"text":"Got it."}]},
 {"role":"user","parts":[{"text":"say hi gemini"}]}],
 "generationConfig":{"temperature":1}}`

func TestGeminiStreamedTurn(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Fixed("Hello from Gemini mock.")})
	code, ctype, body := post(t, hs.URL+"/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse", geminiTurn)
	equal(t, "status", code, 200)
	equal(t, "content type", ctype, "text/event-stream")
	evs := parseSSE(t, body)
	equal(t, "chunks", len(evs), 4)
	var text strings.Builder
	for i, e := range evs {
		equal(t, "event name (data-only stream)", e.Name, "")
		equal(t, "role", get(e.Data, "candidates", 0, "content", "role"), any("model"))
		text.WriteString(get(e.Data, "candidates", 0, "content", "parts", 0, "text").(string))
		fin := get(e.Data, "candidates", 0, "finishReason")
		if last := i == len(evs)-1; last && fin != "STOP" || !last && fin != nil {
			t.Errorf("chunk %d finishReason = %v", i, fin)
		}
		if get(e.Data, "usageMetadata", "totalTokenCount") == nil {
			t.Errorf("chunk %d has no usageMetadata", i)
		}
	}
	equal(t, "streamed text", text.String(), "Hello from Gemini mock.")
	r := s.Turns()[0]
	equal(t, "logged prompt", r.Prompt, "say hi gemini")
	equal(t, "logged model", r.Model, "gemini-3.8-flash")
	equal(t, "logged API", r.API, APIGemini)
}

// generate posts a generateContent request and returns the answer's text.
func generate(t *testing.T, url, body string) string {
	t.Helper()
	code, ctype, b := post(t, url+"/v1beta/models/gemini-3.5-flash-lite:generateContent", body)
	equal(t, "status", code, 200)
	equal(t, "content type", ctype, "application/json")
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	equal(t, "finishReason", get(v, "candidates", 0, "finishReason"), any("STOP"))
	text, _ := get(v, "candidates", 0, "content", "parts", 0, "text").(string)
	return text
}

func TestGeminiSideRequests(t *testing.T) {
	s, hs := newTestServer(t, Options{SideText: "A summary."})
	tests := []struct {
		name, config string
		want         map[string]any
	}{
		{"next speaker, schema", `{"responseMimeType":"application/json","responseJsonSchema":{"type":"object",
			"properties":{"reasoning":{"type":"string"},"next_speaker":{"type":"string","enum":["model","user"]}}}}`,
			map[string]any{"reasoning": "mock", "next_speaker": "user"}},
		{"next speaker, no schema", `{"responseMimeType":"application/json"}`,
			map[string]any{"reasoning": "mock", "next_speaker": "user"}},
		{"router score", `{"responseMimeType":"application/json","responseJsonSchema":{"type":"OBJECT",
			"properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER"}}}}`,
			map[string]any{"complexity_reasoning": "mock", "complexity_score": 1.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := generate(t, hs.URL, `{"contents":[{"role":"user","parts":[{"text":"x"}]}],"generationConfig":`+tc.config+`}`)
			var got map[string]any
			if err := json.Unmarshal([]byte(text), &got); err != nil {
				t.Fatalf("answer %q is not JSON: %v", text, err)
			}
			for k, want := range tc.want {
				equal(t, k, got[k], want)
			}
		})
	}
	equal(t, "plain side text", generate(t, hs.URL, `{"contents":[{"role":"user","parts":[{"text":"Summarize"}]}]}`), "A summary.")
	equal(t, "turns counted", len(s.Turns()), 0)
}
