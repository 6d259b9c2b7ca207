package mockmodel

import (
	"fmt"
	"strings"
	"unicode"
)

// DefaultText is the answer of a Server built without a ReplyFunc: the same words the recorded
// fixtures show, so a run can be compared with them.
const DefaultText = "Hello from the offline mock server. Line two done."

// API names one of the model APIs the server speaks.
type API string

// The APIs a request can belong to; APINone is a request outside all three (a probe, a 404).
const (
	APINone      API = ""
	APIAnthropic API = "anthropic"
	APIOpenAI    API = "openai"
	APIGemini    API = "gemini"
	// APIOpenAIChat is OpenAI's chat/completions API, which OpenAI-compatible providers
	// speak.
	APIOpenAIChat API = "openai-chat"
)

// Prompt is what a ReplyFunc sees of one conversation turn.
type Prompt struct {
	// API is the protocol the request came in on.
	API API
	// Model is the model name the client asked for.
	Model string
	// Text is the text of the last user message, with the context blocks the CLIs prepend
	// (`<system-reminder>`, `<environment_context>`, ...) left out.
	Text string
	// N counts the conversation turns this server has answered, this one included (1-based).
	// Side requests do not count.
	N int
	// ToolResult is set when the request brings back the result of a tool call (the last
	// message holds it): the turn goes on after a tool ran.
	ToolResult bool
}

// ReplyFunc returns the answer to one conversation turn. It is called from the request's
// goroutine: a function that keeps state must lock it.
type ReplyFunc func(p Prompt) string

// Fixed returns a ReplyFunc that always answers text.
func Fixed(text string) ReplyFunc {
	return func(Prompt) string { return text }
}

// Numbered returns a ReplyFunc that answers "LABEL-N to: FIRST WORDS", where N is the turn
// number on this server and FIRST WORDS are up to words words of the prompt (newlines and
// runs of spaces folded). Two agents on servers with different labels give answers a test can
// tell apart and trace back to the message that caused them.
func Numbered(label string, words int) ReplyFunc {
	return func(p Prompt) string {
		return fmt.Sprintf("%s-%d to: %s", label, p.N, FirstWords(p.Text, words))
	}
}

// FirstWords returns up to n whitespace-separated words of s joined by single spaces.
func FirstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}

// chunks splits text into the deltas a stream sends: each chunk is a word with the whitespace
// before it, so the chunks joined give back text exactly. An empty text gives no chunks.
func chunks(text string) []string {
	var out []string
	start := 0
	inWord := false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if inWord && space {
			out = append(out, text[start:i])
			start = i
		}
		inWord = !space
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}
