package mesh_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/proto"
)

// waitFor waits, on the session's events, until cond holds.
func (m *machine) waitFor(what string, cond func() bool) {
	m.t.Helper()
	sub := m.s.Subscribe(0)
	defer sub.Close()
	deadline := time.After(20 * time.Second)
	for !cond() {
		select {
		case <-sub.Ready():
			sub.Next()
		case <-deadline:
			m.t.Fatalf("%s: never %s; status %q", m.name, what, m.s.Status().Summary)
		}
	}
}

// summary is the relay's status line summary.
func (m *machine) summary() string { return m.s.Status().Summary }

// logHas reports whether the relay log has an entry whose note holds every one of
// words.
func (m *machine) logHas(words ...string) bool {
	log, _ := m.s.Log()
	for _, e := range log {
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(e.Note, w)
		}
		if ok {
			return true
		}
	}
	return false
}

// `agentmux link alice bob@buildbox` on laptop links the two across the mesh: alice's
// finished turn is typed into bob as "alice@laptop (1):", bob's answer into alice as
// "bob@buildbox (1):"; both sides show the link with one count of the turns; unlinking
// on buildbox ends it on laptop too, and alice's next turn stays home.
func TestLinkAcrossSessions(t *testing.T) {
	th := startHub(t)
	laptop, buildbox := linkedPair(t, th)
	c := laptop.control()

	laptop.proc("alice").Print("\r\nthe plan: split the parser\r\nalice> ")
	buildbox.waitTyped("bob", "alice@laptop (1):", "the plan: split the parser")
	buildbox.waitIdle("bob")
	buildbox.proc("bob").Print("\r\nagreed, starting now\r\nbob> ")
	laptop.waitTyped("alice", "bob@buildbox (1):", "agreed, starting now")
	for _, m := range []*machine{laptop, buildbox} {
		m.waitFor("2 turns", func() bool { return strings.Contains(m.summary(), "/1000") && strings.Contains(m.summary(), " 2/1000") })
	}
	// Each side's history has the turns that crossed, once, under one id.
	lh, err := c.Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	bh, err := buildbox.control().Request(proto.TypeHistory, proto.History{})
	require.NoError(t, err)
	var turn string
	for _, m := range lh.Messages {
		if m.From == "alice" && m.To == "bob@buildbox" {
			turn = m.ID
		}
	}
	require.NotEmpty(t, turn, "laptop's history lacks alice's turn: %+v", lh.Messages)
	n := 0
	for _, m := range bh.Messages {
		if m.ID == turn {
			n++
			assert.Equal(t, "alice@laptop", m.From)
		}
	}
	assert.Equal(t, 1, n, "buildbox's history has alice's turn once")
	awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "delivery" && ev.ID == turn && ev.Phase == "confirmed" })
	got, err := laptop.st.Get(turn)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.NotZero(t, got[0].Confirmed, "the turn's phase is in laptop's store")
	// agentmux ls shows the link on both sides.
	ls, err := buildbox.control().Request(proto.TypeList, struct{}{})
	require.NoError(t, err)
	require.NotEmpty(t, ls.Members)
	assert.Equal(t, "1⇄alice@laptop", ls.Members[0].Group)

	_, err = buildbox.control().Request(proto.TypeUnlink, proto.Target{A: "carol@laptop"})
	assert.ErrorContains(t, err, "no pane of this session is linked with it")
	_, err = buildbox.control().Request(proto.TypeUnlink, proto.Target{A: "alice@laptop"}) // or bob
	require.NoError(t, err)
	laptop.waitFor("unlinked", func() bool { return laptop.summary() == "" })
	assert.True(t, laptop.logHas("1⇄bob@buildbox ended: bob@buildbox unlinked"), "laptop's relay log says why")
	laptop.waitIdle("alice")
	laptop.proc("alice").Print("\r\nanother turn, for nobody\r\nalice> ")
	laptop.waitIdle("alice")
	laptop.s.Sync()
	// One more crossing message, sent after the turn, arrives first if the turn crossed.
	_, err = c.Send("ops", "bob@buildbox", "marker")
	require.NoError(t, err)
	sent := buildbox.waitTyped("bob", "marker")
	assert.NotContains(t, sent, "for nobody", "a turn after the unlink crossed")
}

// A link the other side cannot take (no such member there) ends on this side too,
// saying why.
func TestLinkRefusedEndsHere(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	newMachine(t, th, "buildbox", "bob")
	_, err := laptop.control().Request(proto.TypeLink, proto.Target{A: "bob@buildbox", B: "alice"})
	require.NoError(t, err, "either order")
	_, err = laptop.control().Request(proto.TypeLink, proto.Target{A: "alice", B: "nobody@buildbox"})
	require.NoError(t, err)
	laptop.waitFor("the refusal", func() bool {
		return laptop.logHas("link of alice with nobody@buildbox not made: refused: no such member")
	})
	assert.Equal(t, "", laptop.summary())
}

// The delivery phases of a message that crossed come back to its sender: its events
// under the message's id (send --wait follows them), a notice for a client that asked
// for one (--notify-on-delivery), the notice typed into a pane that sent one, and the
// final phase in the sender's relay log.
func TestNotifyOnDeliveryAcross(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	buildbox := newMachine(t, th, "buildbox", "bob")
	buildbox.waitIdle("bob")
	c := laptop.control()
	id, err := c.SendMeta("ops", "bob@buildbox", "ship it when green", &proto.SendMeta{XNotifyOnDelivery: true, XNotifyAfterMs: 50})
	require.NoError(t, err)
	buildbox.waitTyped("bob", "ops@laptop:", "ship it when green")
	got := awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "delivery" && ev.Phase == "confirmed" })
	assert.Equal(t, id, got.ID, "send --wait's event: the message's id")
	mail := awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "mail" })
	assert.Equal(t, id, mail.ID)
	assert.Equal(t, "ops", mail.Member)
	assert.Equal(t, `[agentmux] delivered to bob@buildbox: "ship it when green"`, mail.Text)
	later := awaitEvent(t, c, func(ev proto.Event) bool { return ev.Kind == "mail" })
	assert.Equal(t, id, later.ID)
	assert.Equal(t, `[agentmux] reminder: your message to bob@buildbox "ship it when green" was delivered 50ms ago`, later.Text)
	laptop.waitFor("the phase in the log", func() bool {
		return laptop.logHas("ops → bob@buildbox (other session)", "confirmed")
	})

	// A pane's message (as the hub hands one from a process that proved it is alice).
	laptop.waitIdle("alice")
	core := laptop.node.Wrap(laptop.s)
	err = core.Send("alice", "bob@buildbox", "second thing", proto.SendOptions{ID: proto.NewID(time.Now()), NotifyOnDelivery: true})
	require.NoError(t, err)
	buildbox.waitTyped("bob", "alice@laptop (1):", "second thing")
	laptop.waitTyped("alice", `[agentmux] delivered to bob@buildbox: "second thing"`)
	assert.True(t, laptop.logHas("alice → bob@buildbox (other session)", "confirmed"))
}

// A pane renamed on either side keeps its link: the other side's link names it anew
// (status line, relay log), and turns keep crossing both ways under the new names.
func TestLinkFollowsRename(t *testing.T) {
	th := startHub(t)
	laptop, buildbox := linkedPair(t, th)

	require.NoError(t, laptop.s.Rename(1, "carol"))
	buildbox.waitFor("the link renamed", func() bool { return strings.Contains(buildbox.summary(), "1⇄carol@laptop 0/1000") })
	assert.True(t, buildbox.logHas("alice@laptop renamed carol@laptop"), "buildbox's relay log says so")
	laptop.proc("alice").Print("\r\nthe plan, from carol\r\ncarol> ")
	buildbox.waitTyped("bob", "carol@laptop (1):", "the plan, from carol")
	buildbox.waitIdle("bob")
	buildbox.proc("bob").Print("\r\nthanks carol\r\nbob> ")
	laptop.waitTyped("alice", "bob@buildbox (1):", "thanks carol")

	require.NoError(t, buildbox.s.Rename(1, "dave"))
	laptop.waitFor("the link renamed", func() bool { return strings.Contains(laptop.summary(), "1⇄dave@buildbox 2/1000") })
	laptop.waitIdle("carol")
	laptop.proc("alice").Print("\r\nhello dave\r\ncarol> ")
	buildbox.waitTyped("bob", "carol@laptop (1):", "hello dave")
	assert.Contains(t, buildbox.summary(), "1⇄carol@laptop 3/1000", "still linked, one count")
}

// The mesh core lists the mesh it joined over its own connection (agentmux ls --mesh
// asks the session for it): every session, live, with its members.
func TestListMeshThroughTheSession(t *testing.T) {
	th := startHub(t)
	laptop := newMachine(t, th, "laptop", "alice")
	newMachine(t, th, "buildbox", "bob", "carol")
	got, err := laptop.node.Wrap(laptop.s).ListMesh(context.Background())
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "buildbox", got[0].Name)
	assert.True(t, got[0].Live)
	var names []string
	for _, m := range got[0].Members {
		names = append(names, m.Name)
	}
	assert.Equal(t, []string{"bob", "carol"}, names)
	assert.Equal(t, "laptop", got[1].Name)
	assert.True(t, got[1].Live, "its own session answers too")
}
