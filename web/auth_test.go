package web

// The door, checked from Go without a browser: a WebSocket that shows no key, or a
// spent or unknown one, is refused and gets nothing of the session; a token opens one
// page; a wrong Host (DNS rebinding) or a WebSocket from another Origin, 403; a
// read-only view refuses every action with a clear error; a page that stops reading is
// dropped while the session goes on.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
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

// The page and its scripts carry nothing of the session and are served to anyone; the
// session goes only over the WebSocket, to a page that showed a key. No answer sets a
// cookie: a host's cookies reach every port of it.
func TestPageIsPublicSessionIsNot(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	r.proc(1).Print("zq-private-screen")
	plain := &http.Client{Timeout: 10 * time.Second}
	for _, path := range []string{"", "app.js", "style.css", "vendor/xterm/xterm.js", "vendor/xterm/LICENSE"} {
		code, body, hdr := get(t, plain, r.base()+path, nil)
		assert.Equal(t, http.StatusOK, code, path)
		assert.NotContains(t, body, "alice", path)
		assert.NotContains(t, body, "zq-private", path)
		assert.Empty(t, hdr.Values("Set-Cookie"), path)
		assert.Contains(t, hdr.Get("Content-Security-Policy"), "default-src 'none'", path)
	}
	code, _, _ := get(t, plain, r.base()+"auth", nil)
	assert.Equal(t, http.StatusNotFound, code, "no sign-in endpoint: nothing trades a token for a cookie")

	for _, auth := range []string{`{"t":"auth"}`, `{"t":"auth","token":"` + strings.Repeat("0", 64) + `"}`,
		`{"t":"auth","page":"` + strings.Repeat("1", 64) + `"}`, `not json`} {
		conn, _, err := r.dialAuth("http://"+r.srv.Addr(), auth)
		require.NoError(t, err)
		denied := frameOf(t, conn, "denied")
		assert.NotEmpty(t, denied["text"], auth)
		conn.CloseNow()
	}
}

// A URL's token opens one page: the page gets a secret of its own for reloads and
// reconnects, and the same token shown again (a second browser, a copied link) is
// refused with the reason. A new link is one agentmux web away.
func TestTokenOpensOnePage(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	origin := "http://" + r.srv.Addr()
	token := r.token()
	conn, _, err := r.dialAuth(origin, `{"t":"auth","token":"`+token+`"}`)
	require.NoError(t, err)
	hello := frameOf(t, conn, "hello")
	page, _ := hello["page"].(string)
	require.Len(t, page, 64, "the page's own secret")
	assert.NotEqual(t, token, page)
	conn.CloseNow()

	conn, _, err = r.dialAuth(origin, `{"t":"auth","token":"`+token+`"}`)
	require.NoError(t, err)
	assert.Contains(t, frameOf(t, conn, "denied")["text"], "used already")
	conn.CloseNow()

	// The page's secret opens it again, as often as it reloads, and is not renewed.
	for range 2 {
		conn, _, err = r.dialAuth(origin, `{"t":"auth","page":"`+page+`"}`)
		require.NoError(t, err)
		hello = frameOf(t, conn, "hello")
		assert.Nil(t, hello["page"])
		frameOf(t, conn, "members")
		conn.CloseNow()
	}
}

// Closing the view ends every page and forgets every key.
func TestCloseEndsPages(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	conn, _, err := r.dial("http://" + r.srv.Addr())
	require.NoError(t, err)
	defer conn.CloseNow()
	frameOf(t, conn, "members")
	require.NoError(t, r.srv.Close())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, _, err := conn.Read(ctx); err != nil {
			assert.Equal(t, websocket.StatusGoingAway, websocket.CloseStatus(err), "%v", err)
			break
		}
	}
	assert.Zero(t, r.srv.Pages())
}

func TestWrongHostForbidden(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	c := &http.Client{Timeout: 10 * time.Second}
	for _, host := range []string{"evil.example:" + r.srv.port, "evil.example", "127.0.0.1:1"} {
		code, body, _ := get(t, c, r.base(), map[string]string{"Host": host})
		assert.Equal(t, http.StatusForbidden, code, host)
		assert.NotContains(t, body, "alice")
	}
	code, _, _ := get(t, c, r.base(), map[string]string{"Host": "localhost:" + r.srv.port})
	assert.Equal(t, http.StatusOK, code, "localhost names loopback")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws://"+r.srv.Addr()+"/ws", &websocket.DialOptions{Host: "evil.example:" + r.srv.port,
		HTTPHeader: http.Header{"Origin": {"http://evil.example:" + r.srv.port}}})
	require.Error(t, err)
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "a DNS-rebinding name cannot open the socket")
}

// dialAuth opens the page's WebSocket from origin and sends auth as its first frame
// (none when "").
func (r *rig) dialAuth(origin, auth string) (*websocket.Conn, *http.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	conn, resp, err := websocket.Dial(ctx, "ws://"+r.srv.Addr()+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil || auth == "" {
		return conn, resp, err
	}
	return conn, resp, conn.Write(ctx, websocket.MessageText, []byte(auth))
}

// dial opens a page with a fresh token, from origin.
func (r *rig) dial(origin string) (*websocket.Conn, *http.Response, error) {
	return r.dialAuth(origin, `{"t":"auth","token":"`+r.token()+`"}`)
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

// Browsers leave the scheme's default port out of Host and Origin: a view listening on
// :443 with TLS (or :80 without) is named by the bare host, and only then.
func TestDefaultPortLeftOut(t *testing.T) {
	for _, c := range []struct {
		tls  bool
		ip   string
		port int
		host string
		ok   bool
	}{
		{true, "127.0.0.1", 443, "127.0.0.1", true},
		{true, "127.0.0.1", 443, "127.0.0.1:443", true},
		{true, "127.0.0.1", 443, "localhost", true},
		{false, "127.0.0.1", 80, "127.0.0.1", true},
		{false, "0.0.0.0", 80, "192.168.1.7", true},
		{false, "::", 80, "[fd00::7]", true},
		{true, "0.0.0.0", 443, "evil.example", false}, // a DNS-rebinding name, even so
		{false, "127.0.0.1", 443, "127.0.0.1", false}, // plain http's default is 80
		{true, "127.0.0.1", 8443, "127.0.0.1", false},
		{false, "127.0.0.1", 80, "", false},
	} {
		s := &Server{tls: c.tls}
		s.hostsFor(&net.TCPAddr{IP: net.ParseIP(c.ip), Port: c.port})
		assert.Equal(t, c.ok, s.hostOK(c.host), "%+v", c)
		scheme := "http://"
		if c.tls {
			scheme = "https://"
		}
		assert.Equal(t, c.ok, c.host != "" && s.originOK(scheme+c.host, c.host), "origin %+v", c)
	}
	s := &Server{tls: true}
	s.hostsFor(&net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 443})
	assert.True(t, s.originOK("https://127.0.0.1", "127.0.0.1:443"), "one leaves the port out, the other not")
	assert.False(t, s.originOK("http://127.0.0.1", "127.0.0.1"), "another scheme")
}
