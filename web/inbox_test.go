package web

// The inbox in a real headless Chromium at a phone's width: a pane that prints an
// approval prompt (Claude Code's shape, in a pane running "claude", which the built-in
// profile reads) is listed first on the page with its question, its rows and its
// options as buttons; a tap on one types that choice's key into the pane as the person
// (through session.Answer), and the entry goes once the prompt does. A read-only page
// shows the buttons disabled, and the server refuses an answer from it.

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const approval = "\x1b[2J\x1b[H Bash command\r\n   touch probe\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel"

func TestBrowserInboxAnswers(t *testing.T) {
	r := newRig(t, Options{Control: true}, "alice", "claude")
	ctx := r.tab("about:blank")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(r.url())))
	r.waitJS(ctx, `agentmux.panes().length === 2 && document.getElementById('conn').textContent === 'live'`)
	assert.True(t, eval[bool](t, ctx, `document.getElementById('inbox').hidden`), "nothing waits: no inbox")

	r.proc(2).Print(approval)
	r.waitJS(ctx, `agentmux.inbox().length === 1`)
	got := eval[[]map[string]any](t, ctx, `agentmux.inbox()`)
	assert.Equal(t, float64(2), got[0]["pane"])
	assert.Equal(t, "Do you want to proceed?", got[0]["question"])
	assert.Equal(t, []any{"1  Yes", "2  No"}, got[0]["options"])
	assert.Contains(t, eval[string](t, ctx, `document.querySelector('#inboxlist .rows').textContent`), "touch probe")
	// At a phone's width it is the first thing on the page, above the panes.
	assert.True(t, eval[bool](t, ctx, `(() => { const i = document.getElementById('inbox').getBoundingClientRect(),
		p = document.getElementById('panes').getBoundingClientRect(); return i.top < p.top && i.top < 120 && i.width <= 390; })()`))

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#inboxlist li[data-pane="2"] button[data-key="2"]`)))
	r.waitJS(ctx, `document.getElementById('inboxanswer').textContent.startsWith('answered pane 2: 2 No')`)
	r.waitSent(2, "2")
	assert.Empty(t, r.proc(1).Sent(), "nothing typed into the other pane")

	r.proc(2).Print("\x1b[2J\x1b[H● ok\r\n\r\n❯ \r\n")
	r.waitJS(ctx, `agentmux.inbox().length === 0 && document.getElementById('inbox').hidden`)
}

func TestBrowserInboxReadOnly(t *testing.T) {
	r := newRig(t, Options{}, "claude")
	ctx := r.tab(r.url())
	r.proc(1).Print(approval)
	r.waitJS(ctx, `agentmux.inbox().length === 1`)
	assert.True(t, eval[bool](t, ctx, `[...document.querySelectorAll('#inboxlist button')].every(b => b.disabled)`))
	// A page that sends the action anyway is refused by the server.
	eval[bool](t, ctx, `(() => { const b = document.querySelector('#inboxlist button'); b.disabled = false; b.click(); return true; })()`)
	r.waitJS(ctx, `document.getElementById('inboxanswer').textContent.includes('read-only')`)
	assert.Empty(t, r.proc(1).Sent())
}

// A notification's link is the view's address without its secret: tapped, it opens a
// new tab, which opens the view in a browser that opened the view's link before (the
// page secret is the browser's for that address, not one tab's). A link opened again
// in a second tab is refused without taking the first tab's secret with it.
func TestANotificationsLinkOpensTheView(t *testing.T) {
	r := newRig(t, Options{Control: true}, "alice")
	url := r.url()
	p := chromeTab(r, url)
	r.waitOn(p, `document.getElementById('conn').textContent === 'live' && agentmux.panes().length === 1`)
	q := chromeTab(r, r.base())
	r.waitOn(q, `document.getElementById('conn').textContent === 'live' && agentmux.panes().length === 1`)
	assert.True(t, evalOn[bool](t, q, `document.getElementById('notice').hidden`))

	used := chromeTab(r, url)
	r.waitOn(used, `document.getElementById('conn').textContent === 'refused'`)
	again := chromeTab(r, r.base())
	r.waitOn(again, `document.getElementById('conn').textContent === 'live' && agentmux.panes().length === 1`)
}

// The recipient the person picked is never swapped for another: renamed while they
// type, the list says it is gone and the send waits for them to pick, through further
// changes of the members, and goes to whom they pick then.
func TestARecipientGoneIsNotSwapped(t *testing.T) {
	r := newRig(t, Options{Control: true}, "alice", "bob", "carol")
	r.proc(1).SetEcho(true)
	r.proc(3).SetEcho(true)
	p := chromeTab(r, r.url())
	r.waitOn(p, `!document.getElementById('sendform').hidden && document.getElementById('to').options.length === 3`)
	evalOn[bool](t, p, `(document.getElementById('to').value = 'carol', document.getElementById('to').dispatchEvent(new Event('change')), true)`)
	require.NoError(t, p.click(`#msg`))
	require.NoError(t, p.keys("deploy to prod now"))
	require.NoError(t, r.sess.Rename(3, "dave"))
	r.waitOn(p, `[...document.getElementById('to').options].some(o => o.value === 'dave')`)
	assert.Equal(t, "", evalOn[string](t, p, `document.getElementById('to').value`))
	require.NoError(t, p.click(`#sendbtn`))
	r.waitOn(p, `document.getElementById('answer').textContent === 'pick who to send to'`)
	assert.Equal(t, "deploy to prod now", evalOn[string](t, p, `document.getElementById('msg').value`), "the text is kept")

	require.NoError(t, r.sess.Hold(2)) // the members change again meanwhile
	r.waitOn(p, `document.querySelector('.pane[data-pane="2"] .bar').textContent.includes('held')`)
	assert.Equal(t, "", evalOn[string](t, p, `document.getElementById('to').value`), "still waiting for the person")

	evalOn[bool](t, p, `(document.getElementById('to').value = 'dave', document.getElementById('to').dispatchEvent(new Event('change')), true)`)
	require.NoError(t, p.click(`#sendbtn`))
	r.waitOn(p, `[...document.querySelectorAll('#conv li')].some(li => li.textContent.includes('deploy to prod now'))`)
	assert.NotContains(t, r.proc(1).Peek(), "deploy to prod now", "alice was never chosen")
}

// A tap on an inbox button whose press and release straddle a members frame (another
// pane held meanwhile) still answers: the inbox is redrawn only when what it lists
// changed, so the button pressed is the one released.
func TestATapAnswersWhileOtherPanesChange(t *testing.T) {
	r := newRig(t, Options{Control: true}, "alice", "claude")
	ctx := r.tab("about:blank")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(r.url())))
	r.waitJS(ctx, `agentmux.panes().length === 2 && document.getElementById('conn').textContent === 'live'`)
	r.proc(2).Print(approval)
	r.waitJS(ctx, `agentmux.inbox().length === 1`)
	xy := eval[[]float64](t, ctx, `(() => { const b = document.querySelector('#inboxlist button[data-key="1"]').getBoundingClientRect(); return [b.x + b.width/2, b.y + b.height/2]; })()`)
	mouse := func(typ input.DispatchMouseEventType) {
		require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(c context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(c, tg, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: typ, X: xy[0], Y: xy[1], Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1})
			return err
		})))
	}
	mouse(input.DispatchMouseEventTypeMousePressed)
	require.NoError(t, r.sess.Hold(1)) // another pane changes meanwhile
	r.waitJS(ctx, `document.querySelector('.pane[data-pane="1"] .bar').textContent.includes('held')`)
	mouse(input.DispatchMouseEventTypeMouseReleased)
	// The page says "answering claude: Yes…" until the session's answer replaces it.
	r.waitJS(ctx, `document.getElementById('inboxanswer').textContent.startsWith('answered ')`)
	assert.Equal(t, "answered pane 2: 1 Yes", eval[string](t, ctx, `document.getElementById('inboxanswer').textContent`))
}
