package notify

// Measured: from a pane printing an approval prompt (the output reaching the session)
// to the webhook's POST arriving at a local receiver, through the session's reading of
// the screen, Watch, the gathering window (DefaultWindow) and the HTTP request; the
// command notifier adds its program's start. Run:
//
//	go test ./notify -run '^$' -bench PromptToNote -benchtime 100x

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/agentmux/agentmux/session"
)

func BenchmarkPromptToNote(b *testing.B) {
	posts := make(chan time.Time, 16)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		posts <- time.Now()
	}))
	defer hook.Close()
	s, procs := startSession(b, 1)
	sub := s.Subscribe(0)
	defer sub.Close()
	stop := watchedWith(s, Config{Session: "main", Webhook: hook.URL})
	defer stop()
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		procs[1].Print(prompt)
		at := <-posts
		lat = append(lat, at.Sub(start))
		procs[1].Print("\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
		waitState(b, s, sub, func(m session.Member) bool { return m.State != session.NeedsYou })
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "ms-p99")
}

// watchedWith runs Watch over s into a notifier of cfg until the returned func.
func watchedWith(s *session.Session, cfg Config) (stop func()) {
	n := New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := Watch(ctx, s, n)
	return func() { cancel(); <-done; n.Close() }
}

// waitState waits until pane 1 of s satisfies ok.
func waitState(tb testing.TB, s *session.Session, sub *session.Subscription, ok func(session.Member) bool) {
	deadline := time.After(10 * time.Second)
	for {
		if m, _ := s.Member(1); ok(m) {
			return
		}
		select {
		case <-sub.Ready():
			sub.Next()
		case <-deadline:
			tb.Fatal("pane 1 never reached the state")
		}
	}
}
