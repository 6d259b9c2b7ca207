package session

// Every action has its request on the socket, a frame type a client sends, and no two
// actions share one.

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/proto"
)

func TestEveryActionHasItsRequest(t *testing.T) {
	seen := map[string]Action{}
	for _, a := range Actions {
		typ := a.Request()
		assert.True(t, slices.Contains(proto.ClientTypes, typ), "%s: %q is no frame a client sends", a, typ)
		_, dup := seen[typ]
		assert.False(t, dup, "%s and %s are both %s", a, seen[typ], typ)
		seen[typ] = a
	}
	assert.Len(t, requests, len(Actions), "Actions lists every action")
	assert.Empty(t, Action("frobnicate").Request())
}
