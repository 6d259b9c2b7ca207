package session

// Strategy: the fake-process rig. What a restored session needs from a member (the
// command and environment as given, not as the hooks extended them) and a group linked
// again with its spent turns.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
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
