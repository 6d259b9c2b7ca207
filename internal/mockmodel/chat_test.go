package mockmodel

// OpenAI chat/completions: a turn streams data-only chat.completion.chunk events (the role,
// one per word, finish_reason "stop", usage when asked) and ends with [DONE]; a request for
// JSON or a title is a side request that does not count as a turn.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

const chatTurn = `{"model":"mock","stream":true,"stream_options":{"include_usage":true},"messages":[
 {"role":"system","content":"You are a coding agent."},
 {"role":"user","content":[{"type":"text","text":"claude (1):\n\nhello over there"}]}]}`

const chatTitle = `{"model":"mock","stream":false,"messages":[
 {"role":"system","content":"You are a title generator. Generate a short title for the conversation."},
 {"role":"user","content":"claude (1):\n\nhello over there"}]}`

func TestChatStreamedTurn(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Numbered("QWEN", 4)})
	code, ctype, body := post(t, hs.URL+"/v1/chat/completions", chatTurn)
	equal(t, "status", code, 200)
	equal(t, "content type", ctype, "text/event-stream")
	const done = "data: [DONE]\n\n"
	if !bytes.HasSuffix(body, []byte(done)) {
		t.Fatalf("stream does not end with [DONE]:\n%s", body)
	}
	evs := parseSSE(t, bytes.TrimSuffix(body, []byte(done)))
	const reply = "QWEN-1 to: claude (1): hello over"
	words := len(chunks(reply))
	if len(evs) != words+3 {
		t.Fatalf("%d events, want the role, %d words, the stop and the usage:\n%s", len(evs), words, body)
	}
	equal(t, "first delta role", get(evs[0].Data, "choices", 0, "delta", "role"), any("assistant"))
	var text strings.Builder
	for _, e := range evs[1 : 1+words] {
		equal(t, "object", get(e.Data, "object"), any("chat.completion.chunk"))
		text.WriteString(get(e.Data, "choices", 0, "delta", "content").(string))
	}
	equal(t, "streamed text", text.String(), reply)
	equal(t, "finish reason", get(evs[1+words].Data, "choices", 0, "finish_reason"), any("stop"))
	equal(t, "usage", get(evs[2+words].Data, "usage", "total_tokens"), any(19.0))
	r := s.Requests()[0]
	equal(t, "logged API", r.API, APIOpenAIChat)
	equal(t, "logged kind", r.Kind, KindTurn)
	equal(t, "logged prompt", r.Prompt, "claude (1):\n\nhello over there")
}

func TestChatTitleIsASideRequest(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Numbered("QWEN", 4)})
	code, _, body := post(t, hs.URL+"/v1/chat/completions", chatTitle)
	equal(t, "status", code, 200)
	if !bytes.Contains(body, []byte(`"content":"Mock session"`)) {
		t.Fatalf("title answer:\n%s", body)
	}
	code, _, _ = post(t, hs.URL+"/v1/chat/completions", chatTurn)
	equal(t, "status", code, 200)
	reqs := s.Requests()
	equal(t, "first kind", reqs[0].Kind, KindSide)
	equal(t, "turn number after a side request", reqs[1].N, 1)
}

// Qwen Code's own requests after a turn (its memory agent, its memory consolidation, its
// next-prompt suggestion), and a long system prompt that speaks of titles, are told apart from turns.
func TestChatBackgroundRequests(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Numbered("QWEN", 4)})
	long := strings.Repeat("You are Qwen Code. Generate titles for files when asked. ", 100)
	for _, body := range []string{
		`{"model":"mock","messages":[{"role":"user","content":"Managed memory has TWO directories. Choose which one"}]}`,
		`{"model":"mock","messages":[{"role":"user","content":"[SUGGESTION MODE: Suggest what the user might type next.]"}]}`,
		"{\"model\":\"mock\",\"messages\":[{\"role\":\"user\",\"content\":\"Memory directory: `/home/me/.qwen/projects/p/memory`\\n\\n## Phase 1 — Orient\"}]}",
		`{"model":"mock","messages":[{"role":"system","content":"` + long + `"},{"role":"user","content":"say hi"}]}`,
	} {
		if code, _, _ := post(t, hs.URL+"/v1/chat/completions", body); code != 200 {
			t.Fatalf("status %d for %s", code, body)
		}
	}
	reqs := s.Requests()
	equal(t, "memory request", reqs[0].Kind, KindSide)
	equal(t, "suggestion request", reqs[1].Kind, KindSide)
	equal(t, "memory consolidation request", reqs[2].Kind, KindSide)
	equal(t, "turn with a long system prompt", reqs[3].Kind, KindTurn)
	equal(t, "its number", reqs[3].N, 1)
}

// A turn set to pause streams its answer up to the pause text, waits, then streams the
// rest: the wait falls between the delta that completes the text and the next one.
func TestChatStreamPausesMidAnswer(t *testing.T) {
	const pause = 400 * time.Millisecond
	_, hs := newTestServer(t, Options{Reply: Fixed("1. Run the tests. Then a long paragraph."), PauseAfter: "tests.", Pause: pause})
	start := time.Now()
	resp, err := http.Post(hs.URL+"/v1/chat/completions", "application/json", strings.NewReader(chatTurn))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var text strings.Builder
	gaps := map[string]time.Duration{} // the wait before each delta, as read
	at := map[string]time.Duration{}   // when each delta was read, from the request
	last := time.Now()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatal(err)
		}
		if len(c.Choices) == 1 && c.Choices[0].Delta.Content != "" {
			gaps[c.Choices[0].Delta.Content] = time.Since(last)
			at[c.Choices[0].Delta.Content] = time.Since(start)
			text.WriteString(c.Choices[0].Delta.Content)
		}
		last = time.Now()
	}
	equal(t, "streamed text", text.String(), "1. Run the tests. Then a long paragraph.")
	// The delta after the pause text is written a pause after that text, so it is read
	// at least a pause after the request. (The gap between the two reads can be shorter:
	// the text before the pause may itself be read late, on a busy machine.)
	if at[" Then"] < pause {
		t.Errorf("the delta after the pause text was read %v after the request, want at least %v", at[" Then"], pause)
	}
	if gaps[" tests."] >= pause || gaps[" a"] >= pause {
		t.Errorf("the stream paused elsewhere: %v", gaps)
	}
}
