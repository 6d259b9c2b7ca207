package hub

// The handler table is the dispatch: it has one handler for each frame type a client
// sends (proto.ClientTypes), and none for a type only the session sends.

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/proto"
)

func TestEveryClientTypeHasAHandler(t *testing.T) {
	for _, typ := range proto.ClientTypes {
		assert.NotNil(t, handlers[typ], "%s has no handler", typ)
	}
	for typ := range handlers {
		assert.True(t, slices.Contains(proto.ClientTypes, typ), "a handler for %s, which no client sends", typ)
	}
}
