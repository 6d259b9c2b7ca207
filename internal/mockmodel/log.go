package mockmodel

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Kind classifies a request.
type Kind string

// The kinds of request the server tells apart.
const (
	// KindTurn is a conversation turn: the user's message, answered with the ReplyFunc.
	KindTurn Kind = "turn"
	// KindSide is a request a CLI makes on its own (title generation, routing, next-speaker
	// check), answered briefly.
	KindSide Kind = "side"
	// KindOther is anything else: probes, model lists, token counts, unknown paths.
	KindOther Kind = "other"
)

// Request is one entry of the server's request log, recorded when the answer is complete
// (or the client went away).
type Request struct {
	// Start and End are when the request arrived and when its answer ended.
	Start, End time.Time
	// Method and Path are the HTTP method and the path with its query.
	Method, Path string
	// API is the protocol the path belongs to (APINone outside the three).
	API API
	// Kind says how the request was answered.
	Kind Kind
	// Model and Stream are what the body asked for.
	Model  string
	Stream bool
	// Prompt is the text of the last user message (see Prompt.Text).
	Prompt string
	// N is the turn number for a KindTurn request, 0 otherwise.
	N int
	// Reply is the text answered (the JSON text for a schema-shaped side answer).
	Reply string
	// Status is the HTTP status sent.
	Status int
	// BodyLen is the size of the request body in bytes; Body the body as read (up to
	// maxBody): a test checks what context a CLI sent, e.g. a resumed conversation's
	// earlier turns.
	BodyLen int
	Body    string
	// Err is set when the answer was cut short (the client disconnected, the server closed).
	Err string
	// Usage is the token usage the answer reported (zero where it reported none).
	Usage Usage
}

// Usage is what an answer reported it used, by kind: Input excludes cached input,
// CacheRead is input read from the cache, CacheWrite input written to it.
type Usage struct {
	Input, Output, CacheRead, CacheWrite int
}

// String is a one-line summary of the request for logs.
func (r Request) String() string {
	s := fmt.Sprintf("%s %s %s %s status=%d", r.Start.Format("15:04:05.000"), r.Method, r.Path, r.Kind, r.Status)
	if r.API != APINone {
		s += fmt.Sprintf(" api=%s model=%q stream=%v body=%dB", r.API, r.Model, r.Stream, r.BodyLen)
	}
	if r.Kind == KindTurn {
		s += fmt.Sprintf(" n=%d", r.N)
	}
	if r.Prompt != "" {
		s += fmt.Sprintf(" prompt=%q", clip(r.Prompt, 80))
	}
	if r.Reply != "" {
		s += fmt.Sprintf(" reply=%q", clip(r.Reply, 80))
	}
	if r.Err != "" {
		s += " err=" + r.Err
	}
	return s
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// requestLog holds the recorded requests. changed is closed and replaced on every append, so
// waiters sleep on a channel instead of polling.
type requestLog struct {
	mu      sync.Mutex
	entries []Request
	changed chan struct{}
	out     io.Writer // optional: one line per request
}

func newRequestLog(out io.Writer) *requestLog {
	return &requestLog{changed: make(chan struct{}), out: out}
}

func (l *requestLog) add(r Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, r)
	close(l.changed)
	l.changed = make(chan struct{})
	if l.out != nil {
		fmt.Fprintln(l.out, strings.ReplaceAll(r.String(), "\n", `\n`))
	}
}

// snapshot returns a copy of the entries and the channel closed by the next append.
func (l *requestLog) snapshot() ([]Request, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Request(nil), l.entries...), l.changed
}

// Requests returns a copy of the request log, oldest first.
func (s *Server) Requests() []Request {
	entries, _ := s.log.snapshot()
	return entries
}

// Turns returns the logged conversation turns (KindTurn requests), oldest first.
func (s *Server) Turns() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Kind == KindTurn {
			out = append(out, r)
		}
	}
	return out
}

// WaitFor returns the first logged request (oldest first) for which match is true, waiting
// for new requests until ctx ends; then it returns ctx's error.
func (s *Server) WaitFor(ctx context.Context, match func(Request) bool) (Request, error) {
	seen := 0
	for {
		entries, changed := s.log.snapshot()
		for _, r := range entries[seen:] {
			if match(r) {
				return r, nil
			}
		}
		seen = len(entries)
		select {
		case <-changed:
		case <-ctx.Done():
			return Request{}, fmt.Errorf("mockmodel: wait for a request: %w", ctx.Err())
		}
	}
}
