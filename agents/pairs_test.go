//go:build agents

package agents

// The pairs matrix: each of the new CLIs (pi, Qwen Code, opencode) linked with each of the
// first three (Claude Code, Codex, Gemini CLI) in both directions, and the new ones among
// themselves, each pair for four deliveries of multi-paragraph answers (longReply: a blank
// line between paragraphs, a wide-character word, a quote of the message answered). One
// subtest per ordered pair, named "A-B", so a single pair runs with
// `-run 'TestPairs/^pi-claude$'`. Each pair asserts:
//
//  1. every delivery reaches the peer's model as exactly the sender's header and the words
//     the fake model answered the sender (sameWords: a paste may rewrap), nothing else;
//  2. the budget of four is exact: four deliveries came, and no fifth within linkQuiet after
//     the last answer is on screen.
//
// Each pair logs one line beginning "PAIR" with its exact/total count and its hop times
// (the end of the answer relayed → the start of the request carrying it, on the mock
// servers' clocks) and the relay's share of each (the answer's end → the relay typing it,
// from the session's events; the rest is the receiving CLI taking the paste and sending its
// request), which the matrix in docs/relay.md was written from; the parent test logs the
// sum and the hop times per sending CLI.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// pairDeliveries is how many deliveries each pair of the matrix runs.
const pairDeliveries = 4

// hopLog collects the hop times of a run by sending CLI, for the parent test's summary:
// whole hops, and the relay's share of them (answer end → typed).
type hopLog struct {
	mu            sync.Mutex
	bySend, waits map[string][]time.Duration
}

func (h *hopLog) add(sender string, gap time.Duration, wait *time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.bySend == nil {
		h.bySend, h.waits = map[string][]time.Duration{}, map[string][]time.Duration{}
	}
	h.bySend[sender] = append(h.bySend[sender], gap)
	if wait != nil {
		h.waits[sender] = append(h.waits[sender], *wait)
	}
}

// matrixPairs returns the ordered pairs of the matrix: new × first both ways, then the new
// CLIs among themselves, each with both CLIs installed.
func matrixPairs(t *testing.T) [][2]string {
	return append(newPairs(t), amongPairs(t)...)
}

func TestPairs(t *testing.T) {
	bin := buildAgentmux(t)
	var hops hopLog
	exact, all := 0, 0
	for _, pair := range matrixPairs(t) {
		name := pair[0] + "-" + pair[1]
		t.Run(name, func(t *testing.T) {
			a, b := cliNamed(t, pair[0]), cliNamed(t, pair[1])
			res := conversation(t, bin, a, b, 220, 50, pairDeliveries)
			exact += res.exact
			all += pairDeliveries
			for i, g := range res.gaps {
				sender := a.name // odd deliveries (index 0, 2, …) go from pane 1
				if i%2 == 1 {
					sender = b.name
				}
				var w *time.Duration
				if i < len(res.waits) {
					w = &res.waits[i]
				}
				hops.add(sender, g, w)
			}
			t.Logf("PAIR %s %s: %d/%d exact, budget %s, hops %v (median %s, max %s), of which the relay's wait %v",
				name, versionsOf(a, b), res.exact, pairDeliveries, res.budget(), res.gaps, median(res.gaps), maxOf(res.gaps), res.waits)
		})
	}
	t.Logf("MATRIX %d/%d deliveries exact", exact, all)
	for sender, gaps := range hops.bySend {
		w := hops.waits[sender]
		t.Logf("HOP from %s (%s): median %s, max %s over %d hops; the relay's wait median %s, max %s",
			sender, cliVersion(sender), median(gaps), maxOf(gaps), len(gaps), median(w), maxOf(w))
	}
}

// maxOf returns the largest of ds, formatted.
func maxOf(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	m := ds[0]
	for _, d := range ds[1:] {
		m = max(m, d)
	}
	return fmt.Sprint(m)
}

// versionsOf names the versions of a and b installed, e.g. "pi 0.73.1 / claude 2.1.197".
func versionsOf(a, b cli) string {
	return a.name + " " + cliVersion(a.name) + " / " + b.name + " " + cliVersion(b.name)
}

// cliPackages maps a CLI's test name to its npm package.
var cliPackages = map[string]string{
	"claude": "@anthropic-ai/claude-code", "claude-fullscreen": "@anthropic-ai/claude-code",
	"codex": "@openai/codex", "gemini": "@google/gemini-cli", "pi": "@mariozechner/pi-coding-agent",
	"qwen": "@qwen-code/qwen-code", "opencode": "opencode-ai",
}

// cliVersion returns the installed version of the CLI called name, or "?".
func cliVersion(name string) string {
	v := packageVersion(cliPackages[name])
	if v == "" {
		return "?"
	}
	return strings.TrimSpace(v)
}

// packageVersion returns the version of npm package pkg installed in the agents cache ("" when
// it is not).
func packageVersion(pkg string) string {
	b, err := os.ReadFile(filepath.Join(cacheDir(), "node_modules", pkg, "package.json"))
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	return p.Version
}
