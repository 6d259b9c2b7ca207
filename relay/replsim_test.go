package relay_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/demo"
	"github.com/agentmux/agentmux/relay"
)

// Seeded runs of a line-mode REPL (alice: "alice ready.", "alice> " prompts, her
// terminal echoing what is typed) linked with a bot of every style (bob), a person
// typing into her while she prints her banner and first prompt or once she started,
// and into bob a moment later, screens of random sizes, drawings cut at random bytes.
// Checked for each seed: every turn relayed from alice is exactly one of her answers:
// never the rest of her banner, her prompt, or the echo of what was typed into her.
// Seed 2 sent the end of her banner and her first prompt with her first answer (the
// person typed before they showed); seed 11 the echo of bob's turn with her prompt
// stuck on it (typed before she printed her prompt).
func TestLineREPLTurnsAreHerAnswers(t *testing.T) {
	eachSeed(150, nil, func(seed uint64) { replRun(t, seed) })
}

// replRun runs one seeded conversation of TestLineREPLTurnsAreHerAnswers and checks
// its property.
func replRun(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	a := demo.Config{Reply: "corpus", Name: "alice", Style: demo.Line, Seed: seed, Cols: 30 + rng.IntN(70), Rows: 8 + rng.IntN(20),
		Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
	b := demo.Config{Reply: "corpus", Name: "bob", Style: chatStyles[int(seed)%len(chatStyles)], Seed: seed + 3,
		Cols: 30 + rng.IntN(70), Rows: 8 + rng.IntN(20), Think: 200 * time.Millisecond, Pace: 30 * time.Millisecond}
	cfg := relay.Config{Turns: 2 + rng.IntN(6)}
	quiet := relay.New(cfg).Config()
	at := 2*time.Second + time.Duration(rng.IntN(3000))*time.Millisecond
	var split splitter
	if rng.IntN(2) == 0 {
		// The person types while she prints her banner and first prompt, which the
		// echo may cut; her prompts after her answers come before the relay's quiet
		// time.
		at = time.Duration(rng.IntN(40)) * time.Millisecond
		early := quiet
		early.Idle = early.Settle
		split = randomSplit(rand.New(rand.NewPCG(seed, 7)), early)
	} else {
		// The person types once she started. Her prompt after an answer comes past
		// the relay's quiet time (she stays quiet a while after answering): bob's turn
		// may be typed into her before it.
		pieces, late := randomSplit(rand.New(rand.NewPCG(seed, 7)), quiet), rand.New(rand.NewPCG(seed, 13))
		split = func(p *simPane, b []byte) []piece {
			out := pieces(p, b)
			if n := len(out); p.id == 1 && n > 1 && string(out[n-1].b) == p.bot.Prompt() && !strings.HasPrefix(string(b), p.bot.Banner()) {
				out[n-1].gap = quiet.Idle + time.Duration(late.IntN(2000))*time.Millisecond
			}
			return out
		}
	}
	// The person also types into bob a moment later: his answers then come while
	// she answers.
	atB := at + time.Duration(rng.IntN(3000))*time.Millisecond
	s := newSim(t, cfg, split, a, b)
	s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
	s.run(at)
	s.now = later(s.now, start.Add(at))
	s.apply(s.r.Tick(s.now))
	s.person(1, "hello there")
	s.run(atB)
	s.now = later(s.now, start.Add(atB))
	s.apply(s.r.Tick(s.now))
	s.person(2, "and what do you say?")
	s.run(10 * time.Minute)
	alice := s.panes[0]
	if text, stray := s.strayTurn(alice, 2); stray {
		t.Fatalf("seed %d (alice %dx%d, bob %v %dx%d, --turns %d, typed at %v): relayed to bob\n%q\nnone of alice's answers %q\nlog:\n%s\nalice's screen:\n%s",
			seed, a.Cols, a.Rows, b.Style, b.Cols, b.Rows, cfg.Turns, at, text, alice.bot.Replies(), s.logText(), strings.Join(alice.term.ScreenText(), "\n"))
	}
}
