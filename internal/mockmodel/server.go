package mockmodel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// maxBody caps how much of a request body is read (the CLIs send up to ~100 KB of context).
const maxBody = 32 << 20

// Options configure a Server.
type Options struct {
	// Reply answers conversation turns; nil answers DefaultText.
	Reply ReplyFunc
	// Duration is how long one turn's answer takes to stream, spread evenly over its words;
	// 0 sends every delta at once.
	Duration time.Duration
	// SideText answers side requests that ask for no JSON schema; "" means "ok".
	SideText string
	// Log, when set, receives one line per request as it completes.
	Log io.Writer
	// Tool, when set, answers turns whose prompt holds its trigger with a shell tool call.
	Tool *Tool
	// PauseAfter and Pause make a turn's stream stop mid-answer: in a turn whose answer
	// holds PauseAfter, the stream waits Pause once after the delta that completes it
	// (a model that pauses, as a slow provider does), then goes on.
	PauseAfter string
	Pause      time.Duration
}

// Server is the fake model server: an http.Handler answering the three model APIs. Its
// methods are safe for concurrent use.
type Server struct {
	opts Options
	log  *requestLog

	mu    sync.Mutex
	turns int          // conversation turns answered so far
	ids   atomic.Int64 // answers given ids so far (nextID)
	// then is the call that answers the next tool result (Tool.Then of the last call).
	then *Tool
	// loaded are the deferred tools a ToolSearch call loaded (Tool.Offered).
	loaded map[string]bool

	closeOnce sync.Once
	done      chan struct{} // closed by Close: streams in flight stop
}

var _ http.Handler = (*Server)(nil)

// New returns a Server configured by o.
func New(o Options) *Server {
	if o.Reply == nil {
		o.Reply = Fixed(DefaultText)
	}
	if o.SideText == "" {
		o.SideText = "ok"
	}
	return &Server{opts: o, log: newRequestLog(o.Log), loaded: map[string]bool{}, done: make(chan struct{})}
}

// Close ends the streams in flight (their clients see a cut stream) and makes later streams
// end at once. It does not stop a listener: close the httptest.Server or cancel Serve's
// context for that.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.done) })
}

// nextID returns a new id for an answer.
func (s *Server) nextID() string {
	return strconv.FormatInt(s.ids.Add(1), 10)
}

// nextTurn counts a conversation turn and returns its number.
func (s *Server) nextTurn() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns++
	return s.turns
}

// handler answers one routed request; it fills in rec (everything but the times, method,
// path and body size, which ServeHTTP sets).
type handler func(w http.ResponseWriter, r *http.Request, body []byte, rec *Request)

// ServeHTTP routes a request to the API it belongs to and logs it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := Request{Start: time.Now(), Method: r.Method, Path: r.URL.RequestURI(), Kind: KindOther}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	rec.BodyLen, rec.Body = len(body), string(body)
	if err != nil {
		rec.Err = fmt.Sprintf("read body: %v", err)
		writeError(w, http.StatusBadRequest, "invalid_request_error", "mock: cannot read body")
		rec.Status = http.StatusBadRequest
	} else {
		s.route(r)(w, r, body, &rec)
	}
	rec.End = time.Now()
	s.log.add(rec)
}

// route picks the handler for a request by method and path, as the Python reference does.
func (s *Server) route(r *http.Request) handler {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodHead:
		return handleHead
	case r.Method == http.MethodGet && strings.HasSuffix(strings.TrimRight(p, "/"), "/models"):
		return handleModels
	case r.Method != http.MethodPost:
		return handleNotFound
	case strings.Contains(p, "count_tokens") || strings.Contains(p, ":countTokens"):
		return handleCountTokens
	case strings.HasSuffix(p, "/v1/messages"):
		return s.handleAnthropic
	case strings.HasSuffix(strings.TrimRight(p, "/"), "/responses"):
		return s.handleOpenAI
	case strings.HasSuffix(strings.TrimRight(p, "/"), "/chat/completions"):
		return s.handleChat
	case strings.Contains(p, ":streamGenerateContent"):
		return s.handleGeminiStream
	case strings.Contains(p, ":generateContent"):
		return s.handleGeminiGenerate
	}
	return handleNotFound
}

func handleHead(w http.ResponseWriter, _ *http.Request, _ []byte, rec *Request) {
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
	rec.Status = http.StatusOK
}

func handleModels(w http.ResponseWriter, _ *http.Request, _ []byte, rec *Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{}, "models": []any{}})
	rec.Status = http.StatusOK
}

func handleCountTokens(w http.ResponseWriter, _ *http.Request, _ []byte, rec *Request) {
	writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 10, "totalTokens": 10})
	rec.Status = http.StatusOK
}

func handleNotFound(w http.ResponseWriter, _ *http.Request, _ []byte, rec *Request) {
	writeError(w, http.StatusNotFound, "not_found_error", "mock: not found")
	rec.Status = http.StatusNotFound
}

// writeError answers with an error body every one of the three clients can read.
func writeError(w http.ResponseWriter, code int, typ, msg string) {
	writeJSON(w, code, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg, "code": code}})
}

// Serve answers on addr (e.g. "127.0.0.1:0") until ctx ends. ready, when not nil, is called
// with the address actually bound before the first request is accepted.
func (s *Server) Serve(ctx context.Context, addr string, ready func(net.Addr)) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mockmodel: listen on %s: %w", addr, err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(l.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(l) }()
	select {
	case err := <-errc:
		return fmt.Errorf("mockmodel: serve: %w", err)
	case <-ctx.Done():
	}
	s.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("mockmodel: shut down: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("mockmodel: serve: %w", err)
	}
	return nil
}
