package hub_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// panicCore is a core with a bug: capturing a pane named boom panics, and so does
// listing the mesh.
type panicCore struct{ *fakeCore }

func (c panicCore) Capture(id, lines int, sgr bool) (string, error) {
	if c.name(id) == "boom" {
		panic("capture bug") // what a nil map or an index out of range would raise
	}
	return c.fakeCore.Capture(id, lines, sgr)
}

func (c panicCore) ListMesh(context.Context) ([]proto.MeshSession, error) {
	panic("mesh listing bug")
}

// A bug a client's request reaches, on the hub's loop or off it, ends only that
// request: the client gets INTERNAL (the connection that sent a frame whose handling
// panicked is closed), the person is told, and the hub serves every other client, as
// the session it runs and every pane's program go on.
func TestAPanicEndsOnlyItsRequest(t *testing.T) {
	core := panicCore{newFakeCore("claude", "boom")}
	e := start(t, core.fakeCore, "", func(c *hub.Config) { c.Core = core })
	bot := e.member("bot", 0)

	ctl := e.control()
	_, err := ctl.Request(proto.TypeCapture, proto.Capture{Target: "boom"})
	var ce *client.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, proto.CodeInternal, ce.Code)
	assert.Contains(t, ce.Message, "internal error handling "+proto.TypeCapture+": capture bug")
	assert.Contains(t, <-core.warned, "internal error handling a "+proto.TypeCapture+" request")
	_, err = ctl.Request(proto.TypeList, struct{}{})
	assert.Error(t, err, "the connection whose frame panicked is closed")

	_, err = e.control().Request(proto.TypeMesh, struct{}{})
	require.ErrorAs(t, err, &ce)
	assert.Contains(t, ce.Message, "internal error handling "+proto.TypeMesh+": mesh listing bug")

	res, err := e.control().Request(proto.TypeCapture, proto.Capture{Target: "claude", Lines: 5})
	require.NoError(t, err, "the hub goes on")
	assert.Equal(t, "screen of claude lines=5 sgr=false", *res.Screen)
	_, err = bot.Request(proto.TypeList, struct{}{})
	assert.NoError(t, err, "other connections stay open")
}
