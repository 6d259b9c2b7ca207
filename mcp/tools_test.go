package mcp

// The tools a client lists are the table's, each named as the table names it and
// taking an action of the vocabulary; those whose action only reads say so.

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/action"
)

func TestTheToolsAreTheTablesActions(t *testing.T) {
	s := &Server{sdk: sdk.NewServer(&sdk.Implementation{Name: "agentmux"}, nil)}
	s.addTools()
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.sdk.Connect(ctx, st, nil)
	require.NoError(t, err)
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)

	acts := ToolActions()
	listed := map[string]bool{}
	for _, tl := range res.Tools {
		listed[tl.Name] = true
		act, ok := acts[tl.Name]
		if !assert.True(t, ok, "tool %s is not in the table", tl.Name) {
			continue
		}
		assert.True(t, act.Known(), "tool %s takes %q, no action of the vocabulary", tl.Name, act)
		readOnly := tl.Annotations != nil && tl.Annotations.ReadOnlyHint
		assert.Equal(t, act.Kind() == action.KindQuery, readOnly, "tool %s (%s): read-only as its action", tl.Name, act)
	}
	for name := range acts {
		assert.True(t, listed[name], "the table names tool %s, which is not declared", name)
	}
	assert.Len(t, res.Tools, len(tools))
}
