package usage

// Strategy: each format is read from files written the way its CLI writes them (the
// entries' shapes taken from the installed CLIs' source and real runs), appended to in
// steps as the CLI appends: a half-written last line, a message's usage repeated on
// each of its content blocks, a message rewritten when its tokens arrive, a running
// total repeated. Each Read's result is compared with the exact tokens expected, so a
// request counted twice or lost fails. FuzzRead feeds arbitrary bytes, cut at
// arbitrary points, and checks that no Read panics and that reading a file in pieces
// counts exactly what reading it whole counts.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// appendFile appends s to the file at path.
func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// sum adds up the tokens of reqs.
func sum(reqs []Request) Tokens {
	var t Tokens
	for _, q := range reqs {
		t = t.Add(q.Tokens)
	}
	return t
}

// mustRead reads r, failing the test on an error.
func mustRead(t *testing.T, r *Reader) []Request {
	t.Helper()
	reqs, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	return reqs
}

const claudeA1 = `{"type":"assistant","requestId":"req_1","timestamp":"2026-01-01T10:00:01Z","message":{"id":"msg_1","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"thinking","thinking":"x"}],"usage":{"input_tokens":10,"cache_creation_input_tokens":200,"cache_read_input_tokens":3000,"output_tokens":1}}}` + "\n"
const claudeA2 = `{"type":"assistant","requestId":"req_1","timestamp":"2026-01-01T10:00:02Z","message":{"id":"msg_1","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":10,"cache_creation_input_tokens":200,"cache_read_input_tokens":3000,"output_tokens":25}}}` + "\n"
const claudeUser = `{"type":"user","timestamp":"2026-01-01T10:00:03Z","message":{"role":"user","content":"next"}}` + "\n"
const claudeB = `{"type":"assistant","requestId":"req_2","timestamp":"2026-01-01T10:00:04Z","message":{"id":"msg_2","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":3200,"output_tokens":7}}}` + "\n"
const claudeSynthetic = `{"type":"assistant","timestamp":"2026-01-01T10:00:05Z","message":{"id":"x","model":"<synthetic>","role":"assistant","content":[],"usage":{"input_tokens":0,"output_tokens":0}}}` + "\n"

func TestClaudeCountsEachRequestOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	appendFile(t, path, claudeA1+claudeA2[:40]) // the second block half written
	r := NewReader(Claude, path, time.Time{})
	got := mustRead(t, r)
	if want := (Tokens{10, 1, 3000, 200}); len(got) != 1 || got[0].Tokens != want || got[0].ID != "req_1" || got[0].Model != "claude-sonnet-4-5-20250929" {
		t.Fatalf("first read = %+v, want req_1 with %+v", got, want)
	}
	appendFile(t, path, claudeA2[40:]+claudeUser+claudeSynthetic)
	got = mustRead(t, r)
	if want := (Tokens{Output: 24}); len(got) != 1 || got[0].Tokens != want {
		t.Fatalf("second read = %+v, want only the block's 24 more output tokens", got)
	}
	if got := mustRead(t, r); len(got) != 0 {
		t.Fatalf("a read with nothing new = %+v", got)
	}
	appendFile(t, path, claudeB+claudeA2) // req_1 written again: not counted again
	got = mustRead(t, r)
	if want := (Tokens{5, 7, 3200, 0}); len(got) != 1 || got[0].Tokens != want {
		t.Fatalf("third read = %+v, want req_2's %+v", got, want)
	}
}

func TestReaderSkipsEntriesBeforeSince(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	appendFile(t, path, claudeA1+claudeA2+claudeB)
	since, _ := time.Parse(time.RFC3339, "2026-01-01T10:00:03Z")
	r := NewReader(Claude, path, since)
	if got := sum(mustRead(t, r)); got != (Tokens{5, 7, 3200, 0}) {
		t.Fatalf("resumed transcript counted %+v, want only req_2", got)
	}
}

func TestMissingFileIsReadLater(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	r := NewReader(Claude, path, time.Time{})
	if _, err := r.Read(); err == nil {
		t.Fatal("a missing file read without an error")
	}
	appendFile(t, path, claudeB)
	if got := sum(mustRead(t, r)); got != (Tokens{5, 7, 3200, 0}) {
		t.Fatalf("after the file came: %+v", got)
	}
}

func TestRewrittenShorterIsNotCountedTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	appendFile(t, path, claudeA2+claudeB)
	r := NewReader(Claude, path, time.Time{})
	first := sum(mustRead(t, r))
	if err := os.WriteFile(path, []byte(claudeB), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, r); len(got) != 0 {
		t.Fatalf("re-read after a rewrite counted %+v again (first %+v)", got, first)
	}
}

const codexLines = `{"timestamp":"2026-01-01T10:00:00Z","type":"session_meta","payload":{"id":"t1"}}
{"timestamp":"2026-01-01T10:00:01Z","type":"turn_context","payload":{"cwd":"/x","model":"gpt-5-codex"}}
{"timestamp":"2026-01-01T10:00:02Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":null}}
{"timestamp":"2026-01-01T10:00:03Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1000,"cached_input_tokens":600,"output_tokens":50,"reasoning_output_tokens":20,"total_tokens":1050},"last_token_usage":{"input_tokens":1000,"cached_input_tokens":600,"output_tokens":50,"reasoning_output_tokens":20,"total_tokens":1050}}}}
{"timestamp":"2026-01-01T10:00:04Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1000,"cached_input_tokens":600,"output_tokens":50,"reasoning_output_tokens":20,"total_tokens":1050},"last_token_usage":{"input_tokens":1000,"cached_input_tokens":600,"output_tokens":50,"reasoning_output_tokens":20,"total_tokens":1050}},"rate_limits":{}}}
`
const codexMore = `{"timestamp":"2026-01-01T10:00:05Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":2500,"cached_input_tokens":1900,"output_tokens":80,"reasoning_output_tokens":20,"total_tokens":2580},"last_token_usage":{"input_tokens":1500,"cached_input_tokens":1300,"output_tokens":30,"reasoning_output_tokens":0,"total_tokens":1530}}}}
`

func TestCodexRunningTotal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	appendFile(t, path, codexLines)
	r := NewReader(Codex, path, time.Time{})
	got := mustRead(t, r)
	if want := (Tokens{Input: 400, Output: 50, CacheRead: 600}); len(got) != 1 || got[0].Tokens != want || got[0].Model != "gpt-5-codex" {
		t.Fatalf("first read = %+v, want one request of %+v (the repeated total counted once)", got, want)
	}
	appendFile(t, path, codexMore)
	if got := sum(mustRead(t, r)); got != (Tokens{Input: 200, Output: 30, CacheRead: 1300}) {
		t.Fatalf("second read = %+v", got)
	}
}

func TestGeminiMessageRewrittenWithTokens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	appendFile(t, path, `{"sessionId":"s","projectHash":"h","startTime":"2026-01-01T10:00:00Z"}
{"id":"u1","timestamp":"2026-01-01T10:00:01Z","type":"user","content":[{"text":"hi"}]}
{"id":"g1","timestamp":"2026-01-01T10:00:02Z","type":"gemini","content":"he","model":"gemini-2.5-pro"}
{"id":"g1","timestamp":"2026-01-01T10:00:02Z","type":"gemini","content":"hello","model":"gemini-2.5-pro","tokens":{"input":900,"output":40,"cached":500,"thoughts":10,"tool":0,"total":950}}
`)
	r := NewReader(Gemini, path, time.Time{})
	got := mustRead(t, r)
	if want := (Tokens{Input: 400, Output: 50, CacheRead: 500}); len(got) != 1 || got[0].Tokens != want || got[0].Model != "gemini-2.5-pro" {
		t.Fatalf("read = %+v, want %+v", got, want)
	}
	appendFile(t, path, `{"$set":{"messages":[{"id":"g1","timestamp":"2026-01-01T10:00:02Z","type":"gemini","content":"hello","model":"gemini-2.5-pro","tokens":{"input":900,"output":40,"cached":500,"thoughts":10,"tool":0,"total":950}}]}}
{"$rewindTo":"g1"}
`)
	if got := mustRead(t, r); len(got) != 0 {
		t.Fatalf("$set of a counted message counted again: %+v", got)
	}
}

func TestGeminiWholeJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.json")
	appendFile(t, path, `{"messages":[{"id":"g1","type":"gemini","model":"gemini-2.5-flash","tokens":{"input":100,"output":20,"cached":0,"thoughts":0,"tool":0,"total":120}}]}`)
	r := NewReader(Gemini, path, time.Time{})
	if got := sum(mustRead(t, r)); got != (Tokens{Input: 100, Output: 20}) {
		t.Fatalf("first read = %+v", got)
	}
	if got := mustRead(t, r); len(got) != 0 {
		t.Fatalf("the same file read again counted %+v", got)
	}
}

func TestQwenAndPi(t *testing.T) {
	dir := t.TempDir()
	q := filepath.Join(dir, "q.jsonl")
	appendFile(t, q, `{"uuid":"a1","type":"user","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","parts":[{"text":"hi"}]}}
{"uuid":"a2","type":"assistant","timestamp":"2026-01-01T10:00:01Z","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"ok"}]},"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":9,"cachedContentTokenCount":20,"thoughtsTokenCount":3,"totalTokenCount":132}}
`)
	if got := mustRead(t, NewReader(Qwen, q, time.Time{})); len(got) != 1 || got[0].Tokens != (Tokens{Input: 100, Output: 12, CacheRead: 20}) || got[0].Model != "qwen3-coder-plus" {
		t.Fatalf("qwen = %+v", got)
	}
	p := filepath.Join(dir, "p.jsonl")
	appendFile(t, p, `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T10:00:00Z","cwd":"/x"}
{"type":"message","id":"b2","parentId":"a1","timestamp":"2026-01-01T10:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"Hi!"}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":20,"cacheRead":30,"cacheWrite":40,"totalTokens":100,"cost":{"input":0.1,"output":0.2,"cacheRead":0,"cacheWrite":0,"total":0.3}},"stopReason":"stop"}}
`)
	got := mustRead(t, NewReader(Pi, p, time.Time{}))
	if len(got) != 1 || got[0].Tokens != (Tokens{10, 20, 30, 40}) || got[0].CostUSD == nil || *got[0].CostUSD != 0.3 {
		t.Fatalf("pi = %+v", got)
	}
	if c, ok := DefaultPrices().Cost(got[0]); !ok || c != 0.3 {
		t.Fatalf("pi's own cost not used: %v %v", c, ok)
	}
}

// FuzzRead checks that no input panics a Reader and that a file read in two pieces,
// cut anywhere, counts exactly what the same file read whole counts.
func FuzzRead(f *testing.F) {
	for _, s := range []string{claudeA1 + claudeA2 + claudeB, codexLines + codexMore, "{\n}\n{", "\x00\xff{\"type\":\"assistant\"\n"} {
		f.Add(s, uint(len(s)/2), uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, cut uint, format uint8) {
		formats := []Format{Claude, Codex, Gemini, Qwen, Pi}
		fm := formats[int(format)%len(formats)]
		cut %= uint(len(s) + 1)
		dir := t.TempDir()
		whole := filepath.Join(dir, "whole.jsonl")
		appendFile(t, whole, s)
		want, _ := NewReader(fm, whole, time.Time{}).Read()
		split := filepath.Join(dir, "split.jsonl")
		appendFile(t, split, s[:cut])
		r := NewReader(fm, split, time.Time{})
		a, _ := r.Read()
		appendFile(t, split, s[cut:])
		b, _ := r.Read()
		if got, w := sum(append(a, b...)), sum(want); got != w {
			t.Fatalf("%s read in pieces counted %+v, whole %+v", fm, got, w)
		}
	})
}

// TestReadRefusesAFIFO: a usage path naming a FIFO (a pane's hook chose it) is refused
// at once, not waited on until something writes to it.
func TestReadRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "usage.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := NewReader(Claude, path, time.Time{}).Read()
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Read of a FIFO: %v, want not a regular file", err)
		}
	case <-time.After(10 * time.Second):
		// Unblock the open so the goroutine ends, then fail.
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("Read of a FIFO waited for a writer")
	}
}

// A usage file is the pane's program's to write: a forged count past any model's is
// counted as MaxRequestTokens, and sums stop at MaxTokens, so that no count wraps a
// total below zero (which turned every cap off) or overflows the store's sums.
func TestHugeCountsDoNotWrap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	appendFile(t, path, `{"type":"assistant","requestId":"req_9","timestamp":"2026-01-01T10:00:01Z","message":{"id":"msg_9","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[],"usage":{"input_tokens":9223372036854775807,"output_tokens":1,"cache_read_input_tokens":-5}}}`+"\n")
	got := mustRead(t, NewReader(Claude, path, time.Time{}))
	if want := (Tokens{Input: MaxRequestTokens, Output: 1}); len(got) != 1 || got[0].Tokens != want {
		t.Fatalf("read = %+v, want %+v", got, want)
	}
	total := Tokens{Input: MaxTokens - 1}
	for range 3 {
		total = total.Add(Tokens{Input: MaxRequestTokens, Output: MaxTokens})
	}
	if total.Input != MaxTokens || total.Output != MaxTokens || total.Total() != MaxTokens {
		t.Fatalf("sums = %+v (total %d), want each at most %d", total, total.Total(), int64(MaxTokens))
	}
}

// Codex writes a thread's running total: a long thread passes a billion cached tokens,
// and what each request adds is still counted (the clamp is one request's).
func TestCodexLongThreadKeepsCounting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	line := func(sec int, cached int64) string {
		return fmt.Sprintf(`{"timestamp":"2026-01-01T10:00:%02dZ","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":%d,"output_tokens":50}}}}`+"\n", sec, cached+1000, cached)
	}
	r := NewReader(Codex, path, time.Time{})
	appendFile(t, path, line(1, 999_000_000))
	mustRead(t, r)
	for i, cached := range []int64{999_800_000, 1_000_600_000, 1_001_400_000} {
		appendFile(t, path, line(2+i, cached))
		if got := mustRead(t, r); len(got) != 1 || got[0].Tokens.CacheRead != 800_000 {
			t.Errorf("request %d, 800k cached tokens %d into the thread: %+v", i, cached, got)
		}
	}
}
