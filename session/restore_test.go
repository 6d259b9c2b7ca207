package session

// Strategy: the fake-process rig. What a restored session needs from a member (the
// command and environment as given, not as the hooks extended them), a group linked
// again with its spent turns, and panes started with the numbers they had.

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/internal/fakeproc"
	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ptyhost"
	"github.com/agentmux/agentmux/usage"
)

func TestMemberKeepsTheGivenCommand(t *testing.T) {
	hooks := func(id int, spec PaneSpec, _ parser.Profile) (PaneSpec, bool) {
		spec.Argv = append(append([]string{}, spec.Argv...), "--settings", "/hooks/file")
		spec.Env = append(append([]string{}, spec.Env...), "HOOKS=1")
		return spec, true
	}
	r := newRig(t, Options{Hooks: hooks}, "claude")
	_, err := r.s.Add(PaneSpec{Name: "two", Argv: []string{"claude", "-p"}, Env: []string{"FOO=bar"}, Cols: 40, Rows: 10})
	require.NoError(t, err)
	m, ok := r.s.Member(2)
	require.True(t, ok)
	assert.Equal(t, []string{"claude", "-p"}, m.Command)
	assert.Equal(t, []string{"FOO=bar"}, m.Env)
	assert.Equal(t, []string{"claude", "-p", "--settings", "/hooks/file"}, m.Argv, "what runs")
}

func TestLinkRestoredKeepsSpentTurns(t *testing.T) {
	r := newRig(t, Options{Turns: 8}, "alice", "bob", "carol")
	require.NoError(t, r.s.LinkRestored(RestoredLink{Members: []int{1, 3}, Used: 5, Budget: 6}))
	st := r.s.Status()
	require.Len(t, st.Groups, 1)
	assert.Equal(t, []int{1, 3}, st.Groups[0].Members)
	assert.Equal(t, 5, st.Groups[0].Used)
	assert.Equal(t, 6, st.Groups[0].Budget)
	assert.ErrorIs(t, r.s.LinkRestored(RestoredLink{Members: []int{2, 9}, Budget: 8}), ErrTooFew)

	// Its spend budget comes back as it was: in tokens, with what it spent.
	require.NoError(t, r.s.LinkRestored(RestoredLink{Members: []int{1, 2}, Used: 1, Budget: 8,
		Limit: usage.Budget{Tokens: 5000}, Spent: SpendTotal{Tokens: usage.Tokens{Input: 1200}}}))
	st = r.s.Status()
	require.Len(t, st.Groups, 1, "pane 1 left 1⇄3, which ended")
	assert.Equal(t, "1⇄2 1/8 1.2k/5k tok", st.Groups[0].String())
}

// A restored session's panes keep the numbers they had, with the gaps of panes closed
// before; the next new pane takes the number after the highest. Numbers that do not
// rise are refused before anything starts.
func TestPanesStartWithTheirNumbers(t *testing.T) {
	o := Options{Clock: newFakeClock(), Start: func(spec ptyhost.Spec, out io.Writer) (Process, error) {
		return fakeproc.New(spec, out), nil
	}}
	o.Panes = []PaneSpec{
		{Name: "a", Number: 2, Argv: []string{"a"}, Cols: 40, Rows: 10},
		{Name: "b", Number: 5, Argv: []string{"b"}, Cols: 40, Rows: 10},
		{Name: "c", Argv: []string{"c"}, Cols: 40, Rows: 10},
	}
	s, err := Start(o)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Stop()) })
	var got []int
	for _, m := range s.Members() {
		got = append(got, m.Pane)
	}
	assert.Equal(t, []int{2, 5, 6}, got)
	id, err := s.Add(PaneSpec{Argv: []string{"d"}, Cols: 40, Rows: 10})
	require.NoError(t, err)
	assert.Equal(t, 7, id)

	o.Panes = []PaneSpec{{Name: "a", Number: 3, Argv: []string{"a"}}, {Name: "b", Number: 3, Argv: []string{"b"}}}
	_, err = Start(o)
	assert.ErrorContains(t, err, "numbered 3 after pane 3")
}

// A restored pane whose command resumes a conversation says so (Member.Resumes);
// Respawn starts that command again, RespawnFresh the program fresh, for good.
func TestRespawnFreshStartsANewConversation(t *testing.T) {
	o := Options{Clock: newFakeClock()}
	procs := make(chan *fakeProc, 8)
	o.Start = func(spec ptyhost.Spec, out io.Writer) (Process, error) {
		f := fakeproc.New(spec, out)
		procs <- f
		return f, nil
	}
	o.Panes = []PaneSpec{{Name: "c", Argv: []string{"claude", "--resume", "c1"}, Fresh: []string{"claude"}, Cols: 40, Rows: 10}}
	s, err := Start(o)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Stop()) })
	<-procs
	m, _ := s.Member(1)
	assert.True(t, m.Resumes)

	require.NoError(t, s.Respawn(1, true))
	assert.Equal(t, []string{"claude", "--resume", "c1"}, (<-procs).Spec.Argv, "y: the conversation again")
	require.NoError(t, s.RespawnFresh(1, true))
	assert.Equal(t, []string{"claude"}, (<-procs).Spec.Argv, "f: fresh")
	m, _ = s.Member(1)
	assert.False(t, m.Resumes)
	assert.Equal(t, []string{"claude"}, m.Command, "what a later restore starts")
	require.NoError(t, s.Respawn(1, true))
	assert.Equal(t, []string{"claude"}, (<-procs).Spec.Argv, "fresh for good")
}

// The terminals' layout is kept by the session: Options.View to start from, SetView
// to change it (a ViewChanged event, once per change).
func TestViewIsKeptAndAnnounced(t *testing.T) {
	r := newRig(t, Options{View: View{Layout: "rows", Order: []int{2, 1}}}, "a", "b")
	assert.Equal(t, View{Layout: "rows", Order: []int{2, 1}}, r.s.View())
	r.s.SetView(View{Layout: "tiled", Order: []int{1, 2}, Zoomed: 2})
	ev := r.await(func(ev Event) bool { _, ok := ev.(ViewChanged); return ok })
	assert.Equal(t, View{Layout: "tiled", Order: []int{1, 2}, Zoomed: 2}, ev.(ViewChanged).View)
	assert.Equal(t, 2, r.s.View().Zoomed)
	r.s.SetView(View{Layout: "tiled", Order: []int{1, 2}, Zoomed: 2}) // no change: no event
	r.s.Sync()
	for _, ev := range r.sub.Next() {
		_, again := ev.(ViewChanged)
		assert.False(t, again, "the same view announced twice")
	}
}

// A restored pane whose program could not start shows a note (NotStarted): messages
// and reminders for it are refused with proto.ErrNotStarted, which the hub keeps, until
// RespawnFresh starts its program.
func TestAPaneNotStartedRefusesMessagesUntilItsProgramRuns(t *testing.T) {
	installed := make(chan struct{})
	close(installed)
	s, procs := startNotStarted(t, installed)
	assert.ErrorIs(t, s.Send("you", "b", "hello", SendOptions{Person: true}), proto.ErrNotStarted)
	assert.ErrorIs(t, s.Send("a", "B", "hello", SendOptions{}), proto.ErrNotStarted, "by name in any case")
	assert.ErrorIs(t, s.Remind("you", "2", "later", time.Minute, SendOptions{Person: true}), proto.ErrNotStarted, "by number")
	require.NoError(t, s.Send("you", "a", "hello", SendOptions{Person: true}), "another pane takes messages")
	// The session keeps nothing: a caller that does not keep the message either (a
	// message from another session, marked failed) must not be told it is kept.
	assert.NotContains(t, s.Send("a", "b", "hello", SendOptions{}).Error(), "kept")

	require.NoError(t, s.RespawnFresh(2, true))
	assert.Equal(t, []string{"codex"}, (<-procs).Spec.Argv)
	assert.NoError(t, s.Send("you", "b", "hello", SendOptions{Person: true}), "its program runs")
}

// A respawn that cannot start the program either (prefix R then f before the CLI is
// installed again) leaves the pane as it was: still not started, its messages still
// refused with proto.ErrNotStarted (kept by the hub), and a later respawn, once the
// program is there, starts it fresh.
func TestAFailedRespawnLeavesThePaneNotStarted(t *testing.T) {
	installed := make(chan struct{})
	s, procs := startNotStarted(t, installed)
	require.Error(t, s.RespawnFresh(2, true), "codex is not installed yet")
	assert.ErrorIs(t, s.Send("a", "b", "hello", SendOptions{}), proto.ErrNotStarted, "still not started")

	close(installed)
	require.NoError(t, s.RespawnFresh(2, true))
	assert.Equal(t, []string{"codex"}, (<-procs).Spec.Argv, "started fresh once installed")
	assert.NoError(t, s.Send("a", "b", "hello", SendOptions{}), "its program runs")
}

// startNotStarted starts a session of pane a (claude) and pane b, a restored pane whose
// program (codex, its Fresh command) could not start: it runs a note, and codex starts
// only once installed is closed. It returns the session once both started, and their
// fake processes, and those started later, in order.
func startNotStarted(t *testing.T, installed <-chan struct{}) (*Session, chan *fakeProc) {
	o := Options{Clock: newFakeClock()}
	procs := make(chan *fakeProc, 8)
	o.Start = func(spec ptyhost.Spec, out io.Writer) (Process, error) {
		if spec.Argv[0] == "codex" {
			select {
			case <-installed:
			default:
				return nil, &ptyhost.NotFoundError{Name: "codex", Err: errors.New("not installed")}
			}
		}
		f := fakeproc.New(spec, out)
		procs <- f
		return f, nil
	}
	o.Panes = []PaneSpec{
		{Name: "a", Argv: []string{"claude"}, Cols: 40, Rows: 10},
		{Name: "b", Argv: []string{"/bin/sh", "-c", "printf gone; exit 127"}, Fresh: []string{"codex"}, NotStarted: true, Cols: 40, Rows: 10},
	}
	s, err := Start(o)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Stop()) })
	<-procs
	<-procs
	return s, procs
}
