package mesh_test

// Consent to links across sessions, through the real code paths: a session core, its
// socket (the person's control connection), its mesh node, a hub. A request shows as
// pending on the receiving side and links nothing until that side's person says yes;
// no, silence past the request's expiry, and a request sent straight onto the mesh
// with a huge budget each end as they should.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/proto"
)

// linkAccepted asks, on from, to link pane a with addr, and has to's person say yes
// once the request shows there.
func linkAccepted(t *testing.T, from *machine, a, addr string, to *machine) {
	t.Helper()
	c := to.control()
	_, err := from.control().Request(proto.TypeLink, proto.Target{A: a, B: addr})
	require.NoError(t, err)
	awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "link-request" })
	_, err = c.Request(proto.TypeLink, proto.Target{Accept: true})
	require.NoError(t, err)
}

// pending is the link requests waiting on m, as agentmux link --pending lists them.
func pending(t *testing.T, m *machine) []proto.LinkRequest {
	t.Helper()
	res, err := m.control().Request(proto.TypeLink, proto.Target{Pending: true})
	require.NoError(t, err)
	return res.LinkRequests
}

// A link request from another session links nothing until the person says yes: it is
// pending (event, relay log, status line, --pending), the asking pane's turns do not
// cross; after --accept both sides are linked with the asking side's budget capped at
// the receiving side's (1000 asked, 3 here), and turns cross.
func TestALinkWaitsForThePersonsYes(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachineWith(t, &machine{t: t, name: "buildbox", dir: t.TempDir(), url: th.url, creds: th.creds("buildbox"),
		panes: []string{"bob"}, turns: 3})
	laptop.waitIdle("alice")
	buildbox.waitIdle("bob")
	bc := buildbox.control()
	_, err := laptop.control().Request(proto.TypeLink, proto.Target{A: "alice", B: "bob@buildbox"})
	require.NoError(t, err)
	ev := awaitEvent(t, bc, func(ev proto.Event) bool { return ev.Kind == "link-request" })
	assert.Equal(t, "bob", ev.Member)
	assert.Equal(t, "alice@laptop", ev.From)
	assert.Equal(t, "bob", ev.To)
	assert.Contains(t, ev.Text, "agentmux link --accept alice@laptop")
	got := pending(t, buildbox)
	require.Len(t, got, 1)
	assert.Equal(t, proto.LinkRequest{From: "alice@laptop", To: "bob", Turns: 1000, At: got[0].At}, got[0])
	buildbox.waitFor("the request in the relay log", func() bool { return buildbox.logHas("link request: alice@laptop asks to link with bob") })
	assert.Equal(t, "", buildbox.summary(), "nothing linked on buildbox")
	assert.Equal(t, "", laptop.summary(), "nothing linked on laptop")
	assert.True(t, laptop.logHas("asked bob@buildbox to link with alice"))

	// alice's turn, while the request waits, stays home.
	laptop.proc("alice").Print("\r\nbefore the yes\r\nalice> ")
	laptop.waitIdle("alice")
	laptop.s.Sync()
	_, err = laptop.control().Send("ops", "bob@buildbox", "marker.")
	require.NoError(t, err)
	assert.NotContains(t, buildbox.waitTyped("bob", "marker."), "before the yes")

	_, err = bc.Request(proto.TypeLink, proto.Target{Accept: true, A: "alice@laptop"})
	require.NoError(t, err)
	buildbox.waitFor("linked", func() bool { return strings.Contains(buildbox.summary(), "1⇄alice@laptop 0/3") })
	laptop.waitFor("linked", func() bool { return strings.Contains(laptop.summary(), "1⇄bob@buildbox 0/3") })
	assert.Empty(t, pending(t, buildbox))
	laptop.waitIdle("alice")
	laptop.proc("alice").Print("\r\nafter the yes\r\nalice> ")
	buildbox.waitTyped("bob", "alice@laptop (1):", "after the yes")
	_, err = bc.Request(proto.TypeLink, proto.Target{Accept: true})
	assert.ErrorContains(t, err, "no link request waits")
}

// --refuse ends the request on both sides, saying why on the asking side; a request
// nobody answers expires the same way.
func TestALinkRequestRefusedOrExpired(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice", "dave")
	buildbox := newMachineWith(t, &machine{t: t, name: "buildbox", dir: t.TempDir(), url: th.url, creds: th.creds("buildbox"),
		panes: []string{"bob", "carol"}, linkTTL: 300 * time.Millisecond})
	bc := buildbox.control()
	_, err := laptop.control().Request(proto.TypeLink, proto.Target{A: "alice", B: "bob@buildbox"})
	require.NoError(t, err)
	awaitEvent(t, bc, func(ev proto.Event) bool { return ev.Kind == "link-request" })
	_, err = bc.Request(proto.TypeLink, proto.Target{Refuse: true})
	require.NoError(t, err)
	laptop.waitFor("the refusal", func() bool {
		return laptop.logHas("link of alice with bob@buildbox not made: refused by its person")
	})
	assert.Equal(t, "", laptop.summary())
	assert.Equal(t, "", buildbox.summary())

	_, err = laptop.control().Request(proto.TypeLink, proto.Target{A: "dave", B: "carol@buildbox"})
	require.NoError(t, err)
	laptop.waitFor("the expiry", func() bool {
		return laptop.logHas("link of dave with carol@buildbox not made: not answered within 300ms")
	})
	assert.Empty(t, pending(t, buildbox))
	assert.Equal(t, "", buildbox.summary())
}

// A link op sent straight onto the mesh by another session (its own signed publish,
// budget 1 000 000) links nothing: it waits for the person, and a yes caps the budget
// at this session's.
func TestARawLinkOpWaitsAndIsCapped(t *testing.T) {
	th := startHub(t)
	buildbox := newMachineWith(t, &machine{t: t, name: "buildbox", dir: t.TempDir(), url: th.url, creds: th.creds("buildbox"),
		panes: []string{"bob"}, turns: 5})
	bc := buildbox.control()
	js, err := jetstream.New(rawConn(t, th, "mallory"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = js.PublishMsg(ctx, signed(t, th, "mallory", "amux.buildbox.ln.mallory",
		`{"op":"link","tag":"t1","from":"eve","to":"bob","budget":1000000}`))
	require.NoError(t, err)
	awaitEvent(t, bc, func(ev proto.Event) bool { return ev.Kind == "link-request" })
	assert.Equal(t, "", buildbox.summary(), "linked without the person's yes")
	_, err = bc.Request(proto.TypeLink, proto.Target{Accept: true})
	require.NoError(t, err)
	buildbox.waitFor("linked", func() bool { return strings.Contains(buildbox.summary(), "1⇄eve@mallory 0/5") })
}

// linkedPair is laptop (pane alice) and buildbox (pane bob) on th, alice linked with
// bob@buildbox by laptop's person and accepted by buildbox's, as both sides show.
func linkedPair(t *testing.T, th *testHub) (laptop, buildbox *machine) {
	t.Helper()
	laptop = newMachine(t, th, "laptop", "alice")
	buildbox = newMachine(t, th, "buildbox", "bob")
	laptop.waitIdle("alice")
	buildbox.waitIdle("bob")
	linkAccepted(t, laptop, "alice", "bob@buildbox", buildbox)
	buildbox.waitFor("linked", func() bool { return strings.Contains(buildbox.summary(), "1⇄alice@laptop 0/1000") })
	laptop.waitFor("linked", func() bool { return strings.Contains(laptop.summary(), "1⇄bob@buildbox 0/1000") })
	return laptop, buildbox
}
