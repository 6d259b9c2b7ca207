package notify

// Strategy: real notifiers against local receivers: a command (sh) that appends its
// stdin to a file, an httptest server standing for the webhook and for ntfy. Close is
// the barrier: it sends what is gathered and waits for every notifier, so after it the
// receivers hold all they will ever get and counts are exact without sleeping. A
// webhook that hangs is an httptest handler blocked on a channel the test releases at
// its end; the other notifiers must deliver meanwhile, and Notify must not block.

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/proto"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// receiver is a local HTTP server that keeps what it is sent.
type receiver struct {
	mu   sync.Mutex
	reqs []*http.Request
	body []string
	srv  *httptest.Server
}

func newReceiver(t *testing.T, h func(w http.ResponseWriter)) *receiver {
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.reqs, r.body = append(r.reqs, req), append(r.body, string(b))
		r.mu.Unlock()
		if h != nil {
			h(w)
		}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) got() ([]*http.Request, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.reqs...), append([]string(nil), r.body...)
}

// recorder is a command that appends its stdin to a file.
func recorder(t *testing.T) (argv []string, lines func() []string) {
	path := filepath.Join(t.TempDir(), "stdin")
	return []string{"sh", "-c", `cat >> "$0"`, path}, func() []string {
		b, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			return nil
		}
		require.NoError(t, err)
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
}

func askNote(pane int, name string) Note {
	return Note{Event: NeedsYou, Pane: pane, Name: name, Title: name + " needs you", Message: "Do you want to proceed?",
		Asks:    &proto.Asks{Question: "Do you want to proceed?", Options: []proto.Option{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}, Since: 1},
		Excerpt: []string{"touch probe", "Do you want to proceed?"}, At: 1}
}

func TestOneNoteEverywhere(t *testing.T) {
	argv, lines := recorder(t)
	hook := newReceiver(t, nil)
	ntfy := newReceiver(t, nil)
	n := New(Config{Session: "main", Command: argv, Webhook: hook.srv.URL, Ntfy: ntfy.srv.URL + "/topic",
		URL: func() string { return "http://127.0.0.1:9/" }})
	n.Notify(askNote(2, "claude"))
	n.Close()

	ls := lines()
	require.Len(t, ls, 1, "the command got one JSON line")
	var got Note
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &got))
	assert.Equal(t, NeedsYou, got.Event)
	assert.Equal(t, "main", got.Session)
	assert.Equal(t, 2, got.Pane)
	assert.Equal(t, "Do you want to proceed?", got.Asks.Question)
	assert.Equal(t, []proto.Option{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}, got.Asks.Options)
	assert.Equal(t, "http://127.0.0.1:9/", got.URL)

	reqs, bodies := hook.got()
	require.Len(t, reqs, 1, "the webhook got one POST")
	assert.Equal(t, http.MethodPost, reqs[0].Method)
	assert.Equal(t, "application/json", reqs[0].Header.Get("Content-Type"))
	assert.JSONEq(t, ls[0], bodies[0], "the webhook gets the command's JSON")

	reqs, bodies = ntfy.got()
	require.Len(t, reqs, 1)
	assert.Equal(t, "/topic", reqs[0].URL.Path)
	assert.Equal(t, "claude needs you", reqs[0].Header.Get("Title"))
	assert.Equal(t, "http://127.0.0.1:9/", reqs[0].Header.Get("Click"))
	assert.Equal(t, "touch probe\nDo you want to proceed?\n1 Yes\n2 No", bodies[0])
}

func TestSixPanesOneNote(t *testing.T) {
	argv, lines := recorder(t)
	hook := newReceiver(t, nil)
	n := New(Config{Session: "main", Command: argv, Webhook: hook.srv.URL, Window: time.Hour})
	names := []string{"a", "b", "c", "d", "e", "f"}
	for i, name := range names {
		n.Notify(askNote(i+1, name))
	}
	n.Close() // sends what is gathered at once

	ls := lines()
	require.Len(t, ls, 1, "six panes on one prompt: one notification")
	var got Note
	require.NoError(t, json.Unmarshal([]byte(ls[0]), &got))
	assert.Equal(t, Summary, got.Event)
	assert.Equal(t, 6, got.Count)
	assert.Equal(t, "6 panes need you: Do you want to proceed?", got.Title)
	assert.Equal(t, "a, b, c, d, e, f", got.Message)
	require.Len(t, got.Notes, 6)
	assert.Equal(t, "f", got.Notes[5].Name)
	reqs, _ := hook.got()
	assert.Len(t, reqs, 1)
}

func TestHangingWebhookSlowsNothing(t *testing.T) {
	release := make(chan struct{})
	hook := newReceiver(t, func(http.ResponseWriter) { <-release })
	defer close(release)
	argv, lines := recorder(t)
	var mu sync.Mutex
	var warned []string
	n := New(Config{Command: argv, Webhook: hook.srv.URL, Window: time.Millisecond, Timeout: 200 * time.Millisecond,
		Warn: func(s string) { mu.Lock(); warned = append(warned, s); mu.Unlock() }})
	start := time.Now()
	for i := range 10 * (QueueLen + inLen) { // far more than every queue holds
		n.Notify(askNote(i, "x"))
	}
	assert.Less(t, time.Since(start), time.Second, "Notify never waits for a notifier")
	n.Close()
	assert.NotEmpty(t, lines(), "the command got its notes while the webhook hung")
	mu.Lock()
	defer mu.Unlock()
	var hooks []string // the command may time out too on a loaded machine: its own warning
	for _, w := range warned {
		if strings.Contains(w, "webhook") {
			hooks = append(hooks, w)
		}
	}
	require.Len(t, hooks, 1, "a failing webhook is said once: %q", warned)
}

func TestFailingCommandSaidOnce(t *testing.T) {
	for _, argv := range [][]string{{filepath.Join(t.TempDir(), "no-such-notifier")}, {"sh", "-c", "echo broken >&2; exit 3"}} {
		var warned []string
		n := New(Config{Command: argv, Warn: func(s string) { warned = append(warned, s) }})
		s := n.sinks[0]
		for i := range 3 {
			s.offer(askNote(i, "x"))
		}
		n.Close()
		require.Len(t, warned, 1, "%v: said once, not per note", argv)
		assert.Contains(t, warned[0], "command failed")
	}
	var warned []string
	n := New(Config{Command: []string{"sh", "-c", "echo broken >&2; exit 3"}, Warn: func(s string) { warned = append(warned, s) }})
	n.sinks[0].offer(askNote(1, "x"))
	n.Close()
	assert.Contains(t, warned[0], "exit status 3: broken", "its stderr says why")
}

func TestEventsChosen(t *testing.T) {
	argv, lines := recorder(t)
	n := New(Config{Command: argv, Events: []string{Exited}, Window: time.Hour})
	n.Notify(askNote(1, "a"))
	n.Notify(Note{Event: Turn, Pane: 1})
	n.Notify(Note{Event: Exited, Pane: 2, Name: "b", Title: "b (2) exited (1)"})
	n.Close()
	ls := lines()
	require.Len(t, ls, 1)
	assert.Contains(t, ls[0], `"event":"exited"`)

	d := New(Config{Command: argv})
	assert.True(t, d.Wants(NeedsYou))
	assert.False(t, d.Wants(Turn), "a finished turn is off by default")
	d.Close()
}
