package e2e

// Spend across a SIGKILL and a restore, through the binary: two simulated agents as
// claude, each answer writing known usage (demo.UsageInput + demo.UsageOutput tokens,
// 1000) to a Claude Code transcript its Stop hook names. Their link has a spend budget
// of 3.5k tokens. Holds stop the exchange where a link turn has been spent (1000 of
// 3.5k); the server is SIGKILLed and the session restored. What must come back: each
// pane's total (ls --json), the link's spend on the status line, and a budget that
// counts on from 1000, so the link is severed after the third turn after the restore
// (b's second), not the fourth as a fresh budget would; `agentmux spend` counts no
// request twice although the resumed agents write on into the same transcripts. (The
// first turn after the restore is started by a's answer, typed again from the store:
// it counts to the link too.) Waits
// are on `agentmux events` and on an attached terminal's screen.

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentmux/agentmux/demo"
)

// perAnswer is what each answer of a simulated agent with --usage spends.
const perAnswer = demo.UsageInput + demo.UsageOutput

func TestSpendSurvivesSIGKILLAndRestore(t *testing.T) {
	t.Parallel()
	env := newSockEnv(t)
	dir := t.TempDir()
	convs := filepath.Join(dir, "conversations")
	a := newFake(t, 1, "a", "inline", "--conversations", convs, "--usage", filepath.Join(dir, "a-usage.jsonl"))
	b := newFake(t, 2, "b", "inline", "--conversations", convs, "--usage", filepath.Join(dir, "b-usage.jsonl"))
	t.Cleanup(func() { _ = env.command(context.Background(), "kill-session", "sp").Run() })
	env.run("--detached", "--session", "sp", "--idle", relayIdle, "--turns", "9", "--link-budget", "3500", a.arg(), b.arg())

	first := startWith(t, env.opts(), "attach", "sp")
	first.diag = func() string { return fmt.Sprintf("a: %+v\nb: %+v", a.read(), b.read()) }
	first.waitScreen("the panes started", func(sc *screen) bool { return a.ready(sc) && b.ready(sc) }, waitLong)
	events := env.events("sp")
	// spentThenHeld waits for member's spend event (counted to link, "" for none) and
	// for a delivery held for to, in whichever order they come.
	spentThenHeld := func(member, link, to string) {
		t.Helper()
		spent, held := false, false
		for !spent || !held {
			l := awaitLine(t, events, member+"'s spend on "+link+" and a delivery held for "+to, func(l string) bool {
				s := strings.Contains(l, `"kind":"spend"`) && strings.Contains(l, `"member":"`+member+`"`) &&
					(link == "" && !strings.Contains(l, `"link"`) || link != "" && strings.Contains(l, `"link":"`+link+`"`))
				h := strings.Contains(l, `"kind":"delivery"`) && strings.Contains(l, `"to":"`+to+`"`) && strings.Contains(l, `"phase":"held"`)
				return s && !spent || h && !held
			})
			if strings.Contains(l, `"kind":"spend"`) {
				spent = true
			} else {
				held = true
			}
		}
	}

	env.run("link", "--session", "sp", "a", "b")
	env.run("hold", "--session", "sp", "a")
	// The person's turn in b counts to b alone; its answer waits for a.
	env.run("send", "--session", "sp", "b", "one")
	spentThenHeld("b", "", "a")
	env.run("hold", "--session", "sp", "b")
	env.run("release", "--session", "sp", "a")
	// a's turn was started by the link's delivery: 1000 of the link's 3.5k.
	spentThenHeld("a", "1⇄2", "b")
	first.waitScreen("the link's spend on the status line", func(sc *screen) bool { return sc.has("1k/3.5k tok") }, waitLong)
	checkTokens(t, env, map[string]int64{"a": perAnswer, "b": perAnswer})

	if err := syscall.Kill(serverPid(t, env.environ(), "sp"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.waitExit(waitLong)

	second := startWith(t, env.opts(), "restore", "sp")
	second.diag = first.diag
	second.waitScreen("the session restored with its link's spend", func(sc *screen) bool {
		return a.ready(sc) && b.ready(sc) && sc.has("1k/3.5k tok")
	}, waitLong)
	checkTokens(t, env, map[string]int64{"a": perAnswer, "b": perAnswer})

	// b takes a's answer (2k), a takes b's (3k), b takes a's (4k: crossed).
	events = env.events("sp")
	env.run("release", "--session", "sp", "b")
	l := awaitLine(t, events, "the link severed by its spend budget", func(l string) bool {
		return strings.Contains(l, `"kind":"notice"`) && strings.Contains(l, "spend budget spent")
	})
	if !strings.Contains(l, "4k tokens") || !strings.Contains(l, "severed after 2 b's turn") {
		t.Errorf("severed at the wrong turn: %s", l)
	}
	// b's last answer, paid for, still goes: a's answer to it is a's third turn.
	awaitLine(t, events, "a's answer to b's last", func(l string) bool {
		return strings.Contains(l, `"kind":"spend"`) && strings.Contains(l, `"member":"a"`)
	})
	second.waitScreen("the link gone", func(sc *screen) bool { return !sc.has("/3.5k tok") }, waitLong)
	want := map[string]int64{"a": 3 * perAnswer, "b": 3 * perAnswer}
	checkTokens(t, env, want)
	// The store holds each request once: what ls shows.
	var rows []struct {
		Key    string
		Tokens struct{ Input, Output int64 }
	}
	if err := json.Unmarshal([]byte(env.run("spend", "--session", "sp", "--by", "pane", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if got := r.Tokens.Input + r.Tokens.Output; got != want[r.Key] {
			t.Errorf("agentmux spend: %s spent %d tokens, want %d", r.Key, got, want[r.Key])
		}
	}
	if len(rows) != 2 {
		t.Errorf("agentmux spend by pane: %+v, want a and b", rows)
	}
}

// checkTokens checks each pane's tokens as `agentmux ls --json` shows them.
func checkTokens(t *testing.T, env sockEnv, want map[string]int64) {
	t.Helper()
	var members []struct {
		Name   string
		Tokens *struct{ Input, Output, CacheRead, CacheWrite int64 }
	}
	if err := json.Unmarshal([]byte(env.run("ls", "--json", "--session", "sp")), &members); err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		var got int64
		if m.Tokens != nil {
			got = m.Tokens.Input + m.Tokens.Output + m.Tokens.CacheRead + m.Tokens.CacheWrite
		}
		if got != want[m.Name] {
			t.Errorf("ls: %s spent %d tokens, want %d", m.Name, got, want[m.Name])
		}
	}
}
