package mockmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// sse writes one server-sent-event stream. Errors stick: after the first failed write (the
// client went away) every later call is a no-op returning that error.
type sse struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

// startSSE sends the status line and headers of an event stream.
func startSSE(w http.ResponseWriter) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	s := &sse{w: w, rc: http.NewResponseController(w)}
	s.err = s.rc.Flush()
	return s
}

// event writes one event (name may be empty: Gemini streams data-only events) carrying v as
// JSON, and flushes it to the client.
func (s *sse) event(name string, v any) error {
	if s.err != nil {
		return s.err
	}
	data, err := json.Marshal(v)
	if err != nil {
		s.err = fmt.Errorf("encode %s event: %w", name, err)
		return s.err
	}
	if name != "" {
		if _, s.err = fmt.Fprintf(s.w, "event: %s\n", name); s.err != nil {
			return s.err
		}
	}
	if _, s.err = fmt.Fprintf(s.w, "data: %s\n\n", data); s.err != nil {
		return s.err
	}
	s.err = s.rc.Flush()
	return s.err
}

// done ends a chat/completions stream with its data-only [DONE] line.
func (s *sse) done() error {
	if s.err != nil {
		return s.err
	}
	if _, s.err = s.w.Write([]byte("data: [DONE]\n\n")); s.err != nil {
		return s.err
	}
	s.err = s.rc.Flush()
	return s.err
}

// pacer spaces the deltas of one stream evenly over a duration. wait returns false when the
// request or the server ends first, so a handler stops streaming to a client that is gone.
type pacer struct {
	step time.Duration
	r    *http.Request
	stop <-chan struct{}
	// sent counts the waits so far; before wait number pauseAt (-1: none) the stream
	// also pauses for pause.
	sent, pauseAt int
	pause         time.Duration
}

// newPacer spreads n deltas over d: each delta waits d/n before it is sent.
func newPacer(r *http.Request, stop <-chan struct{}, d time.Duration, n int) *pacer {
	p := &pacer{r: r, stop: stop, pauseAt: -1}
	if n > 0 && d > 0 {
		p.step = d / time.Duration(n)
	}
	return p
}

// pacer returns the pacer for a stream of n deltas: a turn spreads them over the configured
// duration; side answers are not part of the visible turn and go at once.
//
// deltas are the stream's text deltas (nil for a stream of one event): in a turn whose
// answer holds Options.PauseAfter, the stream pauses for Options.Pause once, after the
// delta that completes its first occurrence.
func (s *Server) pacer(r *http.Request, k Kind, n int, deltas []string) *pacer {
	d := s.opts.Duration
	if k != KindTurn {
		d = 0
	}
	p := newPacer(r, s.done, d, n)
	if k == KindTurn && s.opts.PauseAfter != "" && s.opts.Pause > 0 {
		text := strings.Join(deltas, "")
		if at := strings.Index(text, s.opts.PauseAfter); at >= 0 {
			end, sum := at+len(s.opts.PauseAfter), 0
			for i, c := range deltas {
				if sum += len(c); sum >= end {
					p.pauseAt, p.pause = i+1, s.opts.Pause
					break
				}
			}
		}
	}
	return p
}

// wait blocks for one step; it reports whether streaming should go on.
func (p *pacer) wait() bool {
	step := p.step
	if p.sent == p.pauseAt {
		step += p.pause
	}
	p.sent++
	if step <= 0 {
		select {
		case <-p.r.Context().Done():
			return false
		case <-p.stop:
			return false
		default:
			return true
		}
	}
	t := time.NewTimer(step)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.r.Context().Done():
		return false
	case <-p.stop:
		return false
	}
}

// writeJSON answers with status code and v as a JSON body.
func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		code, data = http.StatusInternalServerError, []byte(`{"error":{"message":"mock: encode failed"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.WriteHeader(code)
	_, _ = w.Write(data)
}
