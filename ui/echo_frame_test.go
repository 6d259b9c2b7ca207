package ui

// An echo that comes while another pane floods: the flood's full frame is due at about
// every moment, and the echo must not wait for it nor ride in it (a whole screen of the
// flood's rows written before the echo's row reaches the terminal). The model draws the
// echo's pane alone first and the flood's frame right after.

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/vterm"
)

// snapText is a snapshot's text, rows joined by newlines.
func snapText(s *vterm.Snapshot) string {
	var b strings.Builder
	for _, l := range s.Lines {
		for _, c := range l.Cells {
			b.WriteString(c.String())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestEchoDrawsAloneWhenAFloodsFullFrameIsDue(t *testing.T) {
	hs := newHarness(t, 80, 24, "echo", "flood")
	printAt := func(id int, at time.Time, s string) {
		t.Helper()
		hs.clock.Set(at)
		hs.s.Sync()
		hs.procs[id].Print(s)
		hs.await(func(ev session.Event) bool { o, ok := ev.(session.Output); return ok && o.Pane == id })
	}
	hs.output(2, "flood-1\r\n") // drawn in a full frame
	require.Equal(t, 1, hs.m.focus)
	hs.press(keys.Key{Code: keys.KeyRune, Rune: 'x'})
	t0 := hs.clock.Now()
	printAt(2, t0.Add(time.Millisecond), "flood-2\r\n") // within the interval: held
	require.True(t, hs.m.pace.armed, "a tick is coming for the flood's next frame")
	printAt(1, t0.Add(frameInterval+time.Millisecond), "x") // the echo, the full frame due

	require.Contains(t, snapText(hs.m.views[1].snap), "x", "the echo is drawn at once")
	require.NotContains(t, snapText(hs.m.views[2].snap), "flood-2", "the echo's frame takes its pane alone")
	require.True(t, hs.m.pace.armed, "the flood's frame is coming")
	require.False(t, hs.m.pace.at.After(hs.clock.Now()), "at once")
	hs.frameTick()
	require.Contains(t, snapText(hs.m.views[2].snap), "flood-2", "the flood's frame follows the echo's")
}
