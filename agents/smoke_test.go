//go:build agents

package agents

// Smoke test per CLI, run directly in a 120×40 PTY read through vterm (no agentmux): with a
// seeded HOME and the mock model server it must start without dialogs, accept `say hi` typed
// then Enter 300 ms later, send exactly that to the model, show the mock's answer after its
// bullet, and signal the turn in its title (busy, then idle again; a CLI whose title says
// nothing of its state, on its screen as its profile reads it). The timings are logged:
// they are what the relay's idle detection has to live with.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
	"github.com/agentmux/agentmux/parser"
)

// answerTime is how long the mock takes to stream one answer: long enough to see busy.
const answerTime = 3 * time.Second

func TestSmoke(t *testing.T) {
	for _, c := range clis {
		t.Run(c.name, func(t *testing.T) { smoke(t, c) })
	}
}

func smoke(t *testing.T, c cli) {
	label := strings.ToUpper(strings.ReplaceAll(c.name, "-", ""))
	srv, url := startMock(t, c.name, mockmodel.Numbered(label, 6), answerTime)
	home, project := c.home(t)
	cleanUpAgents(t, home, project)
	env := append(baseEnv(t, home), c.setup(t, home, project, url)...)
	tm := startTerm(t, c.name, c.argv(binDir(t, c.program())), project, env, 120, 40)

	prof := parser.ProfileFor(c.program())
	// screenBusy and screenIdle are the turn signals of a CLI whose title says nothing of
	// its state (pi, opencode): its screen read by its profile, as agentmux reads it.
	screenBusy := func(s []string, title string) bool { return parser.Classify(prof, title, s) == parser.Busy }
	screenIdle := func(s []string, title string) bool { return parser.Classify(prof, title, s) == parser.Idle }

	ready := tm.waitFor("the CLI to be ready for input", 90*time.Second, c.ready)
	tm.submit("say hi")
	typed := time.Since(tm.start)
	// Confirm the submit as the relay does: the title (or the screen) should go busy
	// within seconds; if not, Enter once more (Gemini CLI sometimes takes the first Enter
	// after start-up as a newline).
	retries := 0
	busyScreenAt := time.Duration(-1)
	for ; retries < 2; retries++ {
		at, err := tm.await(8*time.Second, func(s []string, title string) bool {
			if c.screenState {
				return screenBusy(s, title)
			}
			_, ok := tm.titleSeen(typed, c.busy)
			return ok
		})
		if err == nil {
			if c.screenState {
				busyScreenAt = at
			}
			break
		}
		t.Logf("%s: not busy %v after Enter; pressing Enter again\n%s", c.name, err, tm.dump())
		tm.typeText("\r")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	turn, err := srv.WaitFor(ctx, func(r mockmodel.Request) bool { return r.Kind == mockmodel.KindTurn })
	if err != nil {
		t.Fatalf("the model never got the turn: %v\n%s", err, tm.dump())
	}
	if turn.Prompt != "say hi" {
		t.Errorf("the model got %q, want %q", turn.Prompt, "say hi")
	}
	want := label + "-1 to: say hi"
	answered := tm.waitText(60*time.Second, c.bullet+" "+want)
	if retries > 0 {
		t.Logf("%s: the submit needed %d extra Enter", c.name, retries)
	}
	if n := len(srv.Turns()); n != 1 {
		t.Errorf("the model got %d turns, want 1", n)
	}
	if c.screenState {
		// The title says nothing: the screen must go busy after the submit (checked
		// above) and idle again once the answer is shown.
		idle := tm.waitFor("an idle screen after the answer", 60*time.Second, screenIdle)
		if busyScreenAt < 0 {
			t.Errorf("the screen never read busy between the submit and idle")
		}
		t.Logf("%s: ready at %.1fs; after the Enter: busy screen at +%.1fs, answer on screen at +%.1fs, "+
			"idle screen at +%.1fs; model turn took %.1fs", c.name, ready.Seconds(), (busyScreenAt - typed).Seconds(),
			(answered - typed).Seconds(), (idle - typed).Seconds(), turn.End.Sub(turn.Start).Seconds())
		return
	}
	idle := tm.waitFor("an idle title after the answer", 60*time.Second, func(_ []string, title string) bool {
		return c.idle(title)
	})
	busy, sawBusy := tm.titleSeen(typed, c.busy)
	if !sawBusy {
		t.Errorf("no busy title between the submit and idle; titles: %s", tm.titleLog())
	}
	// Codex's title flickers back to idle for a moment right after the submit: the turn's
	// end is the first idle title after the last busy one.
	lastBusy, _ := tm.lastTitle(c.busy)
	backIdle, sawIdle := tm.titleSeen(lastBusy.At, c.idle)
	if !sawIdle {
		t.Errorf("title never went back to idle after busy %q; titles: %s", lastBusy.Title, tm.titleLog())
	}
	t.Logf("%s: ready at %.1fs; after the Enter: busy title %q at +%.1fs, answer on screen at +%.1fs, "+
		"idle title %q at +%.1fs (idle seen by the test at +%.1fs); model turn took %.1fs",
		c.name, ready.Seconds(), strings.TrimSpace(busy.Title), (busy.At - typed).Seconds(), (answered - typed).Seconds(),
		strings.TrimSpace(backIdle.Title), (backIdle.At - typed).Seconds(), (idle - typed).Seconds(),
		turn.End.Sub(turn.Start).Seconds())
}
