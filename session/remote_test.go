package session

// Strategy: the fake-pane rig (helpers_test.go) with an external member standing for a
// pane of another session, as the mesh registers one: the test checks what the
// member's sink hears of a linked pane's turn and of the link's end, and what a turn
// of the link from the other side types.

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/relay"
)

func TestLinkRemote(t *testing.T) {
	r := newRig(t, Options{Idle: time.Second, Turns: 6}, "alice", "sh")
	r.started(1, 2)
	got := make(chan Message, 4)
	_, err := r.s.RegisterMember("bob@buildbox", func(m Message) { got <- m })
	require.NoError(t, err)
	_, _, err = r.s.LinkRemote("alice", "carol@buildbox", "L0", 0, false)
	assert.Error(t, err, "no such member")
	_, _, err = r.s.LinkRemote("sh", "bob@buildbox", "L0", 0, false)
	assert.ErrorIs(t, err, ErrShell)
	name, turns, err := r.s.LinkRemote("1", "bob@buildbox", "L1", 0, false)
	require.NoError(t, err)
	assert.Equal(t, "alice", name)
	assert.Equal(t, 6, turns, "the session's --turns")
	assert.Equal(t, "1⇄bob@buildbox 0/6", r.s.Status().Summary)

	r.printed(1, "\r\nthe plan\r\n> ")
	r.advance(2 * time.Second)
	select {
	case m := <-got:
		assert.Equal(t, Message{From: "alice", FromPane: 1, To: "bob@buildbox", Text: "the plan", Kind: "message", Link: "L1", Spent: 1}, m)
	case <-time.After(5 * time.Second):
		t.Fatal("the turn did not reach the member")
	}
	// The other side's turn: typed, no turn spent here, its count taken.
	err = r.s.Send("bob@buildbox (1)", "alice", "agreed", SendOptions{Link: "L1", LinkSpent: 1})
	require.NoError(t, err)
	assert.Equal(t, "bob@buildbox (1):  agreed", r.procs[1].Sent())
	assert.Equal(t, "1⇄bob@buildbox 2/6", r.s.Status().Summary)

	require.NoError(t, r.s.Unlink(1))
	r.s.Sync()
	select {
	case m := <-got:
		assert.Equal(t, Message{From: "alice", To: "bob@buildbox", Text: "unlinked", Link: "L1", End: true}, m)
	case <-time.After(5 * time.Second):
		t.Fatal("the end did not reach the member")
	}
	err = r.s.Send("bob@buildbox (1)", "alice", "late", SendOptions{Link: "L1", LinkSpent: 2})
	assert.Error(t, err, "a turn of an ended link")
}

// A pane of a link with another session renamed: its member hears the new name (to
// tell the other side), a turn the other side sent to the old name still reaches the
// pane through the link, and a rename of the other side's member renames the link.
func TestLinkRemoteRename(t *testing.T) {
	r := newRig(t, Options{Idle: time.Second, Turns: 6}, "alice")
	r.started(1)
	got := make(chan Message, 4)
	_, err := r.s.RegisterMember("bob@buildbox", func(m Message) { got <- m })
	require.NoError(t, err)
	_, _, err = r.s.LinkRemote("alice", "bob@buildbox", "L1", 0, false)
	require.NoError(t, err)

	require.NoError(t, r.s.Rename(1, "carol"))
	r.s.Sync()
	select {
	case m := <-got:
		assert.Equal(t, Message{From: "carol", FromPane: 1, To: "bob@buildbox", Text: "alice", Link: "L1", Rename: true}, m)
	case <-time.After(5 * time.Second):
		t.Fatal("the rename did not reach the member")
	}
	_, err = r.s.RegisterMember("dave@buildbox", func(m Message) { got <- m })
	require.NoError(t, err)
	r.s.RenameRemote("L1", "dave@buildbox")
	r.s.Sync()
	assert.Equal(t, "1⇄dave@buildbox 0/6", r.s.Status().Summary)
	r.printed(1, "\r\nnext step\r\n> ")
	r.advance(2 * time.Second)
	select {
	case m := <-got:
		assert.Equal(t, "dave@buildbox", m.To, "the pane's turns go to the member's new name")
		assert.Equal(t, "carol", m.From)
	case <-time.After(5 * time.Second):
		t.Fatal("the turn did not reach the renamed member")
	}

	err = r.s.Send("dave@buildbox (1)", "alice", "sent before it heard", SendOptions{Link: "L1", LinkSpent: 1})
	require.NoError(t, err, "the link names its pane, whatever the turn calls it")
	assert.Equal(t, "dave@buildbox (1):  sent before it heard", r.procs[1].Sent())
	// A third session that learnt the tag has no link of its own by it.
	err = r.s.Send("eve@laptop (2)", "1", "a turn of a link not mine", SendOptions{Link: "L1", LinkSpent: 1})
	assert.ErrorIs(t, err, relay.ErrNotLinked)
	assert.Contains(t, err.Error(), "the link is with dave@buildbox")
	assert.Error(t, r.s.Send("ops", "alice", "not a turn", SendOptions{}), "the old name reaches the pane through its link only")
}

// Tell types a notice into a pane (no turn spent), Note logs one.
func TestTellAndNote(t *testing.T) {
	r := newRig(t, Options{Idle: time.Second}, "alice")
	r.started(1)
	r.s.Tell("alice", "[agentmux] delivered to bob@buildbox", 0, true)
	r.s.Note("alice", "alice → bob@buildbox (other session)  confirmed")
	r.s.Sync()
	assert.Equal(t, "[agentmux] delivered to bob@buildbox", r.procs[1].Sent())
	log, _ := r.s.Log()
	require.NotEmpty(t, log)
	assert.Equal(t, "alice → bob@buildbox (other session)  confirmed", log[len(log)-1].Note)
	assert.Equal(t, 1, log[len(log)-1].From)
}

// meshStandIn links across sessions as the mesh does: it registers the other side's
// member, then links this side through LinkRemote, a command on the session's loop.
type meshStandIn struct {
	s     *Session
	calls []string
}

func (m *meshStandIn) LinkAcross(a int, addr string, shell bool) error {
	m.calls = append(m.calls, fmt.Sprintf("%d %s %v", a, addr, shell))
	if _, err := m.s.RegisterMember(addr, func(Message) {}); err != nil {
		return err
	}
	_, _, err := m.s.LinkRemote(fmt.Sprint(a), addr, "T"+addr, 0, shell)
	return err
}

// LinkAcross reaches the mesh set with SetAcross, off the loop (the mesh's link is a
// command of its own), and says ErrNoMesh while none is set.
func TestLinkAcross(t *testing.T) {
	r := newRig(t, Options{Turns: 4}, "alice", "sh")
	r.started(1, 2)
	assert.False(t, r.s.Meshed())
	assert.ErrorIs(t, r.s.LinkAcross(1, "bob@buildbox", false), ErrNoMesh)

	m := &meshStandIn{s: r.s}
	r.s.SetAcross(m)
	assert.True(t, r.s.Meshed())
	require.NoError(t, r.s.LinkAcross(1, "bob@buildbox", false))
	assert.Equal(t, "1⇄bob@buildbox 0/4", r.s.Status().Summary)
	assert.ErrorIs(t, r.s.LinkAcross(2, "carol@buildbox", false), ErrShell)
	assert.Equal(t, []string{"1 bob@buildbox false", "2 carol@buildbox false"}, m.calls)

	r.s.SetAcross(nil)
	assert.False(t, r.s.Meshed())
}

// A link with another session's member made again (a restored session) keeps its tag
// and turns; one whose budget was spent, or with a member not registered, is refused.
func TestLinkRemoteRestored(t *testing.T) {
	r := newRig(t, Options{Turns: 8}, "alice")
	_, err := r.s.RegisterMember("bob@buildbox", func(Message) {})
	require.NoError(t, err)
	require.NoError(t, r.s.LinkRemoteRestored("1", "bob@buildbox", "T9", 2, 1, 6))
	st := r.s.Status()
	require.Len(t, st.Groups, 1)
	assert.Equal(t, "1⇄bob@buildbox 3/6", st.Groups[0].String())
	assert.Equal(t, "T9", st.Groups[0].Tag)
	assert.ErrorContains(t, r.s.LinkRemoteRestored("1", "bob@buildbox", "T9", 4, 2, 6), "budget was spent (6/6)")
	assert.ErrorContains(t, r.s.LinkRemoteRestored("1", "carol@buildbox", "T9", 0, 0, 6), "no such member")
	assert.ErrorIs(t, r.s.LinkRemoteRestored("7", "bob@buildbox", "T9", 0, 0, 6), ErrNoPane)
}
