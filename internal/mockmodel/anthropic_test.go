package mockmodel

// Anthropic Messages: a streamed turn must produce the event sequence Claude Code consumes,
// with text deltas that join to the configured answer; title and non-streamed requests are
// side requests answered at once and not counted as turns.

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// claudeTurn is a trimmed Claude Code turn request: a context block and the typed text.
const claudeTurn = `{"model":"claude-opus-4-8","stream":true,"max_tokens":64000,
 "messages":[{"role":"user","content":[
   {"type":"text","text":"<system-reminder>\nAs you answer the user's questions...\n</system-reminder>"},
   {"type":"text","text":"say hi there friend"}]}],
 "output_config":{"effort":"high"}}`

// claudeTitle is Claude Code's session-title side request (streamed, with a JSON schema).
const claudeTitle = `{"model":"claude-opus-4-8","stream":true,
 "messages":[{"role":"user","content":[{"type":"text","text":"<session>\nsay hi\n</session>\n\nWrite the title"}]}],
 "output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}}}`

func TestAnthropicStreamedTurn(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Numbered("CLAUDE", 3)})
	code, ctype, body := post(t, hs.URL+"/v1/messages?beta=true", claudeTurn)
	equal(t, "status", code, 200)
	equal(t, "content type", ctype, "text/event-stream")
	evs := parseSSE(t, body)

	const reply = "CLAUDE-1 to: say hi there"
	words := len(chunks(reply))
	want := []string{"message_start", "content_block_start"}
	for range words {
		want = append(want, "content_block_delta")
	}
	want = append(want, "content_block_stop", "message_delta", "message_stop")
	if got := names(evs); !slices.Equal(got, want) {
		t.Fatalf("events = %v\nwant %v", got, want)
	}
	for _, e := range evs {
		equal(t, e.Name+" type field", get(e.Data, "type"), any(e.Name))
	}
	equal(t, "message_start role", get(evs[0].Data, "message", "role"), any("assistant"))
	equal(t, "message_start model", get(evs[0].Data, "message", "model"), any("claude-opus-4-8"))
	equal(t, "content_block_start type", get(evs[1].Data, "content_block", "type"), any("text"))
	var text strings.Builder
	for _, e := range evs[2 : 2+words] {
		equal(t, "delta type", get(e.Data, "delta", "type"), any("text_delta"))
		equal(t, "delta index", get(e.Data, "index"), any(0.0))
		text.WriteString(get(e.Data, "delta", "text").(string))
	}
	equal(t, "streamed text", text.String(), reply)
	equal(t, "stop_reason", get(evs[len(evs)-2].Data, "delta", "stop_reason"), any("end_turn"))

	turns := s.Turns()
	if len(turns) != 1 {
		t.Fatalf("turns logged = %d, want 1: %v", len(turns), s.Requests())
	}
	r := turns[0]
	equal(t, "logged prompt (context block left out)", r.Prompt, "say hi there friend")
	equal(t, "logged reply", r.Reply, reply)
	equal(t, "logged API", r.API, APIAnthropic)
	equal(t, "logged N", r.N, 1)
	equal(t, "logged error", r.Err, "")
}

func TestAnthropicTitleIsSideJSON(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Numbered("CLAUDE", 3)})
	_, _, body := post(t, hs.URL+"/v1/messages", claudeTitle)
	var text strings.Builder
	for _, e := range parseSSE(t, body) {
		if e.Name == "content_block_delta" {
			text.WriteString(get(e.Data, "delta", "text").(string))
		}
	}
	var title map[string]any
	if err := json.Unmarshal([]byte(text.String()), &title); err != nil {
		t.Fatalf("title answer %q is not JSON: %v", text.String(), err)
	}
	if s, ok := title["title"].(string); !ok || s == "" {
		t.Errorf("title answer %q has no title string", text.String())
	}
	equal(t, "turns counted", len(s.Turns()), 0)
	equal(t, "kind", s.Requests()[0].Kind, KindSide)

	// The next real turn is still number 1.
	post(t, hs.URL+"/v1/messages", claudeTurn)
	equal(t, "first turn number", s.Turns()[0].N, 1)
}

func TestAnthropicNonStreamedSide(t *testing.T) {
	s, hs := newTestServer(t, Options{SideText: "short"})
	code, ctype, body := post(t, hs.URL+"/v1/messages",
		`{"model":"m","messages":[{"role":"user","content":"summarise"}]}`)
	equal(t, "status", code, 200)
	equal(t, "content type", ctype, "application/json")
	var msg map[string]any
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, body)
	}
	equal(t, "type", get(msg, "type"), any("message"))
	equal(t, "role", get(msg, "role"), any("assistant"))
	equal(t, "text", get(msg, "content", 0, "text"), any("short"))
	equal(t, "stop_reason", get(msg, "stop_reason"), any("end_turn"))
	r := s.Requests()[0]
	equal(t, "kind", r.Kind, KindSide)
	equal(t, "prompt from a string content", r.Prompt, "summarise")
}

func TestAnthropicBadBody(t *testing.T) {
	s, hs := newTestServer(t, Options{})
	code, _, _ := post(t, hs.URL+"/v1/messages", `{not json`)
	equal(t, "status", code, 400)
	if r := s.Requests()[0]; r.Err == "" || r.Status != 400 {
		t.Errorf("bad body logged as %+v, want status 400 with an error", r)
	}
}
