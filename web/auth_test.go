package web

// The door, checked from Go without a browser: no cookie, 401 and nothing of the
// session; a wrong Host (DNS rebinding) or a WebSocket from another Origin, 403; a
// read-only view refuses every action with a clear error; a page that stops reading is
// dropped while the session goes on.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
)

func get(t *testing.T, c *http.Client, url string, hdr map[string]string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	require.NoError(t, err)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestWithoutTokenUnauthorized(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	r.proc(1).Print("secret screen")
	plain := &http.Client{Timeout: 10 * time.Second}
	for _, path := range []string{"", "app.js", "style.css", "vendor/xterm/xterm.js", "ws", "index.html"} {
		code, body, _ := get(t, plain, r.base()+path, nil)
		assert.Equal(t, http.StatusUnauthorized, code, path)
		assert.NotContains(t, body, "alice", path)
		assert.NotContains(t, body, "secret", path)
	}
	resp, err := plain.Post(r.base()+"auth", "text/plain", strings.NewReader("not the token"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Empty(t, resp.Cookies())

	c := r.client()
	code, body, hdr := get(t, c, r.base(), nil)
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "app.js")
	assert.Contains(t, hdr.Get("Content-Security-Policy"), "default-src 'none'")
	code, _, _ = get(t, c, r.base()+"vendor/xterm/LICENSE", nil)
	assert.Equal(t, http.StatusOK, code, "the widget's licence is served with it")
}

func TestCookieIsHttpOnlyStrict(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	resp, err := http.Post(r.base()+"auth", "text/plain", strings.NewReader(r.srv.token))
	require.NoError(t, err)
	resp.Body.Close()
	set := resp.Header.Get("Set-Cookie")
	assert.Contains(t, set, "HttpOnly")
	assert.Contains(t, set, "SameSite=Strict")
	assert.NotContains(t, set, r.srv.token, "the cookie is a secret of its own")
}

// Two views on one machine (two sessions) keep their own cookies: browsers keep cookies
// per host, whatever the port.
func TestTwoViewsTwoCookies(t *testing.T) {
	a := newRig(t, Options{}, "alice")
	b := newRig(t, Options{}, "bob")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	for _, r := range []*rig{a, b} {
		resp, err := c.Post(r.base()+"auth", "text/plain", strings.NewReader(r.srv.token))
		require.NoError(t, err)
		resp.Body.Close()
	}
	for _, r := range []*rig{a, b} {
		code, _, _ := get(t, c, r.base(), nil)
		assert.Equal(t, http.StatusOK, code, "signed in to both")
	}
}

func TestWrongHostForbidden(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	c := r.client()
	for _, host := range []string{"evil.example:" + r.srv.port, "evil.example", "127.0.0.1:1"} {
		code, body, _ := get(t, c, r.base(), map[string]string{"Host": host})
		assert.Equal(t, http.StatusForbidden, code, host)
		assert.NotContains(t, body, "alice")
	}
	code, _, _ := get(t, &http.Client{}, r.base(), map[string]string{"Host": "localhost:" + r.srv.port, "Cookie": r.cookie(c)})
	assert.Equal(t, http.StatusOK, code, "localhost names loopback")
}

// dial opens the page's WebSocket with the cookie and origin.
func (r *rig) dial(origin string) (*websocket.Conn, *http.Response, error) {
	c := r.client()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := http.Header{}
	h.Set("Cookie", r.cookie(c))
	if origin != "" {
		h.Set("Origin", origin)
	}
	return websocket.Dial(ctx, "ws://"+r.srv.Addr()+"/ws", &websocket.DialOptions{HTTPHeader: h})
}

func TestOtherOriginForbidden(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	for _, origin := range []string{"http://evil.example", "http://127.0.0.1:1", "null"} {
		_, resp, err := r.dial(origin)
		require.Error(t, err, origin)
		require.NotNil(t, resp, origin)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, origin)
	}
	conn, _, err := r.dial("http://" + r.srv.Addr())
	require.NoError(t, err, "the page's own origin")
	conn.CloseNow()
}

// frames reads text frames until one of type typ, and returns it.
func frameOf(t *testing.T, conn *websocket.Conn, typ string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		mt, b, err := conn.Read(ctx)
		require.NoError(t, err, "waiting for a %s frame", typ)
		if mt != websocket.MessageText {
			continue
		}
		var f map[string]any
		require.NoError(t, json.Unmarshal(b, &f))
		if f["t"] == typ {
			return f
		}
	}
}

func TestReadOnlyRefusesActions(t *testing.T) {
	r := newRig(t, Options{}, "alice", "bob")
	conn, _, err := r.dial("http://" + r.srv.Addr())
	require.NoError(t, err)
	defer conn.CloseNow()
	assert.Equal(t, false, frameOf(t, conn, "hello")["control"])
	ctx := context.Background()
	for _, a := range []string{
		`{"t":"input","pane":1,"data":"rm -rf /\r"}`,
		`{"t":"send","id":7,"to":"bob","text":"hi"}`,
		`{"t":"link","id":8,"a":1,"b":2}`,
		`{"t":"hold","id":9,"a":1}`,
	} {
		require.NoError(t, conn.Write(ctx, websocket.MessageText, []byte(a)))
		f := frameOf(t, conn, "error")
		assert.Contains(t, f["text"], "read-only", a)
		assert.Contains(t, f["text"], "--control", a)
	}
	r.sess.Sync()
	assert.Empty(t, r.proc(1).Peek(), "nothing reached the pane")
	assert.Empty(t, r.proc(2).Peek())
	m, _ := r.sess.Member(1)
	assert.Zero(t, m.Group, "not linked")
}

func TestControlActions(t *testing.T) {
	r := newRig(t, Options{Control: true}, "alice", "bob")
	conn, _, err := r.dial("http://" + r.srv.Addr())
	require.NoError(t, err)
	defer conn.CloseNow()
	assert.Equal(t, true, frameOf(t, conn, "hello")["control"])
	ctx := context.Background()
	act := func(a string) map[string]any {
		require.NoError(t, conn.Write(ctx, websocket.MessageText, []byte(a)))
		for {
			f := frameOf(t, conn, "result")
			return f
		}
	}
	act(`{"t":"link","id":1,"a":1,"b":2}`)
	m, _ := r.sess.Member(1)
	assert.NotZero(t, m.Group, "linked")
	act(`{"t":"hold","id":2,"a":2}`)
	m, _ = r.sess.Member(2)
	assert.True(t, m.Held)
	act(`{"t":"release","id":3,"a":2}`)
	act(`{"t":"unlink","id":4,"a":1}`)
	m, _ = r.sess.Member(1)
	assert.Zero(t, m.Group, "unlinked")
	require.NoError(t, conn.Write(ctx, websocket.MessageText, []byte(`{"t":"link","id":5,"a":1,"b":1}`)))
	assert.Contains(t, frameOf(t, conn, "error")["text"], "itself")
}

func TestStuckPageDropped(t *testing.T) {
	r := newRig(t, Options{WriteTimeout: 100 * time.Millisecond}, "alice")
	conn, _, err := r.dial("http://" + r.srv.Addr())
	require.NoError(t, err)
	defer conn.CloseNow()
	// The page never reads: once the socket's buffers are full, a write times out and
	// the page is dropped; the session answers at once all along.
	screen := strings.Repeat(strings.Repeat("#", 59)+"\r\n", 11)
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; r.srv.Pages() > 0; i++ {
		require.True(t, time.Now().Before(deadline), "a page that does not read was never dropped")
		r.proc(1).Print(strings.ReplaceAll(screen, "#", string(rune('a'+i%26))))
		start := time.Now()
		r.sess.Sync()
		require.Less(t, time.Since(start), time.Second, "the session waited for the page")
	}
}

// The conversation a page opens with: the store's messages from before the session
// started (an earlier run), then the session's own log; nothing twice.
func TestConversationFromStoreAndLog(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "agentmux.db"))
	require.NoError(t, err)
	defer st.Close()
	since := time.Now()
	old := store.Message{ID: "m1", Session: "test", From: "alice", To: "bob", Kind: "message", Body: "from an earlier run",
		Seq: 1, Queued: since.Add(-time.Hour).UnixMilli()}
	recent := store.Message{ID: "m2", Session: "test", From: "ops", To: "bob", Kind: "message", Body: "this run, in the log too",
		Seq: 2, Queued: since.Add(time.Second).UnixMilli()}
	require.NoError(t, st.Insert(old, recent))
	_, err = st.Mark("m1", "bob", store.Confirmed, since.Add(-time.Hour+time.Second).UnixMilli())
	require.NoError(t, err)

	r := newRig(t, Options{Store: st, Since: since}, "alice", "bob")
	err = r.sess.Send("ops", "bob", "this run, in the log too", session.SendOptions{})
	require.NoError(t, err)
	r.sess.Sync()
	conn, _, err := r.dial("http://" + r.srv.Addr())
	require.NoError(t, err)
	defer conn.CloseNow()
	items := frameOf(t, conn, "conv")["items"].([]any)
	var bodies []string
	for _, it := range items {
		m := it.(map[string]any)
		bodies = append(bodies, fmt.Sprint(m["from"], "→", m["to"], ": ", m["text"], " [", m["phase"], "]"))
	}
	require.Len(t, bodies, 2, "%q", bodies)
	assert.Equal(t, "alice→bob: from an earlier run [confirmed]", bodies[0])
	assert.Contains(t, bodies[1], "ops→bob: this run, in the log too")
}

// A session with nothing said yet opens the page's conversation with an empty list,
// not null (the page iterates it).
func TestConversationEmptyIsAList(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	conn, _, err := r.dial("http://" + r.srv.Addr())
	require.NoError(t, err)
	defer conn.CloseNow()
	items, ok := frameOf(t, conn, "conv")["items"].([]any)
	require.True(t, ok, "items is a JSON list")
	assert.Empty(t, items)
}
