//go:build agents

package agents

// Spend with the real CLIs: `agentmux --link --turns 1 A B`, A answering a prompt and B
// the delivery (opencode as B: its usage is read from its own database after its turn), the fake model reporting known usage on every answer (all four kinds
// on Anthropic's API). Once both borders show what their pane spent, the store's total
// per pane must equal, exactly, the sum of what the model reported for that pane's
// conversation turns: read from the CLI's own file, each request counted once.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
	"github.com/agentmux/agentmux/store"
)

func TestSpendIsExact(t *testing.T) {
	bin := buildAgentmux(t)
	for _, pair := range [][2]string{{"claude", "codex"}, {"gemini", "claude"}, {"qwen", "codex"}, {"claude", "opencode"}, {"pi", "claude"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			a, b := cliNamed(t, pair[0]), cliNamed(t, pair[1])
			p := startPair(t, bin, a, b, mockmodel.Fixed("the answer in a few words"), mockmodel.Fixed("ok then"), "--link", "--turns", "1")
			t.Cleanup(func() { // before the homes go: the files the hooks named
				if t.Failed() {
					dumpUsageFiles(t, p.state)
				}
			})
			p.tm.submit("write the plan")
			waitTurn(t, p.tm, p.bSrv, b.name, 1, 120*time.Second)
			p.tm.waitFor("both borders to show spend", 60*time.Second, func(screen []string, _ string) bool {
				return spentShown(screen)
			})
			st, err := store.Open(filepath.Join(p.state, "agentmux", "agentmux.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			// The borders show a spend as the session counts it; the store records it
			// from the session's events a moment later: wait for the rows, up to 10 s.
			var wrong []string
			for deadline := time.Now().Add(10 * time.Second); ; {
				got, err := st.SpendBy("", "pane", 0)
				if err != nil {
					t.Fatal(err)
				}
				wrong = wrong[:0]
				for i, srv := range []*mockmodel.Server{p.aSrv, p.bSrv} {
					var want mockmodel.Usage
					for _, r := range srv.Turns() {
						want.Input += r.Usage.Input
						want.Output += r.Usage.Output
						want.CacheRead += r.Usage.CacheRead
						want.CacheWrite += r.Usage.CacheWrite
					}
					name := []string{a.name, b.name}[i]
					var row store.SpendTotal
					for _, g := range got {
						if strings.HasSuffix(g.Key, "/"+name) {
							row = g
						}
					}
					have := mockmodel.Usage{Input: int(row.Input), Output: int(row.Output), CacheRead: int(row.CacheRead), CacheWrite: int(row.CacheWrite)}
					if have != want {
						wrong = append(wrong, fmt.Sprintf("%s spent %+v, the model reported %+v for its %d turns (all requests: %v)", name, have, want, len(srv.Turns()), srv.Requests()))
					}
				}
				if len(wrong) == 0 || time.Now().After(deadline) {
					break
				}
				<-time.After(100 * time.Millisecond) // the store has no signal to wait on: read it again
			}
			for _, w := range wrong {
				t.Error(w)
			}
		})
	}
}

// spentShown reports whether the top row (the two side-by-side panes' borders) shows
// what both panes spent ("$0.0012" or "130 tok" in each title).
func spentShown(screen []string) bool {
	if len(screen) == 0 {
		return false
	}
	top := screen[0]
	return strings.Count(top, "$")+strings.Count(top, " tok") >= 2
}

// dumpUsageFiles logs the usage files agentmux.log says it read, the hooks' reports,
// and the log's lines about usage it could not read (opencode's database).
func dumpUsageFiles(t *testing.T, state string) {
	log, _ := os.ReadFile(filepath.Join(state, "agentmux", "agentmux.log"))
	for _, l := range strings.Split(string(log), "\n") {
		if strings.Contains(l, "usage not read") || strings.Contains(l, "opencode usage") || strings.Contains(l, "usage database") {
			t.Logf("agentmux.log: %s", l)
		}
	}
	for _, m := range regexp.MustCompile(`msg="?usage[^\n]*file=(\S+)`).FindAllStringSubmatch(string(log), -1) {
		b, err := os.ReadFile(m[1])
		if len(b) > 6000 {
			b = b[len(b)-6000:]
		}
		t.Logf("usage file %s (%v):\n%s", m[1], err, b)
	}
}
