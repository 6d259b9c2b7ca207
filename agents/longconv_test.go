//go:build agents

package agents

// Longer linked conversations than link_test.go's two deliveries: six, each answer a few
// paragraphs long (long enough to wrap in a narrow pane, with a blank line between
// paragraphs, a wide-character word and a quote of the message it answers), so a
// full-screen CLI's conversation outgrows its screen and each message it was sent is drawn
// in it (echoed) before its answer. Every delivery must carry exactly the header and the
// words of the answer before it: not the echo, not the CLI's boxes or status rows, not
// rows scrolled off. Each exact delivery is counted and logged. Run for the new CLIs among
// themselves at full width, and with opencode in panes 60 and 70 columns wide, where its
// input box starts at column 2.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

// longReply answers "LABEL-N to: FIRST WORDS", a blank line, a paragraph of some 45 words
// naming the turn (a wide-character word in it), a blank line and a closing sentence.
func longReply(label string) mockmodel.ReplyFunc {
	return func(p mockmodel.Prompt) string {
		id := fmt.Sprintf("%s-%d", label, p.N)
		return fmt.Sprintf("%s to: %s\n\n"+
			"Paragraph of %s: the relay must carry these words whole, in order, across the "+
			"rows this pane wraps them into, without the boxes, the status rows or the message "+
			"this answer was given, and the word 漢字 counts two columns per character while "+
			"the sentence keeps going a little longer to wrap.\n\n"+
			"Closing line of %s, the last one.",
			id, mockmodel.FirstWords(p.Text, 6), id, id)
	}
}

// convResult is what conversation measured of one linked conversation.
type convResult struct {
	// want is the budget; exact counts the deliveries that carried exactly the header and
	// the answer before them; came counts those that reached the peer's model at all.
	want, exact, came int
	// extra is a delivery that came after the budget was spent ("" when none).
	extra string
	// gaps are, per delivery, the end of the answer relayed → the start of the request
	// carrying it, on the mock servers' clocks.
	gaps []time.Duration
	// ends are the ends of the answers relayed; waits, per delivery, the end of the
	// answer → the relay typing it (its own share of the hop: the turn's end read and
	// the peer found idle), from the session's events.
	ends  []time.Time
	waits []time.Duration
}

// budget says whether the budget held: every delivery came and no more.
func (r convResult) budget() string {
	switch {
	case r.extra != "":
		return "overrun"
	case r.came < r.want:
		return "short"
	}
	return "exact"
}

// longConversation runs conversation and returns how many deliveries were exact.
func longConversation(t *testing.T, bin string, a, b cli, cols, rows, deliveries int) int {
	return conversation(t, bin, a, b, cols, rows, deliveries).exact
}

// conversation runs `agentmux --link --turns N A B` in a cols×rows terminal, opens the
// conversation in pane 1 and checks each of the N deliveries (A→B, B→A, ...) carries
// exactly the header and the words of the answer before it; then that the budget stopped
// the relay. A delivery that never comes fails the test and ends the conversation there;
// the result counts what came.
func conversation(t *testing.T, bin string, a, b cli, cols, rows, deliveries int) (res convResult) {
	aLabel, bLabel := strings.ToUpper(a.name), strings.ToUpper(b.name)
	p := startPairSized(t, bin, a, b, cols, rows, longReply(aLabel), longReply(bLabel),
		"--link", "--turns", fmt.Sprint(deliveries))
	tm, aSrv, bSrv := p.tm, p.aSrv, p.bSrv
	res.want = deliveries
	events := recordEvents(t, bin, p)
	defer func() {
		t.Logf("%s⇄%s in panes %d columns wide: %d/%d deliveries exact", a.name, b.name, cols/2-2, res.exact, deliveries)
	}()

	const opening = "hello from the long conversation test, please reply"
	tm.submit(opening)
	// A CLI still starting may draw its input afresh after the opening was typed and lose
	// it (opencode on a loaded machine: its start screen comes a second time): typed again
	// once, said in the log. A delivery is never typed twice this way: this is the test's
	// own message.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	_, err := aSrv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn })
	cancel()
	if err != nil && !contains(tm.vt.ScreenText(), opening) {
		t.Logf("the opening never reached %s and is not on screen: typed again\n%s", a.name, tm.dump())
		tm.submit(opening)
	}
	prev := waitTurn(t, tm, aSrv, a.name, 1, 180*time.Second) // opencode's first request: 90 s under load
	if prev.Prompt != opening {
		t.Errorf("%s's first message = %q, want the opening %q", a.name, prev.Prompt, opening)
	}
	for i := 1; i <= deliveries; i++ {
		// Odd deliveries go from A (pane 1) to B, even ones back.
		from, to, srv, n := a.name+" (1):", b.name, bSrv, (i+1)/2
		if i%2 == 0 {
			from, to, srv, n = b.name+" (2):", a.name, aSrv, i/2+1
		}
		ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
		r, err := srv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn && r.N == n })
		cancel()
		if err != nil {
			t.Errorf("delivery %d never reached %s (turn %d): %v\n%s", i, to, n, err, tm.dump())
			return res
		}
		res.came++
		res.gaps = append(res.gaps, r.Start.Sub(prev.End).Round(time.Millisecond))
		res.ends = append(res.ends, prev.End)
		if want := from + "\n\n" + prev.Reply; sameWords(r.Prompt, want) {
			res.exact++
		} else {
			t.Errorf("delivery %d (→ %s) = %q\nwant the words of %q", i, to, r.Prompt, want)
		}
		prev = r
	}
	// The last delivery's answer is on screen, then no further delivery comes.
	tm.waitText(60*time.Second, "Closing line of "+strings.Fields(prev.Reply)[0])
	last := bSrv
	if deliveries%2 == 1 {
		last = aSrv
	}
	quiet, stop := context.WithTimeout(context.Background(), linkQuiet)
	defer stop()
	want := len(last.Turns()) + 1
	if r, err := last.WaitFor(quiet, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn && r.N == want }); err == nil {
		res.extra = r.Prompt
		t.Errorf("a delivery came after the budget of %d was spent: %q\n%s", deliveries, r.Prompt, tm.dump())
	}
	// Read by now: the relay typed each delivery long before the quiet above ended.
	for i, at := range events.typed() {
		if i < len(res.ends) {
			res.waits = append(res.waits, at.Sub(res.ends[i]).Round(time.Millisecond))
		}
	}
	return res
}

// eventLog is the session's events as recordEvents read them.
type eventLog struct {
	mu      sync.Mutex
	lines   []string    // each behind the time it was read
	typedAt []time.Time // when each delivery was typed, in order (the events' own times)
}

// typed returns when each delivery was typed so far.
func (l *eventLog) typed() []time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.typedAt)
}

// recordEvents streams the session's events (`agentmux events`) for the rest of the test,
// each line behind the time it was read, and logs them, cut to 300 bytes a line, when
// the test fails or AGENTS_EVENTS=1: the relay's phases (typed, submitted, confirmed)
// against the mock servers' request times say where a slow or lost delivery went.
func recordEvents(t *testing.T, bin string, p pair) *eventLog {
	ev := exec.Command(bin, "events")
	ev.Dir, ev.Env = p.dir, p.env
	out, err := ev.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Start(); err != nil {
		t.Fatalf("agentmux events: %v", err)
	}
	l := &eventLog{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e struct {
				TS          int64
				Kind, Phase string
			}
			_ = json.Unmarshal(sc.Bytes(), &e)
			line := sc.Text()
			if len(line) > 300 {
				line = line[:300] + "…"
			}
			l.mu.Lock()
			l.lines = append(l.lines, time.Now().Format("15:04:05.000")+" "+line)
			if e.Kind == "delivery" && e.Phase == "typed" {
				l.typedAt = append(l.typedAt, time.UnixMilli(e.TS))
			}
			l.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ev.Process.Kill()
		<-done // the pipe is read to its end before Wait closes it
		_ = ev.Wait()
		if t.Failed() || os.Getenv("AGENTS_EVENTS") == "1" {
			t.Logf("agentmux events:\n%s", strings.Join(l.lines, "\n"))
		}
	})
	return l
}

// TestNewCLIsLongConversation runs six-delivery conversations of the new CLIs among
// themselves, both directions.
func TestNewCLIsLongConversation(t *testing.T) {
	bin := buildAgentmux(t)
	exact, all := 0, 0
	for _, pair := range amongPairs(t) {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			exact += longConversation(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]), 220, 50, 6)
			all += 6
		})
	}
	t.Logf("%d/%d deliveries exact", exact, all)
}

// TestOpencodeNarrow runs opencode linked with pi in panes 60 and 70 columns wide (opencode
// draws its input box from column 2 below about 80), both directions.
func TestOpencodeNarrow(t *testing.T) {
	bin := buildAgentmux(t)
	exact, all := 0, 0
	for _, width := range []int{60, 70} {
		for _, pair := range [][2]string{{"opencode", "pi"}, {"pi", "opencode"}} {
			if !installed(t, pair[0]) || !installed(t, pair[1]) {
				t.Skipf("%s or %s not installed", pair[0], pair[1])
			}
			t.Run(fmt.Sprintf("%s-%s-%d", pair[0], pair[1], width), func(t *testing.T) {
				exact += longConversation(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]), 2*(width+2), 40, 4)
				all += 4
			})
		}
	}
	t.Logf("%d/%d deliveries exact", exact, all)
}
