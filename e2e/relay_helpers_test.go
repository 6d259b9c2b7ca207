package e2e

// Helpers of the relay tests. Each fake agent writes a transcript (demo --transcript: one
// JSON line per message received and answer given), so a test compares exactly what the
// relay typed into an agent with what the other agent answered, instead of scraping the
// screen. The agent writes a transcript line before it redraws for that step, and the
// redraw reaches agentmux's screen after it, so a wait that re-reads the transcripts on
// every screen update never misses a line: conditions on the screen and on the transcripts
// are waited for together, with session.waitScreen, and a failure prints both.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	// relayIdle is agentmux's --idle in these tests: short, to keep them fast.
	relayIdle = "500ms"
	// relayBusy is how long a fake agent thinks before answering.
	relayBusy = "300ms"
	// relayWait bounds each step of a conversation (a turn, its idle detection, the
	// delivery and its submit) under the race detector on a busy machine.
	relayWait = 20 * time.Second
)

// fake is one fake agent in a relay test.
type fake struct {
	n          int    // its pane number
	name       string // its pane name and the name it answers with
	style      string // inline, alt or plain
	flags      []string
	transcript string // the file it logs its conversation to
}

// newFake describes the fake agent of pane n. The inline style runs as "claude" and the
// alternate-screen style as "codex", so agentmux gives them those programs' relay
// profiles; the plain style runs as itself (the generic profile).
func newFake(t *testing.T, n int, name, style string, flags ...string) *fake {
	return &fake{n: n, name: name, style: style, flags: flags,
		transcript: filepath.Join(t.TempDir(), name+".jsonl")}
}

// arg is the AGENT argument of agentmux for the fake agent, its words quoted.
func (f *fake) arg() string {
	prog := fakeAgentBin
	switch f.style {
	case "inline":
		prog = claudeBin
	case "alt":
		prog = codexBin
	}
	words := append([]string{prog, "--name", f.name, "--style", f.style, "--reply", "echo",
		"--busy", relayBusy, "--transcript", f.transcript}, f.flags...)
	for i, w := range words {
		words[i] = "'" + w + "'"
	}
	return f.name + "=" + strings.Join(words, " ")
}

// ready reports whether the agent's start screen is in its pane.
func (f *fake) ready(scr *screen) bool {
	switch f.style {
	case "alt":
		return scr.paneHas(f.n, "› Ask "+f.name)
	case "plain":
		return scr.paneHas(f.n, f.name+" (simulated agent)")
	}
	return scr.paneHas(f.n, f.name+" · simulated agent")
}

// bracketed reports whether the agent takes pastes (and so the relay's deliveries) as
// bracketed pastes; the plain style does not, so the relay types its newlines as spaces.
func (f *fake) bracketed() bool { return f.style != "plain" }

// talk is what an agent's transcript holds: the messages it received and the answers it
// gave, in order.
type talk struct{ in, out []string }

// read reads the agent's transcript: complete lines only, so a line being written is
// left for the next read. A missing file is an empty transcript.
func (f *fake) read() talk {
	var tk talk
	b, err := os.ReadFile(f.transcript)
	if err != nil {
		return tk
	}
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	} else {
		return tk
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct{ In, Out *string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			tk.in = append(tk.in, fmt.Sprintf("<bad transcript line %q: %v>", sc.Text(), err))
			continue
		}
		if e.In != nil {
			tk.in = append(tk.in, *e.In)
		}
		if e.Out != nil {
			tk.out = append(tk.out, *e.Out)
		}
	}
	return tk
}

// relaySession is agentmux running fake agents that keep transcripts.
type relaySession struct {
	*session
	agents []*fake
}

// startRelay runs agentmux with flags (--idle relayIdle comes first, so flags may
// override it) and the fake agents, and waits until every agent has drawn its start
// screen. Failures print every transcript after the last screen.
func startRelay(t *testing.T, flags []string, agents ...*fake) *relaySession {
	t.Helper()
	args := append([]string{"--idle", relayIdle}, flags...)
	for _, f := range agents {
		args = append(args, f.arg())
	}
	rs := &relaySession{session: start(t, args...), agents: agents}
	rs.diag = rs.transcripts
	rs.waitScreen("every agent's start screen", func(scr *screen) bool {
		for _, f := range agents {
			if !f.ready(scr) {
				return false
			}
		}
		return true
	}, waitLong)
	return rs
}

// transcripts renders every agent's transcript, for failure messages.
func (rs *relaySession) transcripts() string {
	var b strings.Builder
	for _, f := range rs.agents {
		tk := f.read()
		fmt.Fprintf(&b, "transcript of %d %s (%s):\n", f.n, f.name, f.style)
		for i, m := range tk.in {
			fmt.Fprintf(&b, "  in[%d]  %q\n", i, m)
		}
		for i, m := range tk.out {
			fmt.Fprintf(&b, "  out[%d] %q\n", i, m)
		}
	}
	return b.String()
}

// wait waits until cond holds (it may read the transcripts) and returns that screen.
func (rs *relaySession) wait(what string, cond func(*screen) bool) *screen {
	rs.t.Helper()
	return rs.waitScreen(what, cond, relayWait)
}

// holds checks that cond stays true for d: on the screen now, on every screen update
// during d, and at its end. It is the one kind of bounded wait these tests use, for
// "nothing more happens"; each use says why its d suffices.
func (rs *relaySession) holds(what string, d time.Duration, cond func(*screen) bool) {
	rs.t.Helper()
	end := time.NewTimer(d)
	defer end.Stop()
	for {
		if scr := rs.screen(); !cond(scr) {
			rs.t.Fatalf("%s stopped holding; screen:\n%s", what, rs.describe())
		}
		select {
		case <-rs.updates:
		case <-end.C:
			if !cond(rs.screen()) {
				rs.t.Fatalf("%s stopped holding; screen:\n%s", what, rs.describe())
			}
			return
		}
	}
}

// focus moves the focus to pane n (prefix N).
func (rs *relaySession) focus(n int) { rs.send(prefix + strconv.Itoa(n)) }

// status is the status line, the screen's last row.
func (scr *screen) status() string { return scr.row(len(scr.cells) - 1) }

// statusHas reports whether the status line contains x.
func (scr *screen) statusHas(x string) bool { return strings.Contains(scr.status(), x) }

// groupShown matches a relay group in the status line, e.g. "1⇄2 3/8".
var groupShown = regexp.MustCompile(`\d+(?:⇄\d+)+ \d+/\d+`)

// groups are the relay groups the status line shows, e.g. ["1⇄2 3/8"].
func (scr *screen) groups() []string { return groupShown.FindAllString(scr.status(), -1) }

// frame is the attribution line the relay puts before a delivery from f.
func (f *fake) frame() string { return fmt.Sprintf("%s (%d):", f.name, f.n) }

// checkDelivery checks that got, a message to agent to, is exactly one delivery from
// agent from carrying words: "NAME (N):", a blank line and the words for an agent that
// takes bracketed pastes; the same with the newlines typed as spaces for one that does
// not. With exact false, words are compared as words only (the sender's screen may have
// wrapped them into several rows).
func checkDelivery(t *testing.T, got string, from, to *fake, words string, exact bool) {
	t.Helper()
	want := from.frame() + "\n\n" + words
	if !to.bracketed() {
		want = strings.ReplaceAll(want, "\n", " ")
	}
	switch {
	case exact && got != want:
		t.Errorf("%s received %q, want exactly %q", to.name, got, want)
	case strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want), " "):
		t.Errorf("%s received %q, want the words of %q", to.name, got, want)
	case to.bracketed() && !strings.HasPrefix(got, from.frame()+"\n\n"):
		t.Errorf("%s received %q: the attribution should be a line of its own, then a blank line", to.name, got)
	case got != want:
		t.Logf("%s received %q (the words of %q, spaced differently)", to.name, got, want)
	}
}
