package hub_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

// clients lists the client members by name and state.
func clients(t *testing.T, ctl *client.Conn) map[string]string {
	t.Helper()
	res, err := deadline(ctl).Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
	out := map[string]string{}
	for _, m := range res.Members {
		if m.Client {
			out[m.Name] = m.State
		}
	}
	return out
}

// bye says BYE and waits for the server's, so the hub has handled it.
func bye(t *testing.T, c *client.Conn) {
	t.Helper()
	_, err := deadline(c).Write(proto.TypeBye, "", "", proto.Bye{})
	require.NoError(t, err)
	next(t, c, proto.TypeBye)
	c.Raw().Close()
}

// Members that said BYE with nothing waiting for them are forgotten (not listed, their
// name free in the core); one with messages waiting stays away; connections that drop
// without BYE stay away, at most maxIdleAway (256) of them.
func TestMembersThatLeftAreForgotten(t *testing.T) {
	core := newFakeCore("claude")
	// A heartbeat of a minute: ctl reads nothing (so answers no PING) while hundreds of
	// members come and go, which takes more than two heartbeats of 5 s under load.
	e := start(t, core, "", func(c *hub.Config) { c.Heartbeat = time.Minute })
	ctl := e.control()
	for i := range 100 {
		bye(t, e.member(fmt.Sprintf("bye%d", i), 0))
	}
	assert.Empty(t, clients(t, ctl), "members that left are not listed")
	assert.False(t, core.isRegistered("bye7"), "nor known to the core")
	_, err := ctl.Send("you", "bye7", "hello?")
	assert.ErrorContains(t, err, "bye7", "a forgotten member takes no messages")

	// A member leaving with a delivery unacknowledged stays, away, with it waiting.
	keep := e.member("keep", 0)
	_, err = ctl.Send("you", "keep", "wait for me")
	require.NoError(t, err)
	next(t, keep, proto.TypeDeliver)
	bye(t, keep)
	assert.Equal(t, map[string]string{"keep": "away"}, clients(t, ctl))
	back := e.member("keep", 0)
	d := next(t, back, proto.TypeDeliver)
	assert.Equal(t, "wait for me", payload[proto.Send](t, d).Body)
	require.NoError(t, back.Ack(d))
	bye(t, back)
	assert.Empty(t, clients(t, ctl), "gone once nothing waits")

	// The same name is welcome again.
	again := e.member("bye7", 0)
	assert.Equal(t, map[string]string{"bye7": "connected"}, clients(t, ctl))
	assert.True(t, core.isRegistered("bye7"))
	bye(t, again)

	// Dropped connections stay away, but not without bound. A watcher of the events says
	// when the hub has handled the last drop.
	watch := e.control()
	_, err = watch.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)
	handled := make(chan error, 1)
	go func() {
		for {
			x, err := deadline(watch).Read()
			if err != nil {
				handled <- err
				return
			}
			ev, err := proto.DecodePayload[proto.Event](x)
			if err == nil && ev.Kind == proto.EventMember && ev.Member == "drop299" && ev.State == "disconnected" {
				handled <- nil
				return
			}
		}
	}()
	for i := range 300 {
		e.member(fmt.Sprintf("drop%03d", i), 0).Raw().Close()
	}
	require.NoError(t, <-handled, "the hub says drop299 disconnected")
	got := clients(t, ctl)
	assert.Equal(t, "away", got["drop299"], "a dropped member is away")
	assert.LessOrEqual(t, len(got), 256)
	assert.NotContains(t, got, "drop000", "the one away longest is forgotten first")
}

// A member forgotten takes its streams' seqs with it (a hub that lives for weeks meets
// members without number), and one that comes back continues them from the store.
func TestAForgottenMembersSeqsGo(t *testing.T) {
	e := start(t, newFakeCore("claude"), "", func(c *hub.Config) { c.Heartbeat = time.Minute })
	ctl := e.control()
	say := func(name, body string) *proto.Envelope {
		t.Helper()
		m := e.member(name, 0)
		_, err := ctl.Send("you", name, body)
		require.NoError(t, err)
		d := next(t, m, proto.TypeDeliver)
		require.NoError(t, m.Ack(d))
		bye(t, m)
		return d
	}
	for i := range 50 {
		say(fmt.Sprintf("w%d", i), "hi")
	}
	d := say("w7", "again")
	assert.Equal(t, int64(2), d.Delivery.Seq, "seqs go on from the store")
	require.NoError(t, e.h.Close())
	assert.Zero(t, e.h.Recipients(), "no seqs kept for members forgotten")
}
