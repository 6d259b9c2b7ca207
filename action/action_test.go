package action

// The vocabulary is consistent with the socket: each action the socket offers has a
// frame a client sends, no two actions share one, a query is always asked over the
// socket and a view action never is; each name stands once.

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/proto"
)

func TestEveryActionCrossesTheSocketAsItsKindSays(t *testing.T) {
	seen := map[string]Name{}
	names := map[Name]bool{}
	for _, a := range All() {
		assert.False(t, names[a], "%s stands twice", a)
		names[a] = true
		assert.True(t, a.Known())
		typ := a.Request()
		switch a.Kind() {
		case KindView:
			assert.Empty(t, typ, "%s is one terminal's view: it never crosses the socket", a)
		case KindQuery:
			assert.NotEmpty(t, typ, "%s reads the session over the socket", a)
		case KindSession:
		default:
			t.Errorf("%s has no kind", a)
		}
		if typ == "" {
			continue
		}
		assert.True(t, slices.Contains(proto.ClientTypes, typ), "%s: %q is no frame a client sends", a, typ)
		_, dup := seen[typ]
		assert.False(t, dup, "%s and %s are both %s", a, seen[typ], typ)
		seen[typ] = a
	}
	frob := Name("frobnicate")
	assert.False(t, frob.Known())
	assert.Empty(t, frob.Request())
	assert.Zero(t, frob.Kind())
}

// Every frame the vocabulary names is an action's that is in it.
func TestEveryRequestIsAnActions(t *testing.T) {
	for a := range requests {
		assert.True(t, a.Known(), "requests names %s, no action", a)
	}
}
