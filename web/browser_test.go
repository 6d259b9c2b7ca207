package web

// End to end in a real headless Chromium (the key tests in Firefox too, see
// firefox_test.go): the page opened from the printed URL shows
// each pane as its program prints, the conversation as the relay delivers, zooms a
// pane on a click, and with control sends a message that is typed into the pane.

import (
	"strings"
	"testing"

	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/session"
)

func TestBrowserShowsPanesLive(t *testing.T) { checkPanesLive(t, chromeTab) }

// checkPanesLive: a page opened late shows what panes printed before, then each line
// as its program prints it, wide characters included, and the scrollback in order.
func checkPanesLive(t *testing.T, open opener) {
	r := newRig(t, Options{}, "alice", "bob")
	r.proc(1).Print("\x1b[1;31mbefore\x1b[0m the page opened\r\n") // a page opened late sees it
	r.sess.Sync()
	p := open(r, r.url())
	r.waitOn(p, `agentmux.text(1).includes('before the page opened')`)
	r.waitOn(p, `document.querySelector('.pane[data-pane="2"] .bar').textContent.includes('bob')`)

	r.proc(2).Print("宽 wide, then hello from bob\r\n")
	r.waitOn(p, `agentmux.text(2).includes('hello from bob')`)
	r.waitOn(p, `agentmux.text(2).split('\n')[1] === '$ 宽 wide, then hello from bob'`)

	// Lines that scroll off the top reach the page's scrollback, in order.
	for i := range 30 {
		r.proc(1).Print("line " + itoa(i) + "\r\n")
	}
	r.waitOn(p, `agentmux.text(1).includes('line 29')`)
	r.waitOn(p, `agentmux.scrollback(1) >= 19`)

	assert.Equal(t, "read-only", evalOn[string](t, p, `document.getElementById('mode').textContent`))
	address := evalOn[string](t, p, `location.href`)
	assert.NotContains(t, address, "token", "the token leaves the address bar")
	assert.Empty(t, evalOn[string](t, p, `document.cookie`), "no cookie")

	// A reload opens the page again (its secret is in localStorage), with no token.
	_ = p.eval(`(window.beforeReload = true, setTimeout(() => location.reload(), 0), true)`, new(bool))
	r.waitOn(p, `!window.beforeReload && document.getElementById('conn').textContent === 'live' && agentmux.text(1).includes('line 29')`)
}

func TestBrowserConversation(t *testing.T) {
	r, p := checkConversation(t, chromeTab)
	ctx := p.(chromePage).ctx

	// Filter by member, then search.
	pick := func(who string) {
		require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("who"), who)))
		eval[bool](t, ctx, `document.getElementById('who').dispatchEvent(new Event('change'))`)
	}
	pick("alice")
	r.waitJS(ctx, `[...document.querySelectorAll('#conv li')].filter(li => !li.hidden && li.textContent.includes('please rebase')).length === 0`)
	pick("")
	r.waitJS(ctx, `[...document.querySelectorAll('#conv li')].some(li => !li.hidden && li.textContent.includes('please rebase'))`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("q"), "nothing like this")))
	r.waitJS(ctx, `[...document.querySelectorAll('#conv li')].every(li => li.hidden)`)
}

// checkConversation: a message sent to a member, and a finished turn relayed to a
// linked peer, each appear in the page's conversation with its phase moving on. It
// returns the rig and page for more checks.
func checkConversation(t *testing.T, open opener) (*rig, tab) {
	r := newRig(t, Options{}, "alice", "bob")
	r.proc(2).SetEcho(true)
	p := open(r, r.url())
	r.waitOn(p, `agentmux.panes().length === 2`)
	err := r.sess.Send("ops", "bob", "please rebase onto main", session.SendOptions{})
	require.NoError(t, err)
	r.waitOn(p, `[...document.querySelectorAll('#conv li')].some(li => li.textContent.includes('please rebase onto main') && li.textContent.includes('ops → bob'))`)
	// It is typed into bob's pane, and the page shows its phase move on.
	r.waitOn(p, `agentmux.text(2).includes('please rebase onto main')`)
	r.waitOn(p, `[...document.querySelectorAll('#conv li .phase')].some(p => /typed|submitted|confirmed/.test(p.textContent))`)

	// A pane's finished turn, relayed to its linked peer, appears too.
	require.NoError(t, r.sess.Link(1, 2))
	r.proc(1).Print("the build is green on every platform\r\n$ ")
	r.waitOn(p, `[...document.querySelectorAll('#conv li')].some(li => li.textContent.includes('alice → bob') && li.textContent.includes('the build is green'))`)
	return r, p
}

func TestBrowserZoom(t *testing.T) { checkZoom(t, chromeTab) }

// checkZoom: a click on a pane's bar zooms it (the others hide); another click
// unzooms.
func checkZoom(t *testing.T, open opener) {
	r := newRig(t, Options{}, "alice", "bob", "carol")
	p := open(r, r.url())
	r.waitOn(p, `agentmux.panes().length === 3`)
	require.NoError(t, p.click(`.pane[data-pane="2"] .bar`))
	r.waitOn(p, `agentmux.zoomed() === 2`)
	r.waitOn(p, `document.querySelector('.pane[data-pane="1"]').offsetParent === null && document.querySelector('.pane[data-pane="2"]').offsetParent !== null`)
	require.NoError(t, p.click(`.pane[data-pane="2"] .bar`))
	r.waitOn(p, `agentmux.zoomed() === 0 && document.querySelector('.pane[data-pane="1"]').offsetParent !== null`)
}

// A pane resized (the person's terminal, zoom) is drawn at its new size at once, also
// one whose program sits quiet at a prompt and draws nothing after the resize: the
// pane a person opens the page for.
func TestBrowserFollowsAQuietPanesResize(t *testing.T) {
	r := newRig(t, Options{}, "alice", "bob")
	p := chromeTab(r, r.url())
	r.waitOn(p, `JSON.stringify(agentmux.size(1)) === '[60,12]'`)
	r.sess.Resize(1, 40, 8)
	r.waitOn(p, `JSON.stringify(agentmux.size(1)) === '[40,8]' && agentmux.text(1).includes('alice ready')`)
}

func TestBrowserControlSendsAndTypes(t *testing.T) { checkControlSendsAndTypes(t, chromeTab) }

// checkControlSendsAndTypes: with control, a message sent from the page's form is
// typed into the member's pane, attributed to the web view's person; keys typed into
// a zoomed pane's terminal reach its program, each once, in order.
func checkControlSendsAndTypes(t *testing.T, open opener) {
	r := newRig(t, Options{Control: true}, "alice", "bob")
	r.proc(2).SetEcho(true)
	p := open(r, r.url())
	r.waitOn(p, `!document.getElementById('sendform').hidden && document.getElementById('to').options.length >= 2`)
	evalOn[bool](t, p, `(document.getElementById('to').value = 'bob', document.getElementById('to').dispatchEvent(new Event('change')), true)`)
	require.NoError(t, p.click(`#msg`))
	require.NoError(t, p.keys("ship it from the browser"))
	require.NoError(t, p.click(`#sendbtn`))
	r.waitOn(p, `agentmux.text(2).includes('ship it from the browser')`)
	assert.Contains(t, r.proc(2).Peek(), "you(web)", "attributed to the web view's person")
	r.waitOn(p, `[...document.querySelectorAll('#conv li')].some(li => li.textContent.includes('you(web) → bob'))`)

	// Typing into a zoomed pane's terminal reaches its program, also when the members
	// change meanwhile (a pane held): redrawing the bars must not take the focus.
	require.NoError(t, p.click(`.pane[data-pane="1"] .bar`))
	r.waitOn(p, `agentmux.zoomed() === 1`)
	require.NoError(t, r.sess.Hold(2))
	r.waitOn(p, `document.querySelector('.pane[data-pane="2"] .bar').textContent.includes('release')`)
	r.waitOn(p, `document.activeElement && document.activeElement.closest('.pane[data-pane="1"]') !== null`)
	require.NoError(t, p.keys("ls -la\r"))
	r.waitOn(p, `agentmux.inputs() === 7`) // one frame a key
	r.waitSent(1, "ls -la\r")
	assert.Equal(t, "ls -la\r", r.proc(1).Peek(), "each key once, in order")
}

// typeKeys types text as a keyboard does: for each key a key down that carries its
// character, then the key up. (chromedp's KeyEvent adds a separate char event, which
// xterm takes as a second keystroke.)
func typeKeys(text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, r := range text {
			var down, up *input.DispatchKeyEventParams
			var char string
			for _, k := range kb.Encode(r) {
				switch k.Type {
				case input.DispatchKeyEventTypeKeyDown:
					down = k
				case input.DispatchKeyEventTypeKeyUp:
					up = k
				case input.DispatchKeyEventTypeChar:
					char = k.Text
				}
			}
			down.Text, down.UnmodifiedText = char, char
			for _, k := range []*input.DispatchKeyEventParams{down, up} {
				if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *k); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func TestBrowserWithoutTokenRefused(t *testing.T) { checkWithoutTokenRefused(t, chromeTab) }

// checkWithoutTokenRefused: without the token, or with a wrong one, the page says so
// and shows nothing of the session.
func checkWithoutTokenRefused(t *testing.T, open opener) {
	r := newRig(t, Options{}, "alice")
	r.proc(1).Print("secret screen\r\n")
	// No #token: the page asks for the link. (A browser that kept the secret of an
	// earlier view on the same port, which the server no longer knows, is told that
	// key is void: both say to run agentmux web.)
	p := open(r, r.base())
	r.waitOn(p, `document.getElementById('conn').textContent === 'refused' && document.body.innerText.includes('run agentmux web')`)
	assert.Zero(t, evalOn[int](t, p, `document.querySelectorAll('.pane').length`))
	body := evalOn[string](t, p, `document.documentElement.outerHTML`)
	assert.NotContains(t, body, "secret screen")
	assert.NotContains(t, body, "alice")

	p = open(r, r.base()+"#token="+strings.Repeat("0", 64)) // a wrong token
	r.waitOn(p, `document.body.innerText.includes('refused this page')`)
	assert.Zero(t, evalOn[int](t, p, `document.querySelectorAll('.pane').length`))

	// A link opens one page: a second browser (tab) with the same link is refused.
	link := r.url()
	p = open(r, link)
	r.waitOn(p, `agentmux.panes().length === 1`)
	p = open(r, link)
	r.waitOn(p, `document.body.innerText.includes('used already')`)
	assert.Zero(t, evalOn[int](t, p, `document.querySelectorAll('.pane').length`))
}

func TestBrowserOtherOriginRefused(t *testing.T) {
	r := newRig(t, Options{}, "alice")
	ctx := r.tab(r.url())
	r.waitJS(ctx, `agentmux.panes().length === 1`)
	// Another site's page in the same browser cannot open the socket: the Origin is
	// checked (and it has no key to show).
	other := newOtherSite(t)
	ctx2 := r.tab(other)
	outcome := eval[string](t, ctx2, `new Promise(res => {
		const ws = new WebSocket('ws://`+r.srv.Addr()+`/ws');
		ws.onopen = () => res('open'); ws.onerror = () => res('refused'); })`)
	assert.Equal(t, "refused", outcome)
}

func TestBrowserPhoneWidthOnePaneAtATime(t *testing.T) {
	r := newRig(t, Options{}, "alice", "bob")
	ctx := r.tab("about:blank")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(r.url())))
	visible := `[...document.querySelectorAll('.pane')].filter(p => p.offsetParent !== null).map(p => p.dataset.pane).join(',')`
	r.waitJS(ctx, `agentmux.panes().length === 2 && `+visible+` === '1'`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("pick"), "2")))
	eval[bool](t, ctx, `document.getElementById('pick').dispatchEvent(new Event('change'))`)
	r.waitJS(ctx, visible+` === '2'`)
	r.waitJS(ctx, `document.getElementById('conv').offsetParent !== null`) // the conversation below
}
