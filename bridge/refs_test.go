package bridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A Send's delivery number carries its reference through every phase; a pane's own
// deliveries get one of their own; others none; final events forget, mail remembers.
func TestCoreRefs(t *testing.T) {
	c := newCoreRefs()
	r1 := c.numbered(9, false)
	r2 := c.numbered(10, true)
	assert.NotEqual(t, r1, r2)

	assert.Equal(t, "", c.event(7, false), "a delivery nobody sent through the hub")
	assert.Equal(t, r1, c.event(9, false))
	assert.Equal(t, r1, c.event(9, false), "later phases of the same delivery")
	assert.Equal(t, r2, c.event(10, true))
	assert.Equal(t, r1, c.event(9, true))
	assert.Equal(t, "", c.event(9, false), "forgotten after its final phase")
	assert.Equal(t, r2, c.mail(10), "mail about it still names it")
	assert.Equal(t, "c4", c.own(4, false))
	assert.Equal(t, "c4", c.event(4, false))
	assert.Empty(t, c.byDelivery[5])
}
