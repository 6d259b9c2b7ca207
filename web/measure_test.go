package web

// Measured in a real browser: how long output printed in a pane takes to be visible in
// the page's terminal (each update waited for in the page, so the time includes one
// DevTools round trip back to the test), and how many bytes a page receives per second
// while four panes scroll. The screenshot in docs/ is made here too:
//
//	go test ./web -run TestScreenshot -screenshot ../docs/web-view.png
//	go test ./web -run '^$' -bench Browser -benchtime 1000x

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/session"
)

var screenshot = flag.String("screenshot", "", "write the page's screenshot (PNG) to this file")

func BenchmarkBrowserOutputToPage(b *testing.B) {
	r := newRig(b, Options{}, "alice")
	ctx := r.tab(r.url())
	r.waitJS(ctx, `agentmux.panes().length === 1`)
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		s := fmt.Sprintf("tick %d", i)
		t0 := time.Now()
		r.proc(1).Print(s + "\r\n")
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`agentmux.waitText(1, '`+s+`')`, chromedp.EvalAwaitPromise))
		if err != nil || ok == 0 {
			b.Fatalf("update %d never shown: %v", i, err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

func BenchmarkBrowserFourPanesScroll(b *testing.B) {
	r := newRig(b, Options{}, "a", "b", "c", "d")
	ctx := r.tab(r.url())
	r.waitJS(ctx, `agentmux.panes().length === 4`)
	const every = 5 * time.Millisecond // 200 lines a second in each pane
	line := strings.Repeat("scrolling log output with words ", 2)[:58]
	b.ResetTimer()
	for range b.N {
		start, sent := time.Now(), r.srv.Sent()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for id := 1; id <= 4; id++ {
			wg.Go(func() {
				tick := time.NewTicker(every)
				defer tick.Stop()
				for n := 0; ; n++ {
					select {
					case <-stop:
						return
					case <-tick.C:
						r.proc(id).Print(fmt.Sprintf("%05d %s\r\n", n, line))
					}
				}
			})
		}
		time.Sleep(3 * time.Second) // the measuring window, not a synchronisation
		close(stop)
		wg.Wait()
		secs := time.Since(start).Seconds()
		b.ReportMetric(float64(r.srv.Sent()-sent)/secs, "bytes/s")
		b.ReportMetric(4*float64(time.Second/every), "lines/s")
	}
}

// TestScreenshot draws a session like a real one (three agents, colours, a linked
// group, messages in the conversation) and, with -screenshot, writes the page's
// picture.
func TestScreenshot(t *testing.T) {
	r := newRigSize(t, 50, 24, Options{Control: true, Session: "refactor"}, "claude", "codex", "gemini")
	r.proc(1).Print("\x1b[2J\x1b[H\x1b[1;38;5;208m✻ Claude Code\x1b[0m\r\n\r\n" +
		"\x1b[1m> \x1b[0mrefactor the store's history query\r\n\r\n" +
		"\x1b[38;5;245m● Reading store/message.go (290 lines)\x1b[0m\r\n" +
		"\x1b[38;5;245m● Editing History: one query, rowid order\x1b[0m\r\n" +
		"\x1b[32m  + ORDER BY rowid DESC LIMIT ?\x1b[0m\r\n\x1b[31m  - ORDER BY queued\x1b[0m\r\n\r\n" +
		"Done. \x1b[1mcodex\x1b[0m, please review the change.\r\n\r\n\x1b[7m>\x1b[0m ")
	r.proc(2).Print("\x1b[2J\x1b[H\x1b[1;36m>_ OpenAI Codex\x1b[0m\r\n\r\n" +
		"\x1b[2mclaude (1):\x1b[0m\r\n\r\nDone. codex, please review the change.\r\n\r\n" +
		"\x1b[33m• Running\x1b[0m go test ./store/\r\n\x1b[32mok\x1b[0m  github.com/agentmux/agentmux/store 0.41s\r\n\r\n" +
		"The query is right; one nit: name the limit.\r\n\r\n▌ ")
	r.proc(3).Print("\x1b[2J\x1b[H\x1b[1;34m✦ Gemini CLI\x1b[0m\r\n\r\n" +
		"\x1b[35mthinking…\x1b[0m reading docs/protocol.md\r\n\r\n" +
		"\x1b[1mplan\x1b[0m: compare X_HISTORY with store.History\r\n\r\n\x1b[7m>\x1b[0m ")
	require.NoError(t, r.sess.Link(1, 2))
	r.proc(2).SetEcho(true)
	err := r.sess.Send("you(web)", "codex", "please also run go vet", session.SendOptions{})
	require.NoError(t, err)
	err = r.sess.Send("claude", "gemini", "can you check the protocol doc matches?", session.SendOptions{})
	require.NoError(t, err)
	ctx := r.tab(r.url())
	r.waitJS(ctx, `agentmux.panes().length === 3 && agentmux.text(3).includes('Gemini') && document.querySelectorAll('#conv li').length >= 2`)
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.Greater(t, len(png), 10_000, "a picture of the page")
	if *screenshot != "" {
		require.NoError(t, os.WriteFile(*screenshot, png, 0o644))
	}
}
