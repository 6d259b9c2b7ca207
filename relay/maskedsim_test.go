package relay_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/demo"
	"github.com/agentmux/agentmux/relay"
)

// Seeded runs of a person's draft in an input box that shows it masked (bob), linked
// with a bot of every other style (alice): the draft is left there, held up the
// conversation until it was cleared blind and typed back after the answer, and the
// person sends it some moments after (the conversation relinked or not, screens of
// random sizes, drawings cut at random bytes or whole). Checked for each seed: every
// turn relayed from bob is exactly one of his answers: never his input box, its hint
// row or the masked draft.
func TestMaskedDraftsNeverRelayed(t *testing.T) {
	// Past the 100: 326 takes its baseline while bob has erased his input box to draw it
	// again.
	eachSeed(100, []uint64{326}, func(seed uint64) { maskedDraftRun(t, seed) })
}

// maskedDraftRun runs one seeded conversation of TestMaskedDraftsNeverRelayed and
// checks its property.
func maskedDraftRun(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 5))
	b := demo.Config{Reply: "corpus", Name: "bob", Style: demo.Boxed, Masked: true, Seed: seed, Cols: 30 + rng.IntN(70), Rows: 8 + rng.IntN(20),
		Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
	if rng.IntN(2) == 0 {
		b.Label = "Message: "
	}
	alice := demo.Config{Reply: "corpus", Name: "alice", Style: chatStyles[rng.IntN(len(chatStyles))], Seed: seed + 3,
		Cols: 30 + rng.IntN(70), Rows: 8 + rng.IntN(20), Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
	cfg := relay.Config{Turns: 2 + rng.IntN(6)}
	var split splitter
	if rng.IntN(2) == 0 {
		split = randomSplit(rand.New(rand.NewPCG(seed, 7)), relay.New(cfg).Config())
	}
	draft := []string{"my half-typed thought", "ok", "abc"}[rng.IntN(3)]
	s := newSim(t, cfg, split, alice, b)
	s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
	s.run(3 * time.Second)
	s.now = later(s.now, start.Add(3*time.Second))
	s.draft(2, draft)
	s.person(1, "hello there")
	s.run(time.Duration(4+rng.IntN(8)) * time.Minute)
	if rng.IntN(2) == 0 {
		s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
	}
	s.run(s.now.Sub(start) + time.Duration(rng.IntN(5000))*time.Millisecond)
	bob := s.panes[1]
	if !strings.Contains(s.logText(), "cleared with its keys") {
		t.Fatalf("seed %d: bob's draft was never cleared blind: the run does not test what it should\nlog:\n%s", seed, s.logText())
	}
	s.apply(s.r.Handle(relay.Sent{Pane: 2, Text: draft}, s.now))
	s.input(bob, []byte{'\r'})
	s.run(s.now.Sub(start) + 10*time.Minute)
	if text, stray := s.strayTurn(bob, 1); stray {
		t.Fatalf("seed %d (bob %dx%d label %q, alice %v, --turns %d, draft %q): relayed to alice\n%q\nnone of bob's answers\nlog:\n%s\nbob's screen:\n%s",
			seed, b.Cols, b.Rows, b.Label, alice.Style, cfg.Turns, draft, text, s.logText(), strings.Join(bob.term.ScreenText(), "\n"))
	}
}
