package relay_test

// Strategy: the conversations of chatsim_test.go with a host that reads late. The relay
// hears of a pane's output up to half a second after it reached the terminal (one event
// for all that came meanwhile), as a busy session's loop does, while a full-screen bot
// scrolls its answer by two lines every 30 ms with no history to keep what left the
// screen. The terminals keep the frames no reading saw (vterm.KeepFrames, as the
// session's do), so each delivery is still exactly the answer; with none kept, the
// first lines of a long answer were lost (seed 1, the e2e test's bots).

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/agentmux/agentmux/demo"
	"github.com/agentmux/agentmux/relay"
)

func TestLateReadingsLoseNoLines(t *testing.T) {
	for _, style := range chatStyles {
		eachSeed(40, nil, func(seed uint64) {
			rng := rand.New(rand.NewPCG(seed, 5))
			cfgs := []demo.Config{
				{Reply: "corpus", Name: "alice", Style: chatStyles[rng.IntN(len(chatStyles))], Seed: 31, Cols: 118, Rows: 18,
					Think: 100 * time.Millisecond, Pace: 30 * time.Millisecond, MaxChars: 1200},
				{Reply: "corpus", Name: "bob", Style: style, Seed: 32, Cols: 118, Rows: 17,
					Think: 100 * time.Millisecond, Pace: 30 * time.Millisecond, MaxChars: 1200},
			}
			if rng.IntN(2) == 0 {
				cfgs[0], cfgs[1] = cfgs[1], cfgs[0]
				cfgs[0].Name, cfgs[1].Name = "alice", "bob"
			}
			cfg := relay.Config{Turns: 2, Idle: 800 * time.Millisecond}
			s := newSim(t, cfg, nil, cfgs...)
			s.lag = func() time.Duration { return time.Duration(rng.IntN(500)) * time.Millisecond }
			s.apply(s.r.Handle(relay.LinkAll{Panes: []int{1, 2}}, s.now))
			s.run(2 * time.Second)
			s.now = later(s.now, start.Add(2*time.Second))
			s.apply(s.r.Tick(s.now))
			s.person(1, "hello there")
			s.run(10 * time.Minute)
			name := fmt.Sprintf("seed %d: %v ⇄ %v", seed, cfgs[0].Style, cfgs[1].Style)
			if len(s.types) != 2 {
				t.Fatalf("%s: %d deliveries, want 2\nrelay log:\n%s", name, len(s.types), s.logText())
			}
			for d, ty := range s.types {
				from, to := s.panes[d%2], s.panes[(d+1)%2]
				want := fmt.Sprintf("%s (%d):\n\n%s", from.name, from.id, from.bot.Replies()[d/2])
				if to.style == demo.Line {
					want = flat(want)
				}
				if ty.Text != want {
					t.Fatalf("%s, delivery %d:\n got %q\nwant %q", name, d+1, ty.Text, want)
				}
			}
		})
	}
}
