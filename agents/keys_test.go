//go:build agents

package agents

// The keys the relay sends for an urgent message (and to set a person's draft aside),
// checked on each real CLI: the built-in profile's InterruptKeys must end a busy turn,
// its ClearKeys must empty the input line, and the relay's reading of the input line
// (parser.InputRow, which relay's stale-draft and urgent rules use) must see it empty,
// or holding the draft, when it is. Per CLI, in a 120×40 PTY through vterm, with a mock
// model that streams its answer slowly (a word every 2 s):
//
//  1. ready: the input row must read empty (a bare prompt or a placeholder);
//  2. a prompt is submitted; once the answer is streaming (its first words on screen, or
//     Claude Code's token count, as it shows text only when a block is whole) the
//     interrupt keys are sent: the model's stream must be cut (the mock logs the client
//     gone), the answer's last word never shown, and the screen must settle idle; then
//     the clear keys, as the relay sends them next, and the input row must read empty;
//  3. a draft is typed (no Enter): the input row must read as the draft; the clear keys:
//     it must read empty;
//  4. a delivery as the relay types it (a bracketed paste of three lines, then Enter) is
//     interrupted at the busy signal, before any answer. A CLI that puts the message back
//     into its input line then (restoresPrompt: Claude Code) must show it there; the
//     clear keys must empty the input row again;
//  5. a last prompt is submitted: the model must get exactly it (the draft and the
//     message put back are gone from the CLI's buffer, not only from view); a CLI that
//     keeps the interrupted message in its conversation (keepsInterrupted: Qwen Code)
//     sends it, then the last prompt, exactly.
//
// With AGENTS_UPDATE_SCREENS=1 the screens go to parser/testdata/screens as
// real-NAME-{ready,interrupted,draft,cleared,interrupted-early,cleared-early}.txt, each
// with what the input line held (`@@ input`), for parser's and relay's real-screen tests.

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
	"github.com/agentmux/agentmux/parser"
)

// slowTime is how long the mock streams one answer: far longer than the test waits for
// an interrupt to show.
const slowTime = 40 * time.Second

// slowReply is the mock's answer: 20 words, one every 2 s; the last is never reached.
func slowReply(label string) string {
	words := []string{label + "-SLOW"}
	for i := 2; i < 20; i++ {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	return strings.Join(append(words, label+"-LAST"), " ")
}

func TestKeys(t *testing.T) {
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) { keys(t, c) })
	}
}

func keys(t *testing.T, c cli) {
	label := strings.ToUpper(strings.ReplaceAll(c.name, "-", ""))
	srv, url := startMock(t, c.name, func(p mockmodel.Prompt) string { return slowReply(fmt.Sprintf("%s%d", label, p.N)) }, slowTime)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, url)...)
	prof := parser.ProfileFor(c.program())
	tm := startTerm(t, c.name, c.argv(binDir(t, c.program())), project, env, 120, 40)
	what := func(s string) string {
		return fmt.Sprintf("%s at 120x40 in a PTY through vterm, against the mock model (agents/keys_test.go):\n%s", c.name, s)
	}
	save := func(name, how, input string, unchecked bool) {
		rec := recording{what: what(how), title: tm.vt.Title(), state: "idle", input: &input, screen: tm.vt.ScreenText()}
		if unchecked {
			rec.input = nil
		}
		saveScreen(t, c.name+"-"+name, rec)
	}
	isBusy := func(s []string, title string) bool { return parser.Classify(prof, title, s) == parser.Busy }
	// settled: idle by the title and the rows alike (Claude Code's title goes idle a
	// moment before its spinner row is gone).
	settled := func(s []string, title string) bool {
		return parser.Classify(prof, title, s) == parser.Idle && parser.Classify(prof, "", s) != parser.Busy
	}
	// input waits until the CLI is settled with its input row reading as want ("" for
	// empty), or, with prefix, starting with it.
	input := func(what, want string, prefix bool) {
		t.Helper()
		tm.waitFor(what, 15*time.Second, func(s []string, title string) bool {
			text, ok := parser.InputRow(prof, s)
			text, want := strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(want), " ")
			return ok && (text == want || prefix && want != "" && strings.HasPrefix(text, want)) && settled(s, title)
		})
	}
	// interrupt sends the interrupt keys once the turn is busy and cond holds, and waits
	// for the CLI to settle idle; it returns how long that took.
	interrupt := func(stage string, cond func([]string, string) bool) time.Duration {
		t.Helper()
		tm.waitFor("the CLI busy", 30*time.Second, isBusy)
		tm.waitFor(stage, 30*time.Second, cond)
		sent := time.Since(tm.start)
		tm.typeText(prof.Interrupt())
		return tm.waitFor("idle after the interrupt keys", 15*time.Second, settled) - sent
	}

	// 1. Ready: an empty input row.
	tm.waitFor("the CLI to be ready for input", 90*time.Second, c.ready)
	input("an empty input row at start", "", false)
	save("ready", "started, nothing typed yet.", "", false)

	// 2. Interrupt mid-answer, then the clear keys, as the relay does.
	const first = "answer slowly please"
	tm.submit(first)
	took := interrupt("the answer streaming", streaming(label+"1"))
	if r := waitTurn(t, tm, srv, c.name, 1, 15*time.Second); r.Err == "" {
		t.Errorf("turn 1 ended whole, not cut by the interrupt: %v", r)
	}
	if contains(tm.vt.ScreenText(), label+"1-LAST") {
		t.Errorf("the answer's last word is on screen: the interrupt did not stop it\n%s", tm.dump())
	}
	t.Logf("%s: interrupt %q mid-answer: settled idle %.1fs later\n%s", c.name, prof.Interrupt(), took.Seconds(), tm.dump())
	save("interrupted", fmt.Sprintf("%q submitted, the answer streaming, then the interrupt keys %q.", first, prof.Interrupt()), "", true)
	tm.typeText(prof.Clear())
	input("an empty input row after the interrupt and the clear keys", "", false)

	// 3. A draft, then the clear keys.
	const draft = "a draft the clear keys must remove"
	tm.typeText(draft)
	input("the draft in the input row", draft, false)
	save("draft", fmt.Sprintf("after the interrupt, %q typed, no Enter.", draft), draft, false)
	sent := time.Since(tm.start)
	tm.typeText(prof.Clear())
	input("an empty input row after the clear keys", "", false)
	t.Logf("%s: clear keys %q: the input row read empty %.1fs later", c.name, prof.Clear(), (time.Since(tm.start) - sent).Seconds())
	save("cleared", fmt.Sprintf("the draft %q, then the clear keys %q.", draft, prof.Clear()), "", false)

	// 4. A delivery as the relay types it, interrupted at the busy signal; the clear keys.
	const relayed = "keys (9):\n\nthe relayed words, interrupted at once"
	tm.typeText("\x1b[200~" + relayed + "\x1b[201~")
	if c.pasteShows != "" {
		// The CLI shows a summary of the paste in its input, not the words.
		input("the paste's summary in the input row", c.pasteShows, false)
	} else {
		tm.waitText(15*time.Second, "interrupted at once")
	}
	time.Sleep(300 * time.Millisecond) // the submit delay the relay keeps, not synchronisation
	tm.typeText("\r")
	took = interrupt("the busy signal", func([]string, string) bool { return true })
	restored := ""
	if c.restoresPrompt {
		restored = relayed
		input("the interrupted message back in the input row", "keys (9):", true)
	} else {
		input("an empty input row after the interrupt", "", false)
	}
	t.Logf("%s: interrupt %q at the busy signal: settled idle %.1fs later\n%s", c.name, prof.Interrupt(), took.Seconds(), tm.dump())
	save("interrupted-early", fmt.Sprintf("a relayed message pasted and submitted (%q),\nthen the interrupt keys %q at the busy signal.",
		relayed, prof.Interrupt()), restored, false)
	tm.typeText(prof.Clear())
	input("an empty input row after the clear keys", "", false)
	if c.restoresPrompt {
		save("cleared-early", fmt.Sprintf("the interrupted message %q back in the input row,\nthen the clear keys %q.",
			relayed, prof.Clear()), "", false)
	}

	// 5. The input line is empty: the last prompt reaches the model alone.
	const last = "the last prompt"
	tm.submit(last)
	interrupt("the last answer streaming", streaming(fmt.Sprintf("%s%d", label, len(srv.Turns())+1)))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	r, err := srv.WaitFor(ctx, func(r mockmodel.Request) bool {
		return r.Kind == mockmodel.KindTurn && strings.Contains(r.Prompt, last)
	})
	if err != nil {
		t.Fatalf("the last prompt never reached the model: %v\n%s", err, tm.dump())
	}
	// Claude Code opens the message after an interrupted turn with its own note. Qwen
	// Code keeps the message interrupted before its request in its conversation (no key
	// takes it back) and sends it joined to the next: the last prompt must follow it,
	// with nothing of the draft or the input line between.
	want := last
	if c.keepsInterrupted {
		want = relayed + "\n" + last
	}
	if got := strings.TrimSpace(strings.TrimPrefix(r.Prompt, "[Request interrupted by user]")); got != want {
		t.Errorf("the model got %q after the clears, want %q", r.Prompt, want)
	}
}

// tokensRow is Claude Code's spinner row once tokens arrive: it shows an answer's text
// only when the text block is complete, so this is its sign of a stream under way.
var tokensRow = regexp.MustCompile(`· ↓ \d+ tokens`)

// streaming reports whether the screen shows the slow answer under way: its first word,
// or (Claude Code) the count of tokens received.
func streaming(label string) func(screen []string, title string) bool {
	return func(screen []string, _ string) bool {
		if contains(screen, label+"-SLOW") {
			return true
		}
		for _, row := range screen {
			if tokensRow.MatchString(row) {
				return true
			}
		}
		return false
	}
}
