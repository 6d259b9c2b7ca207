package fakeclock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The clock's whole contract: timers fire when the clock reaches them, at once when
// already due, never after being disarmed; Next names the earliest armed deadline.
func TestTimersFireWhenTheClockReachesThem(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	c := New(t0)
	due, _ := c.Timer(t0)
	select {
	case at := <-due:
		assert.Equal(t, t0, at)
	default:
		t.Fatal("a timer already due did not fire at once")
	}
	a, _ := c.Timer(t0.Add(2 * time.Second))
	b, stopB := c.Timer(t0.Add(time.Second))
	next, ok := c.Next()
	require.True(t, ok)
	assert.Equal(t, t0.Add(time.Second), next)
	stopB()
	next, _ = c.Next()
	assert.Equal(t, t0.Add(2*time.Second), next, "a disarmed timer is not armed")
	c.Advance(time.Second)
	assert.Empty(t, a)
	assert.Empty(t, b)
	c.Set(t0.Add(3 * time.Second))
	assert.Equal(t, t0.Add(3*time.Second), <-a)
	_, ok = c.Next()
	assert.False(t, ok)
}
