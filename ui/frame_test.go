package ui

// The frame bookkeeping on its own: a composed frame stays current until invalidated
// and is handed to the writer once; output draws at most once per interval, a key's
// echo after the short gap, once.

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
	now, _, _ := p.output(1, t0)
	assert.True(t, now, "the first output draws at once")
	p.took(t0)

	now, at, arm := p.output(1, t0.Add(5*time.Millisecond))
	assert.False(t, now)
	assert.True(t, arm)
	assert.Equal(t, t0.Add(16*time.Millisecond), at)
	_, _, arm = p.output(2, t0.Add(6*time.Millisecond))
	assert.False(t, arm, "a tick no later is already coming")

	p.tick(at)
	p.took(at)
	p.expectEcho(1, at)
	now, _, _ = p.output(1, at.Add(3*time.Millisecond))
	assert.True(t, now, "the echo draws after the short gap")
	p.took(at.Add(3 * time.Millisecond))
	now, _, _ = p.output(1, at.Add(6*time.Millisecond))
	assert.False(t, now, "the echo credit is spent by the frame")
}
