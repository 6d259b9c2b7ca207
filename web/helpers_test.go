package web

// The web view's tests run the real session loop over fake panes (internal/fakeproc:
// what a test prints goes straight into the pane's emulator) and the real web server on
// a free loopback port. The browser tests drive one headless Chromium for the whole
// package through chromedp (and one Firefox over WebDriver BiDi, firefox_test.go), a
// tab per test; every wait is on a condition in the page with a deadline, and a
// timeout prints what the page showed. Without a browser those tests skip with one line
// saying how to run them (AGENTMUX_REQUIRE_BROWSER=1 and AGENTMUX_REQUIRE_FIREFOX=1
// turn that into a failure); the protocol-level tests (token, Host, Origin, read-only)
// need none.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/session"
)

// The browser the package's tests share (nil without one).
var (
	browserCtx    context.Context
	browserCancel context.CancelFunc
	browserWhy    string // why there is none
	browserOnce   sync.Once
)

func TestMain(m *testing.M) {
	code := m.Run()
	if browserCancel != nil {
		browserCancel()
	}
	if firefox != nil {
		firefox.close()
	}
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
			goleak.IgnoreTopFunction("internal/poll.runtime_pollWait")); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// findBrowser is Chromium's path: $AGENTMUX_BROWSER, else the first of the usual names.
func findBrowser() string {
	if p := os.Getenv("AGENTMUX_BROWSER"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// needBrowser returns the shared browser's context, starting it on first use; without
// one the test skips, or fails where AGENTMUX_REQUIRE_BROWSER=1.
func needBrowser(t testing.TB) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		path := findBrowser()
		if path == "" {
			browserWhy = "no chromium found"
			return
		}
		dir, err := os.MkdirTemp(os.Getenv("TMPDIR"), "agentmux-web-chromium-") // a test's own folder
		if err != nil {
			browserWhy = err.Error()
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.Flag("headless", true),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.Flag("mute-audio", true),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1400, 900),
		}
		actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, bcancel := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx); err != nil {
			bcancel()
			acancel()
			os.RemoveAll(dir)
			browserWhy = fmt.Sprintf("chromium at %s did not start: %v", path, err)
			return
		}
		browserCtx = bctx
		browserCancel = func() { bcancel(); acancel(); os.RemoveAll(dir) }
	})
	if browserCtx == nil {
		if os.Getenv("AGENTMUX_REQUIRE_BROWSER") == "1" {
			t.Fatalf("browser tests required (AGENTMUX_REQUIRE_BROWSER=1) but %s", browserWhy)
		}
		t.Skipf("web view browser tests did not run: %s (apt-get install chromium, or set AGENTMUX_BROWSER)", browserWhy)
	}
	return browserCtx
}

// rig is a session over fake panes with its web view.
type rig struct {
	t     testing.TB
	sess  *session.Session
	srv   *Server
	procs map[int]*fakeproc.Proc
	mu    sync.Mutex
}

// newRig starts one fake pane per name (60×12) and a web view with o.
func newRig(t testing.TB, o Options, names ...string) *rig {
	t.Helper()
	return newRigSize(t, 60, 12, o, names...)
}

// newRigSize is newRig with panes of cols×rows.
func newRigSize(t testing.TB, cols, rows int, o Options, names ...string) *rig {
	t.Helper()
	r := &rig{t: t, procs: map[int]*fakeproc.Proc{}}
	so := session.Options{Idle: 50 * time.Millisecond, Start: func(spec ptyhost.Spec, out io.Writer) (session.Process, error) {
		f := fakeproc.New(spec, out)
		r.mu.Lock()
		r.procs[spec.Pane] = f
		r.mu.Unlock()
		return f, nil
	}}
	for _, n := range names {
		so.Panes = append(so.Panes, session.PaneSpec{Name: n, Argv: []string{n}, Cols: cols, Rows: rows})
	}
	sess, err := session.Start(so)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, sess.Stop()) })
	r.sess = sess
	for id := range names {
		r.proc(id + 1).Print(names[id] + " ready\r\n$ ") // output, then quiet: the relay counts it started
	}
	if o.Session == "" {
		o.Session = "test"
	}
	srv, err := Start(context.Background(), sess, o)
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	r.srv = srv
	return r
}

// proc is pane id's fake process.
func (r *rig) proc(id int) *fakeproc.Proc {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.procs[id]
}

// base is the server's root URL, without the token.
func (r *rig) base() string { return "http://" + r.srv.Addr() + "/" }

// url is a fresh link to the view: a new one-use token each time.
func (r *rig) url() string { return r.srv.NewURL() }

// token is a fresh one-use token.
func (r *rig) token() string {
	_, t, _ := strings.Cut(r.url(), "#token=")
	return t
}

// tab opens a new tab of the shared browser at url; it closes with the test.
func (r *rig) tab(url string) context.Context {
	r.t.Helper()
	b := needBrowser(r.t)
	ctx, cancel := chromedp.NewContext(b)
	r.t.Cleanup(cancel)
	tctx, tcancel := context.WithTimeout(ctx, 60*time.Second)
	r.t.Cleanup(tcancel)
	require.NoError(r.t, chromedp.Do(tctx, chromedp.Navigate(url)))
	return tctx
}

// tab is one open tab of a browser under test (Chromium through chromedp, or Firefox
// through WebDriver BiDi), so that the key browser tests run in both.
type tab interface {
	// eval runs a JavaScript expression, awaiting a promise, and decodes its JSON
	// value into out.
	eval(expr string, out any) error
	// navigated reports whether err means the page navigated while it evaluated, so
	// the expression is worth evaluating again.
	navigated(err error) bool
	// click clicks the first element css selects, with the mouse.
	click(css string) error
	// keys types text as a keyboard does into what has the focus ('\r' is Enter).
	keys(text string) error
}

// opener opens url in a new tab of one browser; the tab closes with the test.
type opener func(r *rig, url string) tab

// chromePage is a Chromium tab.
type chromePage struct{ ctx context.Context }

func (p chromePage) eval(expr string, out any) error {
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

func (chromePage) navigated(err error) bool {
	return strings.Contains(err.Error(), "navigated or closed")
}

func (p chromePage) click(css string) error {
	return chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(css)))
}

func (p chromePage) keys(text string) error { return chromedp.Do(p.ctx, typeKeys(text)) }

// chromeTab opens url in a Chromium tab.
func chromeTab(r *rig, url string) tab { return chromePage{r.tab(url)} }

// waitJS waits until the Chromium page's expression is true (see waitOn).
func (r *rig) waitJS(ctx context.Context, expr string) {
	r.t.Helper()
	r.waitOn(chromePage{ctx}, expr)
}

// waitOn waits until the page's expression is true; on timeout it fails with what
// the page showed.
func (r *rig) waitOn(p tab, expr string) {
	r.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	js := `new Promise(res => { const end = Date.now() + 15000; (function poll() {
		let ok = false; try { ok = !!(` + expr + `); } catch (e) {}
		if (ok || Date.now() > end) { res(ok); return; } requestAnimationFrame(poll); })(); })`
	var ok bool
	var err error
	for {
		// The page navigates once (the token traded for the cookie): evaluate again.
		err = p.eval(js, &ok)
		if err == nil || !p.navigated(err) || time.Now().After(deadline) {
			break
		}
	}
	if err == nil && ok {
		return
	}
	var body, panes string
	p.eval(`document.body ? document.body.innerText : ''`, &body)
	p.eval(`window.agentmux ? agentmux.panes().map(n => '--- pane ' + n + '\n' + agentmux.text(n)).join('\n') : '(no agentmux)'`, &panes)
	var focus string
	p.eval(`(document.activeElement ? document.activeElement.tagName + "." + document.activeElement.className + " in " + (document.activeElement.closest(".pane") || {}).className : "none") + " inputs=" + (window.agentmux ? agentmux.inputs() : -1)`, &focus)
	r.t.Logf("focus: %s", focus)
	r.t.Fatalf("page never showed %s (err %v, waited until %s)\npage text:\n%s\npanes:\n%s", expr, err, deadline.Format("15:04:05"), body, panes)
}

// eval evaluates a JavaScript expression in the Chromium page (awaiting a promise).
func eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	return evalOn[T](t, chromePage{ctx}, expr)
}

// evalOn evaluates a JavaScript expression in the page (awaiting a promise).
func evalOn[T any](t testing.TB, p tab, expr string) T {
	t.Helper()
	var v T
	require.NoError(t, p.eval(expr, &v), "evaluate %s", expr)
	return v
}

// itoa is strconv.Itoa, short.
func itoa(i int) string { return strconv.Itoa(i) }

// waitSent waits until pane id's program was sent s (fakeproc's write hook is the
// signal), failing after a deadline with what it was sent.
func (r *rig) waitSent(id int, s string) {
	r.t.Helper()
	p := r.proc(id)
	wrote := make(chan struct{}, 1)
	p.SetOnWrite(func() {
		select {
		case wrote <- struct{}{}:
		default:
		}
	})
	defer p.SetOnWrite(nil)
	deadline := time.After(15 * time.Second)
	for !strings.Contains(p.Peek(), s) {
		select {
		case <-wrote:
		case <-deadline:
			r.t.Fatalf("pane %d was never sent %q; it was sent %q", id, s, p.Peek())
		}
	}
}

// newOtherSite serves a blank page from another origin (another port on loopback).
func newOtherSite(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!doctype html><title>elsewhere</title><p>another site</p>")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}
