package hub_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// meshCore is a core in front of which a mesh lists the mesh's sessions (hub.MeshLister):
// each ListMesh says it was called on asked, then answers what the test sends on
// answer, or ends with the hub's context.
type meshCore struct {
	*fakeCore
	asked  chan struct{}
	answer chan meshAnswer
}

type meshAnswer struct {
	sessions []proto.MeshSession
	err      error
}

func (c meshCore) ListMesh(ctx context.Context) ([]proto.MeshSession, error) {
	c.asked <- struct{}{}
	select {
	case a := <-c.answer:
		return a.sessions, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// X_MESH is answered by the core's mesh off the hub's loop: while the mesh is asked,
// the hub answers others; its answer or its error reaches the client that asked. A
// pane's program may ask (the listing is what its relay lines learn anyway). A session
// in no mesh says so, and a hub closed while the mesh is asked ends at once.
func TestMeshListing(t *testing.T) {
	core := meshCore{fakeCore: newFakeCore("claude"), asked: make(chan struct{}, 4), answer: make(chan meshAnswer)}
	e := start(t, core.fakeCore, "", func(c *hub.Config) { c.Core = core })
	want := []proto.MeshSession{
		{Name: "buildbox", Live: true, Members: []proto.MeshMember{{Name: "bob", Program: "codex", State: "idle"}}},
		{Name: "laptop", Members: []proto.MeshMember{}},
	}
	type got struct {
		res *proto.Result
		err error
	}
	done := make(chan got, 1)
	pane, person := e.paneControl("claude"), e.control()
	go func() {
		res, err := pane.Request(proto.TypeMesh, struct{}{})
		done <- got{res, err}
	}()
	<-core.asked
	res, err := e.control().Request(proto.TypeList, struct{}{})
	require.NoError(t, err, "the hub answers others while the mesh is asked")
	assert.Len(t, res.Members, 1)
	core.answer <- meshAnswer{sessions: want}
	g := <-done
	require.NoError(t, g.err)
	assert.Equal(t, want, g.res.Mesh)

	go func() {
		_, err := person.Request(proto.TypeMesh, struct{}{})
		done <- got{err: err}
	}()
	<-core.asked
	core.answer <- meshAnswer{err: errors.New("mesh: asking buildbox: timeout")}
	var ce *client.Error
	require.ErrorAs(t, (<-done).err, &ce)
	assert.Contains(t, ce.Message, "asking buildbox")

	plain := start(t, newFakeCore("claude"), "", nil)
	_, err = plain.control().Request(proto.TypeMesh, struct{}{})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "joined no mesh")

	// Closed while the mesh is asked: the listing ends with the hub.
	c := e.control()
	_, err = c.Write(proto.TypeMesh, "", "", struct{}{})
	require.NoError(t, err)
	<-core.asked
	require.NoError(t, e.h.Close())
}
