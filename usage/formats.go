package usage

import (
	"encoding/json"
	"strconv"
)

// claude reads a Claude Code transcript entry: an assistant message's usage, keyed by
// its request id (or message id), the model that answered. Its synthetic messages
// (model "<synthetic>": errors shown as answers) cost nothing.
func (r *Reader) claude(l []byte, out *collected) {
	var e struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		RequestID string `json:"requestId"`
		Message   struct {
			ID    string `json:"id"`
			Model string `json:"model"`
			Usage *struct {
				Input      int64 `json:"input_tokens"`
				Output     int64 `json:"output_tokens"`
				CacheWrite int64 `json:"cache_creation_input_tokens"`
				CacheRead  int64 `json:"cache_read_input_tokens"`
			} `json:"usage"`
		} `json:"message"`
	}
	if json.Unmarshal(l, &e) != nil || e.Type != "assistant" || e.Message.Usage == nil || e.Message.Model == "<synthetic>" {
		return
	}
	id := e.RequestID
	if id == "" {
		id = e.Message.ID
	}
	u := e.Message.Usage
	r.add(out, id, e.Message.Model, e.Timestamp, Tokens{
		Input: nonneg(u.Input), Output: nonneg(u.Output), CacheRead: nonneg(u.CacheRead), CacheWrite: nonneg(u.CacheWrite),
	}, nil)
}

// codex reads a Codex rollout entry: turn_context names the model; a token_count
// event carries the thread's running total, whose growth since the last one is one
// request's usage. Input counts cached input too (OpenAI's way): the cached part is
// CacheRead, the part written to the cache (cache_write_input_tokens, where given)
// CacheWrite. Output counts reasoning tokens.
func (r *Reader) codex(l []byte, out *collected) {
	var e struct {
		Timestamp string `json:"timestamp"`
		Type      string `json:"type"`
		Payload   struct {
			Type  string `json:"type"`
			Model string `json:"model"`
			Info  *struct {
				Total *struct {
					Input  int64 `json:"input_tokens"`
					Cached int64 `json:"cached_input_tokens"`
					Write  int64 `json:"cache_write_input_tokens"`
					Output int64 `json:"output_tokens"`
				} `json:"total_token_usage"`
			} `json:"info"`
		} `json:"payload"`
	}
	if json.Unmarshal(l, &e) != nil {
		return
	}
	switch {
	case e.Type == "turn_context" && e.Payload.Model != "":
		r.model = e.Payload.Model
	case e.Type == "event_msg" && e.Payload.Type == "token_count" && e.Payload.Info != nil && e.Payload.Info.Total != nil:
		t := e.Payload.Info.Total
		cached := min(nonneg(t.Cached), nonneg(t.Input))
		write := min(nonneg(t.Write), nonneg(t.Input)-cached)
		now := Tokens{Input: nonneg(t.Input) - cached - write, Output: nonneg(t.Output), CacheRead: cached, CacheWrite: write}
		delta, most := grow(r.total, now)
		r.total = most
		if delta.IsZero() || r.before(e.Timestamp) {
			return
		}
		r.n++
		id := "codex-" + e.Timestamp + "-" + strconv.Itoa(r.n)
		r.seen[id] = delta
		out.at = ensure(out.at)
		out.at[id] = len(out.reqs)
		out.reqs = append(out.reqs, Request{ID: id, Model: r.model, Tokens: delta})
	}
}

// ensure returns m, made when nil.
func ensure(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// geminiCounts are Gemini's usage counts, as Gemini CLI's chat file ("tokens") and
// the API's usageMetadata (Qwen Code's chat file) name them.
type geminiCounts struct {
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
	Tool     int64 `json:"tool"`

	Prompt     int64 `json:"promptTokenCount"`
	Candidates int64 `json:"candidatesTokenCount"`
	CachedAPI  int64 `json:"cachedContentTokenCount"`
	ThoughtAPI int64 `json:"thoughtsTokenCount"`
	ToolAPI    int64 `json:"toolUsePromptTokenCount"`
}

// tokens maps Gemini's counts: the prompt counts its cached part (CacheRead) and the
// tool-use prompt is input too; thoughts are billed as output.
func (g geminiCounts) tokens() Tokens {
	prompt := nonneg(g.Input) + nonneg(g.Prompt)
	cached := min(nonneg(g.Cached)+nonneg(g.CachedAPI), prompt)
	return Tokens{
		Input:     prompt - cached + nonneg(g.Tool) + nonneg(g.ToolAPI),
		Output:    nonneg(g.Output) + nonneg(g.Candidates) + nonneg(g.Thoughts) + nonneg(g.ThoughtAPI),
		CacheRead: cached,
	}
}

// gemini reads a Gemini CLI chat file line: a message, or {"$set":{"messages":[…]}}
// holding them all again ({"$rewindTo"} drops messages, not what they cost).
func (r *Reader) gemini(l []byte, out *collected) {
	var set struct {
		Set *struct {
			Messages []json.RawMessage `json:"messages"`
		} `json:"$set"`
	}
	if json.Unmarshal(l, &set) == nil && set.Set != nil {
		for _, m := range set.Set.Messages {
			r.geminiMessage(m, out)
		}
		return
	}
	r.geminiMessage(l, out)
}

// geminiMessage counts one Gemini CLI message of type "gemini" that has its tokens.
func (r *Reader) geminiMessage(b []byte, out *collected) {
	var m struct {
		ID        string        `json:"id"`
		Type      string        `json:"type"`
		Timestamp string        `json:"timestamp"`
		Model     string        `json:"model"`
		Tokens    *geminiCounts `json:"tokens"`
	}
	if json.Unmarshal(b, &m) != nil || m.Type != "gemini" || m.Tokens == nil {
		return
	}
	r.add(out, m.ID, m.Model, m.Timestamp, m.Tokens.tokens(), nil)
}

// qwen reads a Qwen Code chat record: an assistant record's usageMetadata, keyed by
// its uuid.
func (r *Reader) qwen(l []byte, out *collected) {
	var e struct {
		UUID      string        `json:"uuid"`
		Type      string        `json:"type"`
		Timestamp string        `json:"timestamp"`
		Model     string        `json:"model"`
		Usage     *geminiCounts `json:"usageMetadata"`
	}
	if json.Unmarshal(l, &e) != nil || e.Type != "assistant" || e.Usage == nil {
		return
	}
	r.add(out, e.UUID, e.Model, e.Timestamp, e.Usage.tokens(), nil)
}

// pi reads a pi session entry: an assistant message's usage and pi's own cost of it.
func (r *Reader) pi(l []byte, out *collected) {
	var e struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		Timestamp string `json:"timestamp"`
		Message   struct {
			Role  string `json:"role"`
			Model string `json:"model"`
			Usage *struct {
				Input      int64 `json:"input"`
				Output     int64 `json:"output"`
				CacheRead  int64 `json:"cacheRead"`
				CacheWrite int64 `json:"cacheWrite"`
				Cost       *struct {
					Total *float64 `json:"total"`
				} `json:"cost"`
			} `json:"usage"`
		} `json:"message"`
	}
	if json.Unmarshal(l, &e) != nil || e.Type != "message" || e.Message.Role != "assistant" || e.Message.Usage == nil {
		return
	}
	u := e.Message.Usage
	var cost *float64
	if u.Cost != nil && u.Cost.Total != nil && *u.Cost.Total >= 0 {
		c := *u.Cost.Total
		cost = &c
	}
	r.add(out, e.ID, e.Message.Model, e.Timestamp, Tokens{
		Input: nonneg(u.Input), Output: nonneg(u.Output), CacheRead: nonneg(u.CacheRead), CacheWrite: nonneg(u.CacheWrite),
	}, cost)
}
