//go:build agents

package agents

// The CLIs added after the first three (pi; opencode and Qwen Code where installed), each
// linked with each of Claude Code, Codex and Gemini CLI in both directions, under the
// linked-conversation contract (exact words, budget exact); then the hop times of the same
// pairs (answer end → the next request carrying it), logged for comparison with the first
// three's. A CLI that is not installed is reported and its pairs are not run.

import (
	"os"
	"path/filepath"
	"testing"
)

// newCLIs are the CLIs this file pairs with the first three.
var newCLIs = []string{"pi", "qwen", "opencode"}

// firstCLIs are the CLIs of the first relay measurements.
var firstCLIs = []string{"claude", "codex", "gemini"}

// installed reports whether the command of CLI name is in the agents cache.
func installed(t *testing.T, name string) bool {
	_, err := os.Stat(filepath.Join(cacheDir(), "node_modules", ".bin", cliNamed(t, name).program()))
	return err == nil
}

// newPairs returns the pairs (both directions) of a new CLI and a first one, both installed.
func newPairs(t *testing.T) [][2]string {
	var out [][2]string
	for _, n := range newCLIs {
		for _, f := range firstCLIs {
			if !installed(t, n) || !installed(t, f) {
				t.Logf("%s or %s not installed: %s⇄%s not run", n, f, n, f)
				continue
			}
			out = append(out, [2]string{n, f}, [2]string{f, n})
		}
	}
	return out
}

func TestNewCLIsLinked(t *testing.T) {
	bin := buildAgentmux(t)
	for _, pair := range newPairs(t) {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			linkedConversation(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]))
		})
	}
}

func TestNewCLIsHopTime(t *testing.T) {
	bin := buildAgentmux(t)
	// A pair of the first three, measured in the same run for the ratio.
	for _, pair := range append([][2]string{{"claude", "codex"}}, newPairs(t)...) {
		name := pair[0] + "-" + pair[1]
		t.Run(name, func(t *testing.T) {
			gaps, r2r := hops(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]), true)
			t.Logf("%s: answer end → next request median %s %v; request → request median %s",
				name, median(gaps), gaps, median(r2r))
		})
	}
}

// amongPairs returns the pairs (both directions) of two new CLIs, both installed.
func amongPairs(t *testing.T) [][2]string {
	var out [][2]string
	for i, a := range newCLIs {
		for _, b := range newCLIs[i+1:] {
			if !installed(t, a) || !installed(t, b) {
				t.Logf("%s or %s not installed: %s⇄%s not run", a, b, a, b)
				continue
			}
			out = append(out, [2]string{a, b}, [2]string{b, a})
		}
	}
	return out
}

// TestNewCLIsAmongThemselves links the new CLIs with each other (pi⇄Qwen Code,
// pi⇄opencode, Qwen Code⇄opencode, both directions) under the same contract.
func TestNewCLIsAmongThemselves(t *testing.T) {
	bin := buildAgentmux(t)
	for _, pair := range amongPairs(t) {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			linkedConversation(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]))
		})
	}
}
