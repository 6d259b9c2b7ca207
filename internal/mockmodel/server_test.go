package mockmodel

// Server-level behaviour: routing of the requests the CLIs make besides turns, the request
// log and WaitFor (which must wake on a new request, not poll), pacing of a turn over the
// configured duration, and cutting streams short when the client leaves or the server closes.

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRoutes(t *testing.T) {
	s, hs := newTestServer(t, Options{})
	tests := []struct {
		method, path string
		code         int
	}{
		{"HEAD", "/", 200},
		{"GET", "/v1/models", 200},
		{"GET", "/v1beta/models/", 200},
		{"GET", "/api/oauth/profile", 404},
		{"POST", "/v1/messages/count_tokens", 200},
		{"POST", "/v1beta/models/m:countTokens", 200},
		{"POST", "/v1/unknown", 404},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, hs.URL+tc.path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.method, tc.path, err)
		}
		resp.Body.Close()
		equal(t, tc.method+" "+tc.path, resp.StatusCode, tc.code)
	}
	log := s.Requests()
	equal(t, "requests logged", len(log), len(tests))
	for i, r := range log {
		equal(t, "logged path", r.Path, tests[i].path)
		equal(t, "logged status", r.Status, tests[i].code)
		equal(t, "logged kind", r.Kind, KindOther)
	}
}

func TestWaitForWakesOnNewRequest(t *testing.T) {
	s, hs := newTestServer(t, Options{Reply: Numbered("A", 2)})
	got := make(chan Request, 1)
	errc := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		r, err := s.WaitFor(ctx, func(r Request) bool { return r.Kind == KindTurn && r.N == 2 })
		if err != nil {
			errc <- err
			return
		}
		got <- r
	}()
	post(t, hs.URL+"/v1/messages", claudeTurn)
	post(t, hs.URL+"/v1/messages", strings.Replace(claudeTurn, "say hi there friend", "second message", 1))
	select {
	case r := <-got:
		equal(t, "reply", r.Reply, "A-2 to: second message")
	case err := <-errc:
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.WaitFor(ctx, func(Request) bool { return false }); !errors.Is(err, context.Canceled) {
		t.Errorf("WaitFor with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestTurnIsPacedOverDuration(t *testing.T) {
	const d = 300 * time.Millisecond
	s, hs := newTestServer(t, Options{Duration: d})
	start := time.Now()
	post(t, hs.URL+"/v1/responses", codexTurn)
	if el := time.Since(start); el < d {
		t.Errorf("turn streamed in %v, want at least the configured %v", el, d)
	}
	// Side requests are not paced: the CLIs wait on them before showing the turn.
	start = time.Now()
	post(t, hs.URL+"/v1/responses", codexTitle)
	if el := time.Since(start); el >= d {
		t.Errorf("side request took %v, want it answered at once", el)
	}
	r := s.Turns()[0]
	if r.End.Sub(r.Start) < d {
		t.Errorf("logged turn took %v, want at least %v", r.End.Sub(r.Start), d)
	}
}

func TestCloseCutsStream(t *testing.T) {
	s, hs := newTestServer(t, Options{Duration: time.Hour})
	resp, err := http.Post(hs.URL+"/v1/messages", "application/json", strings.NewReader(claudeTurn))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// The headers are flushed before the first event, and message_start is written at once:
	// read it, so the handler is known to be pacing its first delta when Close comes.
	first := make([]byte, 4096)
	if n, err := resp.Body.Read(first); err != nil || !strings.Contains(string(first[:n]), "message_start") {
		t.Fatalf("first read = %q, %v; want message_start", first[:n], err)
	}
	s.Close()
	rest, _ := io.ReadAll(resp.Body) // ends because the handler returns
	if strings.Contains(string(rest), "message_stop") {
		t.Errorf("cut stream still ended with message_stop:\n%s", rest)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := s.WaitFor(ctx, func(r Request) bool { return r.Kind == KindTurn })
	if err != nil {
		t.Fatal(err)
	}
	if r.Err == "" {
		t.Errorf("cut stream logged without an error: %v", r)
	}
}

func TestClientDisconnectEndsStream(t *testing.T) {
	s, hs := newTestServer(t, Options{Duration: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", hs.URL+"/v1beta/models/m:streamGenerateContent?alt=sse", strings.NewReader(geminiTurn))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	cancel() // headers arrived, so the handler is pacing its first chunk
	resp.Body.Close()
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	r, err := s.WaitFor(wctx, func(r Request) bool { return r.Kind == KindTurn })
	if err != nil {
		t.Fatalf("handler did not end after the client left: %v", err)
	}
	if r.Err == "" {
		t.Errorf("abandoned stream logged without an error: %v", r)
	}
}

func TestServe(t *testing.T) {
	s := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-errc:
		t.Fatal(err)
	}
	code, _, body := post(t, "http://"+addr.String()+"/v1/messages", claudeTurn)
	equal(t, "status", code, 200)
	if !strings.Contains(string(body), "message_stop") {
		t.Errorf("stream incomplete:\n%s", body)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("Serve after cancel = %v, want nil", err)
	}
	if err := s.Serve(context.Background(), "256.0.0.1:0", nil); err == nil {
		t.Error("Serve on a bad address succeeded")
	}
}
