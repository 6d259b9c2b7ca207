package session

// The session's pacing runs the script it shares with the ui's frame pacer: at most one
// observation per interval, at once after a quiet interval, early for a key's echo once,
// early for a paused burst's end once a slot.

import (
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/pacecase"
	"github.com/stretchr/testify/require"
)

func TestPacingKeepsTheSharedRule(t *testing.T) {
	require.Equal(t, pacecase.Rate, defaultInterval, "the default rate is the ui's frame rate")
	t0 := time.Unix(100, 0)
	p := newPacing(pacecase.Interval)
	for i, s := range pacecase.Steps {
		now := t0.Add(s.At)
		switch s.Kind {
		case pacecase.Output:
			got := p.offer(s.Pane, now)
			require.Equal(t, s.Now, got, "step %d: output taken at once", i)
			if got {
				p.observed(s.Pane, now)
			}
		case pacecase.Pause:
			require.True(t, p.isHeld(s.Pane), "step %d: the script pauses only with output held", i)
			got := p.quiet(s.Pane)
			require.Equal(t, s.Now, got, "step %d: paused output taken at once", i)
			if got {
				p.observed(s.Pane, now)
			}
		case pacecase.Key:
			require.False(t, p.isHeld(s.Pane), "step %d: the script keys only with nothing held", i)
			p.grant(s.Pane)
		case pacecase.Due:
			at, ok := p.next()
			require.True(t, ok, "step %d: output is held", i)
			require.Equal(t, now, at, "step %d: when the held output is due", i)
			require.Empty(t, p.due(now.Add(-time.Nanosecond)), "step %d: due before its slot", i)
			require.Equal(t, []int{s.Pane}, p.due(now), "step %d", i)
			p.observed(s.Pane, now)
			_, ok = p.next()
			require.False(t, ok, "step %d: still held after its slot", i)
		}
	}
}
