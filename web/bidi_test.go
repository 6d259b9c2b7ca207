package web

// A small WebDriver BiDi client, enough to drive Firefox in the browser tests: Firefox
// speaks BiDi natively over one WebSocket (no geckodriver), so the tests start it
// headless with a fresh profile, read the socket's address from its stderr, and send
// JSON commands (session.new, browsingContext.create/navigate/close, script.evaluate),
// matching each reply to its command by id. Events are not subscribed to.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// bidiReply is one reply to a command: a result, or an error with its message.
type bidiReply struct {
	Type    string          `json:"type"` // "success", "error" or "event"
	ID      *int            `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
}

// bidi is a connected BiDi session with the Firefox it started.
type bidi struct {
	conn *websocket.Conn
	cmd  *exec.Cmd
	dir  string // the fresh profile, removed on close

	mu      sync.Mutex
	next    int
	waiting map[int]chan bidiReply
	readErr error         // why the read loop ended
	done    chan struct{} // closed when the read loop ends
	exited  chan struct{} // closed when Firefox has exited
}

// firefoxPrefs keep a test profile quiet: no first-run pages, no telemetry, no
// updates or remote settings fetched while the tests run.
const firefoxPrefs = `user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("browser.aboutwelcome.enabled", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("datareporting.healthreport.uploadEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("app.update.disabledForTesting", true);
user_pref("app.normandy.enabled", false);
user_pref("services.settings.server", "data:,");
user_pref("network.captive-portal-service.enabled", false);
user_pref("network.connectivity-service.enabled", false);
user_pref("browser.safebrowsing.update.enabled", false);
user_pref("extensions.update.enabled", false);
`

var bidiListening = regexp.MustCompile(`WebDriver BiDi listening on (ws://\S+)`)

// startFirefox starts Firefox at path, headless with a fresh profile under dir, and
// opens a BiDi session on it.
func startFirefox(path, dir string) (*bidi, error) {
	if err := os.WriteFile(dir+"/user.js", []byte(firefoxPrefs), 0o600); err != nil {
		return nil, fmt.Errorf("write the profile's prefs: %w", err)
	}
	cmd := exec.Command(path, "--headless", "--no-remote", "--remote-debugging-port=0",
		"--profile", dir, "--width=1400", "--height=900", "about:blank")
	cmd.Env = append(os.Environ(), "MOZ_CRASHREPORTER_DISABLE=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("firefox's stderr: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	b := &bidi{cmd: cmd, dir: dir, waiting: map[int]chan bidiReply{}, done: make(chan struct{}), exited: make(chan struct{})}
	found := make(chan string, 1)
	go func() { // reads stderr to its end (Firefox blocks on a full pipe), then reaps
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if m := bidiListening.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		io.Copy(io.Discard, stderr)
		cmd.Wait()
		close(found)
		close(b.exited)
	}()
	var addr string
	select {
	case a, ok := <-found:
		if !ok {
			return nil, errors.New("firefox exited before it listened for WebDriver BiDi")
		}
		addr = a
	case <-time.After(30 * time.Second):
		b.kill()
		return nil, errors.New("firefox did not listen for WebDriver BiDi within 30s")
	}
	// A loaded machine (CI beside other builds) has seen session.new take over 10 s.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, addr+"/session", nil)
	if err != nil {
		b.kill()
		return nil, fmt.Errorf("connect to firefox's BiDi socket %s: %w", addr, err)
	}
	conn.SetReadLimit(64 << 20) // screenshots and long results
	b.conn = conn
	go b.readLoop()
	if _, err := b.call(ctx, "session.new", map[string]any{"capabilities": map[string]any{}}); err != nil {
		b.close()
		return nil, fmt.Errorf("open a BiDi session: %w", err)
	}
	return b, nil
}

// readLoop hands each reply to the command waiting for it until the socket closes.
func (b *bidi) readLoop() {
	defer close(b.done)
	for {
		_, data, err := b.conn.Read(context.Background())
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			for id, ch := range b.waiting {
				close(ch)
				delete(b.waiting, id)
			}
			b.mu.Unlock()
			return
		}
		var r bidiReply
		if json.Unmarshal(data, &r) != nil || r.ID == nil {
			continue // an event, or nothing we asked for
		}
		b.mu.Lock()
		ch := b.waiting[*r.ID]
		delete(b.waiting, *r.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
}

// call sends one command and waits for its reply's result.
func (b *bidi) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return nil, fmt.Errorf("%s: the BiDi socket is closed: %w", method, b.readErr)
	}
	b.next++
	id := b.next
	ch := make(chan bidiReply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if err := b.conn.Write(ctx, websocket.MessageText, msg); err != nil {
		return nil, fmt.Errorf("%s: send: %w", method, err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s: the BiDi socket closed before the reply", method)
		}
		if r.Type == "error" {
			return nil, fmt.Errorf("%s: %s: %s", method, r.Error, r.Message)
		}
		return r.Result, nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.waiting, id)
		b.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// newTab opens a tab and returns its browsing context's id.
func (b *bidi) newTab(ctx context.Context) (string, error) {
	res, err := b.call(ctx, "browsingContext.create", map[string]any{"type": "tab"})
	if err != nil {
		return "", err
	}
	var r struct {
		Context string `json:"context"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return "", fmt.Errorf("browsingContext.create's reply: %w", err)
	}
	return r.Context, nil
}

// navigate loads url in the tab and waits until the document is complete.
func (b *bidi) navigate(ctx context.Context, tab, url string) error {
	_, err := b.call(ctx, "browsingContext.navigate", map[string]any{"context": tab, "url": url, "wait": "complete"})
	return err
}

// closeTab closes the tab.
func (b *bidi) closeTab(ctx context.Context, tab string) error {
	_, err := b.call(ctx, "browsingContext.close", map[string]any{"context": tab})
	return err
}

// evaluate runs a JavaScript expression in the tab, awaiting a promise, and decodes
// its value (a primitive: boolean, string or number) into out.
func (b *bidi) evaluate(ctx context.Context, tab, expr string, out any) error {
	res, err := b.call(ctx, "script.evaluate", map[string]any{
		"expression": expr, "target": map[string]any{"context": tab},
		"awaitPromise": true, "resultOwnership": "none",
	})
	if err != nil {
		return err
	}
	var r struct {
		Type   string `json:"type"`
		Result struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return fmt.Errorf("script.evaluate's reply: %w", err)
	}
	if r.Type == "exception" {
		return fmt.Errorf("script.evaluate: the page threw: %s", r.ExceptionDetails.Text)
	}
	switch r.Result.Type {
	case "boolean", "string", "number":
		return json.Unmarshal(r.Result.Value, out)
	case "undefined", "null":
		return fmt.Errorf("script.evaluate: the expression gave %s", r.Result.Type)
	}
	return fmt.Errorf("script.evaluate: a %s, not a primitive", r.Result.Type)
}

// close ends the session and Firefox, then removes the profile.
func (b *bidi) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b.call(ctx, "browser.close", map[string]any{}) // Firefox exits; the reply may not come
	b.conn.Close(websocket.StatusNormalClosure, "")
	<-b.done
	select {
	case <-b.exited:
	case <-time.After(10 * time.Second):
		b.kill()
	}
	os.RemoveAll(b.dir)
}

// kill stops Firefox at once and waits for it.
func (b *bidi) kill() {
	if b.cmd.Process != nil {
		b.cmd.Process.Kill()
	}
	<-b.exited
	os.RemoveAll(b.dir)
}

// firefoxPath is Firefox's path: $AGENTMUX_FIREFOX, else the first of the usual names.
func firefoxPath() string {
	if p := os.Getenv("AGENTMUX_FIREFOX"); p != "" {
		return p
	}
	for _, name := range []string{"firefox-esr", "firefox"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// bidiKeys maps the characters a test types that are keys, not text, to WebDriver's
// key codes.
var bidiKeys = map[rune]string{'\r': "\uE006", '\n': "\uE006", '\t': "\uE004", '\b': "\uE003", 0x1b: "\uE00C"}

// typeText types text as a keyboard does, a key down and up for each character, into
// whatever has the tab's focus.
func (b *bidi) typeText(ctx context.Context, tab, text string) error {
	var acts []map[string]any
	for _, r := range text {
		v, ok := bidiKeys[r]
		if !ok {
			v = string(r)
		}
		acts = append(acts, map[string]any{"type": "keyDown", "value": v}, map[string]any{"type": "keyUp", "value": v})
	}
	_, err := b.call(ctx, "input.performActions", map[string]any{"context": tab,
		"actions": []any{map[string]any{"type": "key", "id": "keyboard", "actions": acts}}})
	return err
}

// clickAt clicks the mouse's left button at (x, y) in the tab's viewport.
func (b *bidi) clickAt(ctx context.Context, tab string, x, y int) error {
	_, err := b.call(ctx, "input.performActions", map[string]any{"context": tab,
		"actions": []any{map[string]any{"type": "pointer", "id": "mouse", "parameters": map[string]any{"pointerType": "mouse"},
			"actions": []any{
				map[string]any{"type": "pointerMove", "x": x, "y": y},
				map[string]any{"type": "pointerDown", "button": 0},
				map[string]any{"type": "pointerUp", "button": 0},
			}}}})
	return err
}
