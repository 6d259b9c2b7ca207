package e2e

// The web view from the real binary: agentmux web asks a running session (over its
// socket) to serve its web view and prints the URL; the status line says it is on; the
// URL's token buys the cookie, without which the page is refused, and a session started
// with --web serves one from the start.

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// webURL is the URL agentmux web printed first.
func webURL(t *testing.T, out string) *url.URL {
	t.Helper()
	line, _, _ := strings.Cut(out, "\n")
	u, err := url.Parse(strings.TrimSpace(line))
	if err != nil || u.Scheme != "http" || !strings.HasPrefix(u.Fragment, "token=") {
		t.Fatalf("agentmux web printed no URL with a token:\n%s", out)
	}
	if !strings.HasPrefix(u.Host, "127.0.0.1:") {
		t.Errorf("the web view listens on %s, not loopback", u.Host)
	}
	return u
}

// signIn trades the URL's token for the cookie and fetches the page; it returns the
// page and the cookie.
func signIn(t *testing.T, u *url.URL) (string, string) {
	t.Helper()
	plain := &http.Client{Timeout: waitLong}
	resp, err := plain.Get("http://" + u.Host + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the page without its token: %d, want 401", resp.StatusCode)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: waitLong}
	resp, err = c.Post("http://"+u.Host+"/auth", "text/plain", strings.NewReader(strings.TrimPrefix(u.Fragment, "token=")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the token was refused: %d", resp.StatusCode)
	}
	resp, err = c.Get("http://" + u.Host + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the page with the cookie: %d", resp.StatusCode)
	}
	var cookie []string
	for _, k := range jar.Cookies(&url.URL{Scheme: "http", Host: u.Host}) {
		cookie = append(cookie, k.Name+"="+k.Value)
	}
	return string(b), strings.Join(cookie, "; ")
}

func TestWebCommand(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "webby", "sh")
	s.waitText(waitLong, "1 sh")
	out := env.run("web", "webby")
	u := webURL(t, out)
	if !strings.Contains(out, "read-only") {
		t.Errorf("agentmux web does not say the view is read-only:\n%s", out)
	}
	if page, _ := signIn(t, u); !strings.Contains(page, "app.js") {
		t.Errorf("the page is not the web view's:\n%s", page)
	}
	s.send("echo hi\r") // the next frame draws the status line
	s.waitText(waitLong, "[webby]  web")
	again := env.run("web", "--session", "webby", "--control")
	if webURL(t, again).String() != u.String() || !strings.Contains(again, "running already") {
		t.Errorf("a second agentmux web: %s; want the same URL, said to run already", again)
	}
}

func TestWebFlagStartsWithTheSession(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "webflag", "--web-control", "sh")
	s.waitText(waitLong, "1 sh")
	s.send("echo hi\r")
	s.waitText(10*time.Second, "web (control)")
	u := webURL(t, env.run("web", "webflag"))
	_, cookie := signIn(t, u)

	// A message sent from the page goes the way agentmux send's go: typed into the pane
	// as from "you(web)", and kept in the store with its phases.
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://"+u.Host+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Cookie": {cookie}, "Origin": {"http://" + u.Host}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"t":"send","id":1,"to":"sh","text":"echo from-the-web"}`)); err != nil {
		t.Fatal(err)
	}
	for { // the page's frames until the answer
		_, b, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("no answer to the page's send: %v", err)
		}
		if strings.Contains(string(b), `"t":"error"`) {
			t.Fatalf("the page's send was refused: %s", b)
		}
		if strings.Contains(string(b), `"t":"result"`) {
			break
		}
	}
	go func() { // the page's frames, read and dropped
		for {
			if _, _, err := conn.Read(ctx); err != nil {
				return
			}
		}
	}()
	s.waitText(waitLong, "you(web):", "from-the-web")
	if h := env.run("history", "--session", "webflag"); !strings.Contains(h, "you(web) → sh") || !strings.Contains(h, "from-the-web") {
		t.Errorf("agentmux history lacks the page's message:\n%s", h)
	}
}
