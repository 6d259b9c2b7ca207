package relay_test

// Strategy: a property over programs the relay was not written against. Each seed draws a
// full-screen chat program (package demo's Prefixed style) that shows what it receives
// behind a prefix: on every line, on the first line only with the others indented, in a
// box, or not at all; word-wrapped by itself or by the terminal; redrawn by clearing the
// whole screen or row by row, with a spinner header turning ten times a second while it
// works; on a screen that scrolls its transcript or one tall enough to keep it. It is
// linked, one way or the other, with a program of every other style (and of its own),
// on the fake clock of chatsim_test.go, and every delivery must be exactly the sender's
// answer under its attribution (converse). Seeds that once failed are kept in
// prefixedFailed and run on every run.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/agentmux/agentmux/demo"
	"github.com/agentmux/agentmux/relay"
)

// prefixedFailed are seeds past the sweep's range that once failed.
var prefixedFailed []uint64

// prefixedOpen are seeds of the sweep that still fail, skipped (OPEN=1 runs them): none
// now. Seeds fixed from it: 59 (a long echo's short tail after a screen jump), 320 and
// 438 (no echo, an answer quoting the message: told by when it came).
var prefixedOpen []uint64

// echoPrefixes are the prefixes a drawn program puts before what it received.
var echoPrefixes = []string{"you: ", "> ", "user ▸ ", "[me] ", "› "}

// drawPrefixed returns the config of a Prefixed program drawn from rng.
func drawPrefixed(rng *rand.Rand, name string, seed uint64) demo.Config {
	rows := 8 + rng.IntN(10) // the transcript scrolls
	if rng.IntN(2) == 0 {
		rows = 120 + rng.IntN(40) // it fits
	}
	return demo.Config{Reply: "corpus", Name: name, Style: demo.Prefixed, Seed: seed,
		Echo: demo.EchoForms[rng.IntN(len(demo.EchoForms))], EchoPrefix: echoPrefixes[rng.IntN(len(echoPrefixes))],
		SoftWrap: rng.IntN(2) == 0, RowUpdates: rng.IntN(2) == 0,
		Cols: 30 + rng.IntN(70), Rows: rows, Think: 400 * time.Millisecond, Pace: 40 * time.Millisecond}
}

// runPrefixed runs one seeded conversation between a drawn Prefixed program and a
// program of another style, and checks the property.
func runPrefixed(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 31))
	others := append([]demo.Style{demo.Prefixed}, chatStyles...)
	other := others[int(seed)%len(others)]
	names := []string{"alice", "bob"}
	first := rng.IntN(2) // which pane the Prefixed program is
	cfgs := make([]demo.Config, 2)
	cfgs[first] = drawPrefixed(rng, names[first], seed*7+uint64(first))
	if other == demo.Prefixed {
		cfgs[1-first] = drawPrefixed(rng, names[1-first], seed*7+uint64(1-first))
	} else {
		cfgs[1-first] = demo.Config{Reply: "corpus", Name: names[1-first], Style: other, Seed: seed*7 + uint64(1-first),
			Cols: 30 + rng.IntN(70), Rows: 8 + rng.IntN(24), Think: 400 * time.Millisecond, Pace: 40 * time.Millisecond}
	}
	cfg := relay.Config{Turns: 2 + rng.IntN(4)}
	var split splitter
	if rng.IntN(3) > 0 {
		split = randomSplit(rand.New(rand.NewPCG(seed, 7)), relay.New(cfg).Config())
	}
	at := time.Duration(rng.IntN(4000)) * time.Millisecond
	msg := []string{"hello there", "> what is in the relay log?", "please say 漢字 🙂 back",
		"tell me, in as many words as it takes to fill more than one row of a narrow pane, what you read"}[rng.IntN(4)]
	desc := func(c demo.Config) string {
		if c.Style != demo.Prefixed {
			return c.Style.String()
		}
		return fmt.Sprintf("prefixed(echo %v %q soft %v rows %v)", c.Echo, c.EchoPrefix, c.SoftWrap, c.RowUpdates)
	}
	converse(t, fmt.Sprintf("seed %d: %s ⇄ %s", seed, desc(cfgs[0]), desc(cfgs[1])), cfg, split, cfgs, at, msg)
}

func TestPrefixedEchoesAreNeverRelayed(t *testing.T) {
	eachSeed(500, prefixedFailed, func(seed uint64) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			if slices.Contains(prefixedOpen, seed) && os.Getenv("OPEN") == "" {
				t.Skip("a known failure (prefixedOpen)")
			}
			runPrefixed(t, seed)
		})
	})
}
