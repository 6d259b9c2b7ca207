package bridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Sends through the hub map to the core's deliveries in call order per (from, to); a
// pane's own deliveries and refused Sends take no reference; final events forget.
func TestCoreRefs(t *testing.T) {
	c := newCoreRefs()
	r1 := c.sent("ops", "claude")
	r2 := c.sent("ops", "claude")
	r3 := c.sent("ops", "codex")
	refused := c.sent("ops", "codex")
	c.failed("ops", "codex", refused)

	assert.Equal(t, "", c.event(7, "codex", "claude", false), "a pane's own relay")
	assert.Equal(t, r3, c.event(8, "ops", "codex", false))
	assert.Equal(t, r1, c.event(9, "ops", "claude", false))
	assert.Equal(t, r1, c.event(9, "ops", "claude", false), "later phases of the same delivery")
	assert.Equal(t, r2, c.event(10, "ops", "claude", false))
	assert.Equal(t, "", c.event(11, "ops", "codex", false), "the refused Send made no delivery")
	assert.Equal(t, r1, c.event(9, "ops", "claude", true))
	assert.Equal(t, "", c.event(9, "ops", "claude", false), "forgotten after its final phase")
	assert.Empty(t, c.waiting)
}
