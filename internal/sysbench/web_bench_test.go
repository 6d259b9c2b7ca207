package sysbench

// BenchmarkCatWithWebPages: the web view's target "cat of a 64 MB log in one pane with
// two pages open: the TUI's throughput stays within 10 % of the same run without
// pages". Each op runs agentmux --web twice in a 200×50 PTY, its pane waiting for Enter
// before `cat LOG`: once with no page, once with two WebSocket clients that read every
// frame as a page does (each showing a link's token in its first frame); each is timed from the Enter
// to DONE-MARK on agentmux's screen. ratio is with/without (target ≤ 1.10); page_MB is
// what each page received.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

func BenchmarkCatWithWebPages(b *testing.B) {
	bin := agentmux(b)
	log := input(b, kindSGR, catLogSize)
	var without, with time.Duration
	var received, frames atomic.Int64
	b.ResetTimer()
	for i := range b.N {
		without += timeCatAfterEnter(b, bin, log, fmt.Sprintf("webbench-%d-a", i), 0, &received, &frames)
		with += timeCatAfterEnter(b, bin, log, fmt.Sprintf("webbench-%d-b", i), 2, &received, &frames)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(without.Seconds()/n, "no_pages_s")
	b.ReportMetric(with.Seconds()/n, "two_pages_s")
	b.ReportMetric(with.Seconds()/without.Seconds(), "ratio")
	b.ReportMetric(float64(received.Load())/2/n/(1<<20), "page_MB")
	b.ReportMetric(float64(frames.Load())/2/with.Seconds(), "page_frames/s")
}

// timeCatAfterEnter starts agentmux --web with a pane that cats log after Enter, opens
// pages WebSocket clients on its web view, and times the cat.
func timeCatAfterEnter(b *testing.B, bin, log, name string, pages int, received, frames *atomic.Int64) time.Duration {
	b.Helper()
	s := startSession(b, bin, "--session", name, "--web", fmt.Sprintf(`sh -c "read x; cat %s; %s; exec cat"`, log, printDone))
	defer s.close()
	s.waitText(catTimeout, "1 sh")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range pages {
		host, token := pageLink(b, bin, s.env, name)
		conn, _, err := websocket.Dial(ctx, "ws://"+host+"/ws", &websocket.DialOptions{
			HTTPHeader: http.Header{"Origin": {"http://" + host}}})
		if err != nil {
			b.Fatal(err)
		}
		conn.SetReadLimit(-1)
		// the page's first frame shows its link's token, as the page's script does
		if err := conn.Write(ctx, websocket.MessageText, []byte(`{"t":"auth","token":"`+token+`"}`)); err != nil {
			b.Fatal(err)
		}
		go func() {
			defer conn.CloseNow()
			for {
				_, p, err := conn.Read(ctx)
				if err != nil {
					return
				}
				received.Add(int64(len(p)))
				frames.Add(1)
			}
		}()
	}
	start := time.Now()
	s.send([]byte("\r"))
	s.waitText(catTimeout, doneMark)
	return time.Since(start)
}

// pageLink asks the session for a page's link (`agentmux web NAME`, one token per page)
// and returns its host and token.
func pageLink(b *testing.B, bin string, env []string, name string) (host, token string) {
	b.Helper()
	cmd := exec.Command(bin, "web", name)
	cmd.Env = env // the session's own runtime folder
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		b.Fatalf("agentmux web %s: %v %s", name, err, msg)
	}
	u, err := url.Parse(strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]))
	if err != nil {
		b.Fatal(err)
	}
	token, ok := strings.CutPrefix(u.Fragment, "token=")
	if !ok {
		b.Fatalf("agentmux web %s printed no token: %q", name, out)
	}
	return u.Host, token
}
