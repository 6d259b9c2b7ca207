//go:build agents

package agents

// The hop figure with the real CLIs: two linked agents talk for four deliveries, once with
// agentmux's hooks and once with --no-hooks (turn ends from the screen). Each hop is
// measured on the mock servers' clocks: from the end of one agent's answer to the start
// of the other's request carrying it (the CLI drawing its answer, agentmux knowing the
// turn ended, typing the delivery, the other CLI sending it on), and request to request.
// The figures are logged, not asserted: times belong to benchmarks; the test asserts the
// conversation (every delivery reached its peer, the budget stopped it).

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/mockmodel"
)

func TestHopTime(t *testing.T) {
	bin := buildAgentmux(t)
	for _, pair := range [][2]string{{"claude", "codex"}, {"codex", "gemini"}, {"gemini", "claude"}} {
		for _, hooks := range []bool{true, false} {
			name := pair[0] + "-" + pair[1] + map[bool]string{true: "/hooks", false: "/screen"}[hooks]
			t.Run(name, func(t *testing.T) {
				gaps, r2r := hops(t, bin, cliNamed(t, pair[0]), cliNamed(t, pair[1]), hooks)
				t.Logf("%s: answer end → next request median %s %v; request → request median %s",
					name, median(gaps), gaps, median(r2r))
			})
		}
	}
}

// hops runs `agentmux --link --turns 4 A B` and returns, per delivery, the time from the
// end of the answer relayed to the start of the request carrying it, and from request
// to request.
func hops(t *testing.T, bin string, a, b cli, hooks bool) (gaps, r2r []time.Duration) {
	aLabel, bLabel := strings.ToUpper(a.name), strings.ToUpper(b.name)
	flags := []string{"--link", "--turns", "4"}
	if !hooks {
		flags = append(flags, "--no-hooks")
	}
	p := startPair(t, bin, a, b, mockmodel.Numbered(aLabel, 6), mockmodel.Numbered(bLabel, 6), flags...)
	tm, aSrv, bSrv := p.tm, p.aSrv, p.bSrv
	tm.submit("hello from the hop test, please reply")

	// The turns in order: A1 (the opening), B1, A2, B2, A3; each after the first carries
	// the answer before it.
	turns := []mockmodel.Request{waitTurn(t, tm, aSrv, a.name, 1, 60*time.Second)}
	for i := 1; i <= 4; i++ {
		srv, who, n := bSrv, b.name, (i+1)/2
		if i%2 == 0 {
			srv, who, n = aSrv, a.name, i/2+1
		}
		r := waitTurn(t, tm, srv, who, n, 120*time.Second)
		prev := turns[len(turns)-1]
		if !strings.Contains(r.Prompt, mockmodel.FirstWords(prev.Reply, 3)) {
			t.Errorf("delivery %d into %s = %q, want it to carry %q", i, who, r.Prompt, prev.Reply)
		}
		turns = append(turns, r)
		gaps = append(gaps, r.Start.Sub(prev.End).Round(time.Millisecond))
		r2r = append(r2r, r.Start.Sub(prev.Start).Round(time.Millisecond))
	}
	return gaps, r2r
}

// median returns the median of ds, formatted.
func median(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return "-"
	}
	return fmt.Sprint(s[len(s)/2])
}
