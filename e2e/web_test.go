package e2e

// The web view from the real binary: agentmux web asks a running session (over its
// socket) to serve its web view and prints the URL; the status line says it is on; the
// URL's token opens one page (shown in the WebSocket's first frame, never a cookie);
// asking for the other mode restarts the view with a new token and says so; --stop
// ends it and every page; a session started with --web serves one from the start, and
// the person's messages from its page are never budgeted.

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
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

// openPage opens the page's WebSocket as the page does (the URL's token in the first
// frame) and returns it with the first frame's type: "hello" when the page was let in,
// "denied" when not.
func openPage(t *testing.T, u *url.URL) (*websocket.Conn, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://"+u.Host+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Origin": {"http://" + u.Host}}})
	if err != nil {
		t.Fatalf("the page's socket: %v", err)
	}
	auth, _ := json.Marshal(map[string]string{"t": "auth", "token": strings.TrimPrefix(u.Fragment, "token=")})
	if err := conn.Write(ctx, websocket.MessageText, auth); err != nil {
		t.Fatal(err)
	}
	_, b, err := conn.Read(ctx)
	if err != nil {
		t.Fatalf("no first frame: %v", err)
	}
	var f struct {
		T string `json:"t"`
	}
	json.Unmarshal(b, &f)
	return conn, f.T
}

// drain reads and drops a page's frames until it closes, and says why it closed.
func drain(conn *websocket.Conn) <-chan error {
	ended := make(chan error, 1)
	go func() {
		for {
			if _, _, err := conn.Read(context.Background()); err != nil {
				ended <- err
				return
			}
		}
	}()
	return ended
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
	resp, err := http.Get("http://" + u.Host + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(resp.Cookies()) > 0 {
		t.Errorf("the page set a cookie: %v", resp.Cookies())
	}
	page, typ := openPage(t, u)
	defer page.CloseNow()
	if typ != "hello" {
		t.Fatalf("the printed URL's token was refused: %s", typ)
	}
	closed := drain(page)
	if again, typ := openPage(t, u); typ != "denied" {
		again.CloseNow()
		t.Errorf("the same token opened a second page: %s", typ)
	}
	s.send("echo hi\r") // the next frame draws the status line
	s.waitText(waitLong, "[webby]  web")

	// Asked again in the same mode: a fresh link to the same view.
	again := env.run("web", "--session", "webby")
	u2 := webURL(t, again)
	if u2.Host != u.Host || u2.Fragment == u.Fragment || !strings.Contains(again, "running already") {
		t.Errorf("a second agentmux web: %s; want a new token for the same view, said to run already", again)
	}

	// Asked for control: the view restarts (new token), says so, and closes the old
	// view's page.
	ctl := env.run("web", "--session", "webby", "--control")
	u3 := webURL(t, ctl)
	if u3.Fragment == u.Fragment || !strings.Contains(ctl, "restarted, with control") || !strings.Contains(ctl, "was read-only") {
		t.Errorf("agentmux web --control on a read-only view: %s; want a restart with control, said so", ctl)
	}
	select {
	case <-closed:
	case <-time.After(waitLong):
		t.Error("the read-only view's page stayed open after the restart")
	}
	if u2.Host == u3.Host { // the old view's port, taken again by the new one
		if c, typ := openPage(t, u2); typ == "hello" {
			c.CloseNow()
			t.Error("a link of the stopped view opened the new one")
		}
	}
	page3, typ := openPage(t, u3)
	defer page3.CloseNow()
	if typ != "hello" {
		t.Fatalf("the new link was refused: %s", typ)
	}
	closed3 := drain(page3)

	// --stop ends the view and its page.
	if out := env.run("web", "--session", "webby", "--stop"); !strings.Contains(out, "web view stopped (1 page closed)") {
		t.Errorf("agentmux web --stop: %s", out)
	}
	select {
	case <-closed3:
	case <-time.After(waitLong):
		t.Error("the page stayed open after --stop")
	}
	if _, err := http.Get("http://" + u3.Host + "/"); err == nil && u3.Host != "" {
		t.Errorf("the view still answers at %s after --stop", u3.Host)
	}
	if out := env.run("web", "--session", "webby", "--stop"); !strings.Contains(out, "no web view was running") {
		t.Errorf("agentmux web --stop with no view running: %s", out)
	}
	s.send("echo bye\r")
	s.waitScreen("the status line without web", func(scr *screen) bool { return !scr.has("web (control)") && scr.has("bye") }, waitLong)
}

func TestWebFlagStartsWithTheSession(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "webflag", "--web-control", "sh")
	s.waitText(waitLong, "1 sh")
	s.send("echo hi\r")
	s.waitText(10*time.Second, "web (control)")
	u := webURL(t, env.run("web", "webflag"))
	conn, typ := openPage(t, u)
	defer conn.CloseNow()
	if typ != "hello" {
		t.Fatalf("the token was refused: %s", typ)
	}

	// Messages sent from the page go the way agentmux send's go: typed into the pane as
	// from "you(web)", and kept in the store with their phases. They are the person's:
	// more of them than a link's budget (8 turns) all reach the pane.
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	const n = 12
	for i := 1; i <= n; i++ {
		msg, _ := json.Marshal(map[string]any{"t": "send", "id": i, "to": "sh", "text": "echo from-the-web-" + strconv.Itoa(i)})
		if err := conn.Write(ctx, websocket.MessageText, msg); err != nil {
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
	}
	drain(conn)
	s.waitText(waitLong, "you(web):", "from-the-web-"+strconv.Itoa(n))
	h := env.run("history", "--session", "webflag")
	if !strings.Contains(h, "you(web) → sh") || !strings.Contains(h, "from-the-web-1") {
		t.Errorf("agentmux history lacks the page's message:\n%s", h)
	}
	if strings.Contains(h, "budget") || strings.Contains(h, "failed") {
		t.Errorf("the person's messages from the page were budgeted:\n%s", h)
	}
}

// writeCert writes a self-signed certificate for 127.0.0.1 and its key into dir as
// cert.pem and key.pem, and returns a pool that trusts it.
func writeCert(t *testing.T, dir string) *x509.CertPool {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "agentmux e2e"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	c, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(c)
	return pool
}

// Beyond loopback: agentmux web --listen 0.0.0.0 prints an address a browser can use
// and warns that the token and keys cross the network in clear; with --tls-cert and
// --tls-key (paths relative to where the command runs) the view serves HTTPS.
func TestWebListenEverywhereAndTLS(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	s := startWith(t, env.opts(), "--session", "webwide", "sh")
	s.waitText(waitLong, "1 sh")
	out := env.run("web", "webwide", "--listen", "0.0.0.0:0")
	line, _, _ := strings.Cut(out, "\n")
	u, err := url.Parse(line)
	if err != nil || u.Scheme != "http" || strings.Contains(u.Host, "[::]") || strings.HasPrefix(u.Host, "0.0.0.0") {
		t.Fatalf("agentmux web --listen 0.0.0.0:0 printed no usable URL:\n%s", out)
	}
	if !strings.Contains(out, "in clear") || !strings.Contains(out, "--tls-cert") || !strings.Contains(out, "ssh -L") {
		t.Errorf("no warning that the token and keys cross the network in clear:\n%s", out)
	}
	if resp, err := http.Get("http://" + u.Host + "/"); err != nil {
		t.Errorf("the printed address does not answer: %v", err)
	} else {
		resp.Body.Close()
	}

	dir := t.TempDir()
	pool := writeCert(t, dir)
	out = env.runIn(dir, "web", "webwide", "--listen", "127.0.0.1:0", "--tls-cert", "cert.pem", "--tls-key", "key.pem")
	line, _, _ = strings.Cut(out, "\n")
	u, err = url.Parse(line)
	if err != nil || u.Scheme != "https" || !strings.HasPrefix(u.Fragment, "token=") {
		t.Fatalf("agentmux web --tls-cert printed no https URL:\n%s", out)
	}
	c := &http.Client{Timeout: waitLong, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := c.Get("https://" + u.Host + "/")
	if err != nil {
		t.Fatalf("the view does not serve HTTPS: %v", err)
	}
	resp.Body.Close()
}
