package mesh_test

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/mesh"
	"github.com/agentmux/agentmux/proto"
)

// A message from a control client of laptop to bob@buildbox is typed into bob's pane on
// the other machine, attributed to its sender and session; its phases come back to
// the sender under the message's id; history shows it once on each side.
func TestCrossSessionSend(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	c := laptop.control()
	id, err := c.Send("ops", "bob@buildbox", "please rebase")
	require.NoError(t, err)
	buildbox.waitTyped("bob", "ops@laptop", "please rebase")
	ev := awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "delivery" && ev.Phase == "typed" })
	assert.Equal(t, id, ev.ID)
	assert.Equal(t, "bob@buildbox", ev.Member)

	sent, err := c.Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	require.Len(t, sent.Messages, 1)
	assert.Equal(t, "bob@buildbox", sent.Messages[0].To)
	assert.NotZero(t, sent.Messages[0].Typed, "the sender's store has the phase")
	got, err := buildbox.control().Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	require.Len(t, got.Messages, 1)
	assert.Equal(t, id, got.Messages[0].ID, "one message, one id on both sides")
	assert.Equal(t, "ops@laptop", got.Messages[0].From)
	assert.Equal(t, "bob", got.Messages[0].To)
}

// ls --mesh: every session the mesh knows, live ones with their members.
func TestListShowsTheMesh(t *testing.T) {
	th := startHub(t)
	newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob", "carol")
	buildbox.stop()
	got, err := mesh.List(mesh.Options{URL: th.url, Session: "laptop", CredsFile: th.creds("laptop")})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "buildbox", got[0].Name)
	assert.False(t, got[0].Live)
	assert.Equal(t, "laptop", got[1].Name)
	assert.True(t, got[1].Live)
	require.Len(t, got[1].Members, 1)
	assert.Equal(t, "alice", got[1].Members[0].Name)
}

// A pane's @relay:NAME@SESSION line crosses (addressing on): typed into the other
// session's pane attributed to the pane and its session; and the answer comes back the
// same way, the sender's name having been learnt from the message.
func TestRelayLineCrosses(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	laptop := newMachine(t, th, "laptop", "alice")
	laptop.waitIdle("alice")
	buildbox.waitIdle("bob")
	laptop.proc("alice").Print("\r\n@relay:bob@buildbox please review the diff\r\nalice> ")
	buildbox.waitTyped("bob", "alice@laptop (1):", "please review the diff")
	buildbox.waitIdle("bob")
	buildbox.proc("bob").Print("\r\n@relay:alice@laptop looks good\r\nbob> ")
	laptop.waitTyped("alice", "bob@buildbox (1):", "looks good")
}

// Two sessions of one user on one computer share the store: a message crossing between
// them is stored by both under one id, and is typed all the same; each history shows it
// once.
func TestTwoSessionsOneStore(t *testing.T) {
	th := startHub(t)
	dir := t.TempDir()
	laptop := newMachineIn(t, dir, th, "laptop", "alice")
	other := newMachineIn(t, dir, th, "review", "bob")
	c := laptop.control()
	id, err := c.Send("ops", "bob@review", "same machine.")
	require.NoError(t, err)
	other.waitTyped("bob", "ops@laptop", "same machine.")
	for _, m := range []*machine{laptop, other} {
		h, err := m.control().Request(proto.TypeHistory, proto.History{})
		require.NoError(t, err)
		require.Len(t, h.Messages, 1, m.name)
		assert.Equal(t, id, h.Messages[0].ID, m.name)
	}
}

// A session whose server is stopped or stuck (subscribed, never answering) costs the
// list one wait and is shown so; sessions asked after it are listed, and joining learns
// them too (before, the list failed at it, and joining spent its whole wait on it).
func TestASilentSessionHoldsUpNoOther(t *testing.T) {
	th := startHub(t)
	buildbox := newMachine(t, th, "buildbox", "bob")
	silent := hostileConn(t, th, "aardvark") // listed and asked first
	_, err := silent.nc.Subscribe("amux.who.aardvark", func(*nats.Msg) {})
	require.NoError(t, err)
	require.NoError(t, silent.nc.Flush())
	laptop := newMachine(t, th, "laptop", "alice")

	got, err := mesh.List(mesh.Options{URL: th.url, Session: "laptop", CredsFile: th.creds("laptop"), Timeout: 2 * time.Second})
	require.NoError(t, err, "one silent session does not fail the list")
	require.Len(t, got, 3)
	assert.Equal(t, "aardvark", got[0].Name)
	assert.False(t, got[0].Live)
	assert.NotEmpty(t, got[0].Silent)
	assert.Equal(t, "buildbox", got[1].Name)
	assert.True(t, got[1].Live)

	laptop.waitIdle("alice")
	buildbox.waitIdle("bob")
	laptop.proc("alice").Print("\r\n@relay:bob@buildbox past the silent one\r\nalice> ")
	buildbox.waitTyped("bob", "alice@laptop (1):", "past the silent one")
}
