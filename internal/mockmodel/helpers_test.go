package mockmodel

// Shared helpers for the protocol tests: every test runs the Server behind httptest, sends the
// request a CLI sends (trimmed to the fields that matter), and reads the answer the way a
// client does, parsing the SSE stream into events and decoding each event's JSON.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// event is one parsed server-sent event.
type event struct {
	Name string
	Data map[string]any
}

// parseSSE splits an event stream into events; it fails the test on malformed framing or data
// that is not a JSON object.
func parseSSE(t *testing.T, body []byte) []event {
	t.Helper()
	var out []event
	var cur event
	var data []string
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data == nil {
				t.Fatalf("empty event (blank line without data) in stream:\n%s", body)
			}
			if err := json.Unmarshal([]byte(strings.Join(data, "\n")), &cur.Data); err != nil {
				t.Fatalf("event %q data is not a JSON object: %v\n%s", cur.Name, err, strings.Join(data, "\n"))
			}
			out = append(out, cur)
			cur, data = event{}, nil
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	if data != nil || cur.Name != "" {
		t.Fatalf("stream ends inside an event:\n%s", body)
	}
	return out
}

// names returns the event names in order.
func names(evs []event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Name)
	}
	return out
}

// newTestServer mounts a Server built from o on an httptest.Server closed at cleanup.
func newTestServer(t *testing.T, o Options) (*Server, *httptest.Server) {
	t.Helper()
	s := New(o)
	hs := httptest.NewServer(s)
	t.Cleanup(func() { s.Close(); hs.Close() })
	return s, hs
}

// post sends body as JSON and returns the status, content type and body of the answer.
func post(t *testing.T, url, body string) (int, string, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read answer of %s: %v", url, err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// get walks a decoded JSON value along keys (map keys, or array indexes given as ints) and
// returns what it finds, or nil.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// equal fails the test when got differs from want, naming what was compared.
func equal[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
