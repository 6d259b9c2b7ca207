package ui

// The frame bookkeeping on its own: a composed frame stays current until invalidated
// and is handed to the writer once; output draws at most once per interval, a key's
// echo after the short gap, once.

import (
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/pacecase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrameStateHandsEachFrameOnce(t *testing.T) {
	var f frameState
	assert.False(t, f.current())
	f.composed()
	assert.True(t, f.current())
	assert.True(t, f.unshown())
	assert.False(t, f.unshown(), "the same frame twice")
	f.invalidate()
	assert.False(t, f.current())
	assert.False(t, f.unshown(), "nothing new composed yet")
	f.composed()
	assert.True(t, f.unshown())
}

func TestFramePacerIntervalAndEcho(t *testing.T) {
	t0 := time.Unix(100, 0)
	p := framePacer{interval: 16 * time.Millisecond, echoGap: 2 * time.Millisecond, echoWindow: 100 * time.Millisecond}
	now, _, _ := p.output(1, t0, false)
	assert.True(t, now, "the first output draws at once")
	p.took(t0)

	now, at, arm := p.output(1, t0.Add(5*time.Millisecond), false)
	assert.False(t, now)
	assert.True(t, arm)
	assert.Equal(t, t0.Add(16*time.Millisecond), at)
	_, _, arm = p.output(2, t0.Add(6*time.Millisecond), false)
	assert.False(t, arm, "a tick no later is already coming")

	require.True(t, p.tick(at))
	p.took(at)
	p.expectEcho(1, at)
	now, _, _ = p.output(1, at.Add(3*time.Millisecond), false)
	assert.True(t, now, "the echo draws after the short gap")
	p.took(at.Add(3 * time.Millisecond))
	now, _, _ = p.output(1, at.Add(6*time.Millisecond), false)
	assert.False(t, now, "the echo credit is spent by the frame")
}

// The frame pacer runs the script it shares with the session's output pacing: at most
// one frame per interval, at once after a quiet interval, early for a key's echo once,
// at once for a paused burst's end once a slot.
func TestFramePacerKeepsTheSharedRule(t *testing.T) {
	require.Equal(t, pacecase.Rate, frameInterval, "the frame rate is the session's default rate")
	require.Less(t, echoGap, pacecase.EchoGapUnder)
	require.Greater(t, echoWindow, pacecase.EchoWindowOver)
	t0 := time.Unix(100, 0)
	p := framePacer{interval: pacecase.Interval, echoGap: echoGap, echoWindow: echoWindow}
	var tick time.Time // the frame tick armed, zero when none
	for i, s := range pacecase.Steps {
		now := t0.Add(s.At)
		switch s.Kind {
		case pacecase.Output:
			drawNow, at, arm := p.output(s.Pane, now, false)
			require.Equal(t, s.Now, drawNow, "step %d: output drawn at once", i)
			switch {
			case drawNow:
				p.took(now)
			case arm:
				tick = at
			default:
				require.False(t, tick.IsZero(), "step %d: held with no tick coming", i)
				require.False(t, tick.After(at), "step %d: the tick coming is late", i)
			}
		case pacecase.Pause:
			require.False(t, tick.IsZero(), "step %d: the script pauses only with output held", i)
			drawNow, at, arm := p.output(s.Pane, now, true)
			require.Equal(t, s.Now, drawNow, "step %d: paused output drawn at once", i)
			if drawNow {
				require.False(t, p.armed, "step %d: the tick for the held output is not needed", i)
				p.took(now)
				tick = time.Time{}
			} else {
				require.False(t, arm, "step %d: its tick is coming", i)
				require.Equal(t, tick, at, "step %d", i)
			}
		case pacecase.Key:
			require.True(t, tick.IsZero(), "step %d: the script keys only with nothing held", i)
			p.expectEcho(s.Pane, now)
		case pacecase.Due:
			require.Equal(t, now, tick, "step %d: when the held output is drawn", i)
			p.tick(tick)
			p.took(now)
			tick = time.Time{}
		}
	}
}

// A flood in another pane takes a full frame every interval; one taken after a key but
// before its echo came does not carry the echo, so it must not spend the echo's early
// frame: the echo still draws after the short gap, not a whole interval later.
func TestFramePacerFullFrameBeforeTheEchoKeepsItsCredit(t *testing.T) {
	t0 := time.Unix(100, 0)
	p := framePacer{interval: 16 * time.Millisecond, echoGap: 2 * time.Millisecond, echoWindow: 100 * time.Millisecond}
	p.took(t0)                                  // the flood's frame
	p.expectEcho(1, t0.Add(1*time.Millisecond)) // a key to pane 1
	now, at, _ := p.output(2, t0.Add(5*time.Millisecond), false)
	require.False(t, now, "the flood keeps its cadence")
	require.True(t, p.tick(at))
	assert.Equal(t, 0, p.echoFrame(at), "a full frame is due: it takes every pane")
	p.took(at) // the flood's next frame, taken before the echo came

	echo := at.Add(3 * time.Millisecond)
	now, _, _ = p.output(1, echo, false)
	assert.True(t, now, "the echo draws after the short gap, not at the next full frame")
	assert.Equal(t, 1, p.echoFrame(echo), "its early frame takes only the echo's pane")
	p.tookEcho(echo)
	now, _, _ = p.output(1, echo.Add(3*time.Millisecond), false)
	assert.False(t, now, "the echo credit is spent by the frame that carried it")

	// A full frame that carried the echo (it came within the short gap of the last
	// frame, so it waited) spends the credit too.
	q := framePacer{interval: 16 * time.Millisecond, echoGap: 2 * time.Millisecond, echoWindow: 100 * time.Millisecond}
	q.took(t0)
	q.tookEcho(t0.Add(15 * time.Millisecond))
	q.expectEcho(1, t0.Add(15*time.Millisecond))
	now, at, arm := q.output(1, t0.Add(15500*time.Microsecond), false)
	require.False(t, now, "within the short gap of the last frame")
	require.True(t, arm)
	require.Equal(t, t0.Add(17*time.Millisecond), at)
	q.took(t0.Add(16 * time.Millisecond)) // the flood's full frame comes first
	now, _, _ = q.output(1, t0.Add(19*time.Millisecond), false)
	assert.False(t, now, "the full frame carried the echo: no early frame is left")
}

// The one frame timer is armed again and again; a firing the forwarder took just before
// the timer was armed for later must not take a frame early: the pacer sees it early and
// waits for the firing at the new time.
func TestFramePacerIgnoresAnEarlyFiring(t *testing.T) {
	t0 := time.Unix(100, 0)
	p := framePacer{interval: 16 * time.Millisecond, echoGap: 2 * time.Millisecond, echoWindow: 100 * time.Millisecond}
	p.took(t0)
	_, at, arm := p.output(1, t0.Add(5*time.Millisecond), false)
	require.True(t, arm)
	assert.False(t, p.tick(at.Add(-time.Millisecond)), "a firing before the armed time is stale")
	assert.True(t, p.armed, "the timer stays armed for its time")
	assert.True(t, p.tick(at), "the firing at the armed time draws")
	assert.False(t, p.armed)
	assert.True(t, p.tick(at.Add(time.Millisecond)), "with nothing armed a firing draws")
}
