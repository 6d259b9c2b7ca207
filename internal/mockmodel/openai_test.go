package mockmodel

// OpenAI Responses: a turn must stream response.created, response.output_item.added, one
// response.output_text.delta per word, response.output_item.done and response.completed, in
// the shapes Codex 0.169 reads; its title request (a json_schema text format) is a side
// request answered with JSON that fits the schema.

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// codexTurn is a trimmed Codex turn: developer instructions, the environment context as a
// user message, then the typed text.
const codexTurn = `{"model":"gpt-6.1-sol","stream":true,"input":[
 {"type":"additional_tools","role":"developer","tools":[]},
 {"type":"message","role":"developer","content":[{"type":"input_text","text":"You are Codex"}]},
 {"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/p</cwd>\n</environment_context>"}]},
 {"type":"message","role":"user","content":[{"type":"input_text","text":"claude (1):\n\nhello over there"}]}],
 "text":{"verbosity":"low"}}`

// codexTitle is Codex's thread-title side request.
const codexTitle = `{"model":"gpt-6.1-sol","stream":true,"input":[
 {"type":"message","role":"user","content":[{"type":"input_text","text":"Generate a concise, single-line task title"}]}],
 "text":{"format":{"type":"json_schema","strict":true,"name":"codex_output_schema",
  "schema":{"type":"object","properties":{"title":{"type":"string","minLength":1,"maxLength":36}},"required":["title"]}}}}`

func TestOpenAIStreamedTurn(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Numbered("CODEX", 4)})
	code, ctype, body := post(t, hs.URL+"/v1/responses", codexTurn)
	equal(t, "status", code, 200)
	equal(t, "content type", ctype, "text/event-stream")
	evs := parseSSE(t, body)

	const reply = "CODEX-1 to: claude (1): hello over"
	words := len(chunks(reply))
	want := []string{"response.created", "response.output_item.added"}
	for range words {
		want = append(want, "response.output_text.delta")
	}
	want = append(want, "response.output_item.done", "response.completed")
	if got := names(evs); !slices.Equal(got, want) {
		t.Fatalf("events = %v\nwant %v", got, want)
	}
	for _, e := range evs {
		equal(t, e.Name+" type field", get(e.Data, "type"), any(e.Name))
	}
	equal(t, "created response id", get(evs[0].Data, "response", "id"), any("resp_mock"))
	added := evs[1].Data
	equal(t, "added item type", get(added, "item", "type"), any("message"))
	equal(t, "added item role", get(added, "item", "role"), any("assistant"))
	itemID := get(added, "item", "id")
	var text strings.Builder
	for _, e := range evs[2 : 2+words] {
		equal(t, "delta item_id", get(e.Data, "item_id"), itemID)
		equal(t, "delta output_index", get(e.Data, "output_index"), any(0.0))
		equal(t, "delta content_index", get(e.Data, "content_index"), any(0.0))
		text.WriteString(get(e.Data, "delta").(string))
	}
	equal(t, "streamed text", text.String(), reply)
	done := evs[len(evs)-2].Data
	equal(t, "done item id", get(done, "item", "id"), itemID)
	equal(t, "done item status", get(done, "item", "status"), any("completed"))
	equal(t, "done text", get(done, "item", "content", 0, "text"), any(reply))
	equal(t, "done content type", get(done, "item", "content", 0, "type"), any("output_text"))
	completed := evs[len(evs)-1].Data
	equal(t, "completed status", get(completed, "response", "status"), any("completed"))
	if get(completed, "response", "usage", "total_tokens") == nil {
		t.Errorf("response.completed has no usage.total_tokens: %v", completed)
	}
	r := s.Turns()[0]
	equal(t, "logged prompt (environment context left out)", r.Prompt, "claude (1):\n\nhello over there")
	equal(t, "logged API", r.API, APIOpenAI)
}

func TestOpenAITitleIsSideJSON(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Numbered("CODEX", 4)})
	_, _, body := post(t, hs.URL+"/v1/responses", codexTitle)
	evs := parseSSE(t, body)
	text, _ := get(evs[len(evs)-2].Data, "item", "content", 0, "text").(string)
	var v map[string]any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("title answer %q is not JSON: %v", text, err)
	}
	if title, _ := v["title"].(string); title == "" || len(title) > 36 {
		t.Errorf("title %q does not fit the schema", title)
	}
	equal(t, "turns counted", len(s.Turns()), 0)
}

func TestOpenAINonStreamed(t *testing.T) {
	_, hs := newTestServer(t, Options{Reply: Fixed("plain answer")})
	_, ctype, body := post(t, hs.URL+"/v1/responses", `{"model":"m","input":"hi"}`)
	equal(t, "content type", ctype, "application/json")
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	equal(t, "status", get(v, "status"), any("completed"))
	equal(t, "text", get(v, "output", 0, "content", 0, "text"), any("plain answer"))
}

func TestModelsList(t *testing.T) {
	_, hs := newTestServer(t, Options{})
	resp, err := http.Get(hs.URL + "/v1/models?client_version=0.169.0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	equal(t, "status", resp.StatusCode, 200)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("models answer is not JSON: %v", err)
	}
	if _, ok := v["data"].([]any); !ok {
		t.Errorf("models answer has no data list: %s", b)
	}
}
