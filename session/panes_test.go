package session

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/proto"
)

func TestAddTakesTheNextNumberAndAFreeName(t *testing.T) {
	r := newRig(t, Options{}, "a", "b")
	require.NoError(t, r.s.Close(2))
	id, err := r.s.Add(PaneSpec{Argv: []string{"/bin/a"}, Cols: 30, Rows: 8, Dir: "/srv"})
	require.NoError(t, err)
	assert.Equal(t, 3, id, "numbers are never reused, a closed one's neither")
	r.await(func(ev Event) bool {
		m, ok := ev.(MemberChanged)
		return ok && m.Member.Pane == 3 && m.Member.Name == "a-2"
	})
	assert.Equal(t, "/srv", r.procs[3].Spec.Dir)
	require.NotNil(t, r.s.Screen(3))

	r.procs[3].Print("hello")
	r.await(func(ev Event) bool { o, ok := ev.(Output); return ok && o.Pane == 3 })
	r.s.Key(3, keys.Key{Code: keys.KeyRune, Rune: 'x'})
	r.s.Sync()
	assert.Equal(t, "x", r.procs[3].Sent(), "keys reach the new pane")

	_, err = r.s.Add(PaneSpec{Name: "A", Argv: []string{"x"}})
	assert.ErrorIs(t, err, ErrNameTaken)
	for _, bad := range []string{"7", "you", "agentmux", "-x", "a b"} {
		_, err = r.s.Add(PaneSpec{Name: bad, Argv: []string{"x"}})
		assert.ErrorIs(t, err, ErrBadName, bad)
	}
	id, err = r.s.Add(PaneSpec{Name: "rev", Argv: []string{"x"}})
	require.NoError(t, err)
	assert.Equal(t, 4, id, "a refused add uses no number")
}

func TestRespawnRestartsTheSameCommandAndLinks(t *testing.T) {
	r := newRig(t, Options{}, "a", "b")
	require.NoError(t, r.s.Link(1, 2))
	first := r.procs[1]
	first.Print("old output")
	first.Exit(1)
	r.await(func(ev Event) bool { _, ok := ev.(Exit); return ok })
	m, _ := r.s.Member(1)
	require.Zero(t, m.Group, "an exited pane leaves its group")

	require.NoError(t, r.s.Respawn(1, false))
	assert.NotSame(t, first, r.procs[1], "a new process")
	assert.Equal(t, []string{"a"}, r.procs[1].Spec.Argv)
	assert.Equal(t, "a", r.procs[1].Spec.Name)
	m, _ = r.s.Member(1)
	assert.NotEqual(t, Exited, m.State)
	assert.NotZero(t, m.Group, "linked again")
	m2, _ := r.s.Member(2)
	assert.Equal(t, m2.Group, m.Group)
	text, err := r.s.Capture(1, 100, false)
	require.NoError(t, err)
	assert.Contains(t, text, "old output", "the history stays")

	r.procs[1].Print("new")
	r.await(func(ev Event) bool { o, ok := ev.(Output); return ok && o.Pane == 1 })
	r.s.Key(1, keys.Key{Code: keys.KeyRune, Rune: 'y'})
	r.s.Sync()
	assert.Equal(t, "y", r.procs[1].Sent())
}

func TestRespawnOfARunningPaneNeedsKill(t *testing.T) {
	r := newRig(t, Options{}, "a", "b")
	require.NoError(t, r.s.Link(1, 2))
	assert.ErrorIs(t, r.s.Respawn(1, false), ErrRunning)
	first := r.procs[1]
	require.NoError(t, r.s.Respawn(1, true))
	second := r.procs[1]
	assert.NotSame(t, first, second)
	deadline := time.Now().Add(10 * time.Second)
	for !first.IsClosed() {
		require.True(t, time.Now().Before(deadline), "the old program was not ended")
		r.s.Sync()
	}
	r.s.Sync() // the old program's exit has been handled: it must not end the new one
	m, _ := r.s.Member(1)
	assert.NotEqual(t, Exited, m.State)
	assert.NotZero(t, m.Group)
	assert.ErrorIs(t, r.s.Respawn(9, true), ErrNoPane)
}

func TestRenameFollowsInMembersAndAddressing(t *testing.T) {
	r := newRig(t, Options{Idle: time.Second}, "a", "b")
	r.started(1, 2)
	require.NoError(t, r.s.Rename(2, "reviewer"))
	ev := r.await(func(ev Event) bool { _, ok := ev.(Renamed); return ok })
	assert.Equal(t, Renamed{Pane: 2, From: "b", To: "reviewer"}, ev)
	assert.Equal(t, []proto.Event{{Kind: proto.EventRenamed, Member: "reviewer", From: "b"}}, wireEvent(ev),
		"the socket hears of it: what waits for b follows it (the store)")
	assert.Equal(t, "reviewer", r.s.Members()[1].Name)
	err := r.s.Send("ops", "reviewer", "look", SendOptions{})
	require.NoError(t, err)
	assert.Equal(t, "ops:  look", r.procs[2].Sent())
	err = r.s.Send("ops", "b", "x", SendOptions{})
	assert.Error(t, err, "the old name no longer addresses it")
	assert.ErrorIs(t, r.s.Rename(1, "REVIEWER"), ErrNameTaken)
	assert.ErrorIs(t, r.s.Rename(1, "3"), ErrBadName)
	assert.ErrorIs(t, r.s.Rename(1, "You"), ErrBadName)
	assert.ErrorIs(t, r.s.Rename(5, "z"), ErrNoPane)
	require.NoError(t, r.s.Rename(2, "Reviewer"), "its own name in another case")
	entries, _ := r.s.Log()
	var notes []string
	for _, e := range entries {
		notes = append(notes, e.Note)
	}
	assert.Contains(t, strings.Join(notes, "\n"), "2 b renamed reviewer")
}

func TestTypeTextIsTypedExactly(t *testing.T) {
	r := newRig(t, Options{}, "sh")
	require.NoError(t, r.s.TypeText(1, "ls -l\x1b[A", true))
	assert.Equal(t, "ls -l\x1b[A\r", r.procs[1].Sent(), "no header, no framing, then Enter")
	require.NoError(t, r.s.TypeText(1, "echo", false))
	assert.Equal(t, "echo", r.procs[1].Sent())
	assert.ErrorIs(t, r.s.TypeText(2, "x", false), ErrNoPane)
	r.procs[1].Exit(0)
	r.await(func(ev Event) bool { _, ok := ev.(Exit); return ok })
	assert.ErrorIs(t, r.s.TypeText(1, "x", false), ErrExited)
}

func TestSetShareIsKeptAndClamped(t *testing.T) {
	r := newRig(t, Options{}, "a", "b")
	got, err := r.s.SetShare(1, 300, 0)
	require.NoError(t, err)
	assert.Equal(t, [2]int{300, 100}, got)
	got, err = r.s.SetShare(1, 0, 9000)
	require.NoError(t, err)
	assert.Equal(t, [2]int{300, MaxShare}, got, "width kept, height clamped")
	r.await(func(ev Event) bool { m, ok := ev.(MemberChanged); return ok && m.Member.Share == [2]int{300, MaxShare} })
	_, err = r.s.SetShare(7, 100, 100)
	assert.ErrorIs(t, err, ErrNoPane)
}

// Options.Closed gets a closed pane's spec back once its process ended, and every
// pane's at Stop: where a pane's own worktree is taken back.
func TestClosedHandsTheSpecBack(t *testing.T) {
	gone := make(chan PaneSpec, 4)
	r := newRig(t, Options{Closed: func(p PaneSpec) string { gone <- p; return "kept: " + p.Name }}, "a", "b")
	require.NoError(t, r.s.Close(2))
	select {
	case p := <-gone:
		assert.Equal(t, "b", p.Name)
		assert.True(t, r.procs[2].IsClosed(), "after its process ended")
		ev := r.await(func(ev Event) bool { c, ok := ev.(Closed); return ok && c.Done })
		assert.Equal(t, "kept: b", ev.(Closed).Note, "the note reaches the subscribers")
	case <-time.After(10 * time.Second):
		t.Fatal("no Closed for pane 2")
	}
	require.NoError(t, r.s.Stop())
	select {
	case p := <-gone:
		assert.Equal(t, "a", p.Name)
	default:
		t.Fatal("no Closed for pane 1 at Stop")
	}
}
