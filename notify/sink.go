package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// sink is one notifier: a bounded queue and the goroutine that sends its notes one
// after another, each within the timeout.
type sink struct {
	name  string
	n     *Notifier
	send  func(ctx context.Context, n *Notifier, note Note) error
	queue chan Note
	done  chan struct{}
	// failing is set while the notifier fails (owned by the sink's goroutine): the
	// person is told once per spell of failures.
	failing bool
}

func newSink(name string, n *Notifier, send func(context.Context, *Notifier, Note) error) *sink {
	s := &sink{name: name, n: n, send: send, queue: make(chan Note, QueueLen), done: make(chan struct{})}
	go s.run()
	return s
}

// offer queues note without blocking; a full queue drops it (logged).
func (s *sink) offer(note Note) {
	select {
	case s.queue <- note:
	default:
		s.n.log.Warn("notify: "+s.name+" is behind, note dropped", "event", note.Event, "pane", note.Pane)
	}
}

// close ends the queue and waits for what it holds to be sent.
func (s *sink) close() {
	close(s.queue)
	<-s.done
}

func (s *sink) run() {
	defer close(s.done)
	for note := range s.queue {
		ctx, cancel := context.WithTimeout(context.Background(), s.n.cfg.Timeout)
		start := time.Now()
		err := s.send(ctx, s.n, note)
		cancel()
		if err != nil {
			s.n.log.Warn("notify: "+s.name+" failed", "event", note.Event, "pane", note.Pane, "err", err)
			if !s.failing && s.n.cfg.Warn != nil {
				s.n.cfg.Warn(fmt.Sprintf("notify: the %s failed: %v (said once; see the log)", s.name, err))
			}
			s.failing = true
			continue
		}
		s.failing = false
		s.n.log.Info("notify: sent", "to", s.name, "event", note.Event, "pane", note.Pane, "took", time.Since(start))
	}
}

// runCommand runs [notify] command with the note's JSON on its stdin.
func runCommand(ctx context.Context, n *Notifier, note Note) error {
	argv := n.cfg.Command
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(append(note.JSON(), '\n'))
	var errb bytes.Buffer
	cmd.Stderr = &limited{w: &errb, n: 512}
	cmd.WaitDelay = time.Second // a child that keeps the pipes open does not hold us
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return fmt.Errorf("%s: %w: %s", argv[0], err, msg)
		}
		return fmt.Errorf("%s: %w", argv[0], err)
	}
	return nil
}

// limited writes at most n bytes to w and drops the rest.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.n -= k
		_, _ = l.w.Write(p[:k])
	}
	return len(p), nil
}

// client sends the webhook's and ntfy's requests; each request's context bounds it.
var client = &http.Client{}

// postWebhook POSTs the note's JSON.
func postWebhook(ctx context.Context, n *Notifier, note Note) error {
	return post(ctx, n.cfg.Webhook, "application/json", note.JSON(), nil)
}

// postNtfy POSTs the note to an ntfy topic: its message as the body, its title, and
// the web view's address to open on a click.
func postNtfy(ctx context.Context, n *Notifier, note Note) error {
	body := note.Message
	if note.Asks != nil {
		var opts []string
		for _, o := range note.Asks.Options {
			opts = append(opts, o.Key+" "+o.Label)
		}
		body = strings.TrimSpace(strings.Join(note.Excerpt, "\n") + "\n" + strings.Join(opts, "\n"))
		if len(note.Excerpt) == 0 {
			body = strings.TrimSpace(note.Asks.Question + "\n" + strings.Join(opts, "\n"))
		}
	}
	if body == "" {
		body = note.Title
	}
	h := map[string]string{"Title": oneLine(note.Title), "Tags": "agentmux"}
	if note.Event == NeedsYou || note.Event == Summary {
		h["Priority"] = "high"
	}
	if note.URL != "" {
		h["Click"] = note.URL
	}
	return post(ctx, n.cfg.Ntfy, "text/plain; charset=utf-8", []byte(body), h)
}

// oneLine makes s fit a header: one line, bounded.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "")
	}
	return mime.QEncoding.Encode("utf-8", s) // ntfy reads RFC 2047 for what is not ASCII
}

// post sends one request and wants a 2xx answer.
func post(ctx context.Context, url, ctype string, body []byte, headers map[string]string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("User-Agent", "agentmux")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("no answer within the timeout: %w", err)
		}
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", url, resp.Status)
	}
	return nil
}
