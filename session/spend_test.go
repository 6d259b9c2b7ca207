package session

// Strategy: a rig of fake panes; a Claude Code transcript written as the CLI writes
// it, reported through Usage as a hook reports it. The pane's total (Member.Spend),
// the Spent events and the relay's link attribution are checked against the exact
// tokens written: a half-written line is counted once it is whole, never twice; a
// model the price table lacks shows tokens and no cost.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentmux/agentmux/usage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const spendLine1 = `{"type":"assistant","requestId":"r1","message":{"id":"m1","model":"claude-sonnet-4-5","usage":{"input_tokens":1000,"output_tokens":200,"cache_read_input_tokens":5000,"cache_creation_input_tokens":100}}}` + "\n"
const spendLine2 = `{"type":"assistant","requestId":"r2","message":{"id":"m2","model":"mock-model","usage":{"input_tokens":10,"output_tokens":9}}}` + "\n"

func TestUsageCountsEachRequestOnceAndPricesIt(t *testing.T) {
	r := newRig(t, Options{Spend: SpendOptions{Prices: usage.Prices{"claude-sonnet-4-5": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}}}}, "alice", "bob")
	path := filepath.Join(t.TempDir(), "t.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(spendLine1+spendLine2[:30]), 0o600))

	require.NoError(t, r.s.Usage("alice", "claude", path))
	ev := r.await(func(ev Event) bool { _, ok := ev.(Spent); return ok }).(Spent)
	want := usage.Tokens{Input: 1000, Output: 200, CacheRead: 5000, CacheWrite: 100}
	assert.Equal(t, want, ev.Spend.Tokens)
	assert.Equal(t, "claude-sonnet-4-5", ev.Model)
	assert.Equal(t, "", ev.Link, "not linked: the pane's own")
	usd := (1000*3 + 200*15 + 5000*0.3 + 100*3.75) / 1e6
	assert.InDelta(t, usd, ev.Spend.USD, 1e-12)

	// The rest of the half-written line, and the first written again: only r2 counts.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(spendLine2[30:] + spendLine1)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.NoError(t, r.s.Usage("1", "claude", path))
	// r2 is counted by this call or, first, by the watch the first call left on the file
	// (its write is seen): either way once, in a Spent event of its own.
	r.await(func(ev Event) bool { sp, ok := ev.(Spent); return ok && sp.Model == "mock-model" })
	m, ok := r.s.Member(1)
	require.True(t, ok)
	assert.Equal(t, want.Add(usage.Tokens{Input: 10, Output: 9}), m.Spend.Tokens)
	assert.InDelta(t, usd, m.Spend.USD, 1e-12)
	assert.True(t, m.Spend.Priced && m.Spend.Unpriced, "mock-model has no price")
	assert.Equal(t, "$0.0079+?", m.Spend.Short())

	// Nothing new: nothing more; a CLI not known or no file: nothing at all.
	require.NoError(t, r.s.Usage("alice", "claude", path))
	require.NoError(t, r.s.Usage("alice", "opencode", path))
	require.NoError(t, r.s.Usage("alice", "claude", ""))
	require.NoError(t, r.s.Usage("alice", "claude", filepath.Join(t.TempDir(), "missing")))
	r.s.Sync()
	m2, _ := r.s.Member(1)
	assert.Equal(t, m.Spend, m2.Spend)
	assert.ErrorIs(t, r.s.Usage("carol", "claude", path), ErrNoPane)
	b, _ := r.s.Member(2)
	assert.Equal(t, Spend{}, b.Spend)
	assert.Equal(t, "", b.Spend.Short())
}

// A restored session's totals: the pane's shows on its border, and the pane's and the
// session's caps count from them (here the pane's is reached by the seed alone).
func TestSeedSpendAddsTheStoredTotal(t *testing.T) {
	r := newRig(t, Options{Spend: SpendOptions{PaneBudget: usage.Budget{Tokens: 100_000}}}, "alice")
	require.NoError(t, r.s.SeedSpend("alice", Spend{Tokens: usage.Tokens{Output: 120_000}}))
	require.NoError(t, r.s.SeedSpend("", Spend{Tokens: usage.Tokens{Input: 5_000}})) // a pane closed before
	m, _ := r.s.Member(1)
	assert.Equal(t, "120k tok", m.Spend.Short())
	assert.ErrorIs(t, r.s.SeedSpend("nobody", Spend{}), ErrNoPane)
	entries, _ := r.s.Log()
	found := false
	for _, e := range entries {
		found = found || strings.Contains(e.Note, "pane spend cap reached (120k tokens, $0.00 of 100k): deliveries into 1 alice are held")
	}
	assert.True(t, found, "no pane cap notice in %+v", entries)
}

// A link's budgets set on a standing link (agentmux link --budget, prefix l $): the
// status shows them; an unlinked pane is refused.
func TestSetLinkBudget(t *testing.T) {
	r := newRig(t, Options{Turns: 8}, "alice", "bob", "carol")
	require.NoError(t, r.s.Link(1, 2))
	require.NoError(t, r.s.SetLinkBudget(2, 12, "$2"))
	st := r.s.Status()
	require.Len(t, st.Groups, 1)
	assert.Equal(t, "1⇄2 0/12 $0.00/$2", st.Groups[0].String())
	assert.ErrorIs(t, r.s.SetLinkBudget(3, 0, "5k"), ErrNotLinked)
	assert.ErrorIs(t, r.s.SetLinkBudget(9, 0, "5k"), ErrNoPane)
	assert.Error(t, r.s.SetLinkBudget(1, -1, ""))
	assert.ErrorIs(t, r.s.SetLinkBudget(1, 0, "2$"), usage.ErrBudget)
	assert.Equal(t, "1⇄2 0/12 $0.00/$2", r.s.Status().Groups[0].String(), "a bad budget changes nothing")
	// Neither of them reports usage (no hooks): the person is told the spend budget
	// is never reached.
	entries, _ := r.s.Log()
	var notes []string
	for _, e := range entries {
		notes = append(notes, e.Note)
	}
	assert.Contains(t, notes, "the spend budget of the link of 1 alice and 2 bob is never reached: none of them reports usage agentmux can read (agent CLIs with their hooks do); its turns bound it")
	before := len(notes)
	require.NoError(t, r.s.SetLinkBudget(2, 10, ""))
	entries, _ = r.s.Log()
	for _, e := range entries[before:] {
		assert.NotContains(t, e.Note, "never reached", "a turn budget alone says nothing of spend")
	}
}

// A CLI that writes its last answer's usage just after its hook ran (Claude Code
// flushes its transcript on its own schedule): the write is read as it happens, with no
// further report, and counted once.
func TestUsageWrittenAfterTheHookIsRead(t *testing.T) {
	if !watchable() {
		t.Skip("no file notifications here")
	}
	r := newRig(t, Options{}, "alice")
	path := filepath.Join(t.TempDir(), "t.jsonl")
	require.NoError(t, os.WriteFile(path, nil, 0o600))
	require.NoError(t, r.s.Usage("alice", "claude", path)) // nothing yet
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(spendLine1)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	ev := r.await(func(ev Event) bool { _, ok := ev.(Spent); return ok }).(Spent)
	assert.Equal(t, usage.Tokens{Input: 1000, Output: 200, CacheRead: 5000, CacheWrite: 100}, ev.Spend.Tokens)
	require.NoError(t, r.s.Usage("alice", "claude", path)) // the hook's next report: nothing new
	r.s.Sync()
	m, _ := r.s.Member(1)
	assert.Equal(t, ev.Spend.Tokens, m.Spend.Tokens)
}

// A link made with its own turn budget says that budget as it is made (not the
// session's, then the new one); given again on the standing link, it replaces it.
func TestLinkWithBudgetSaysItsTurns(t *testing.T) {
	r := newRig(t, Options{Turns: 4}, "alice", "bob")
	require.NoError(t, r.s.LinkWithBudget(1, 2, false, 2, ""))
	notes := func() []string {
		entries, _ := r.s.Log()
		var out []string
		for _, e := range entries {
			out = append(out, e.Note)
		}
		return out
	}
	assert.Contains(t, notes(), "linked 1⇄2 (0/2 turns)")
	assert.NotContains(t, notes(), "linked 1⇄2 (0/4 turns)")
	require.NoError(t, r.s.LinkWithBudget(1, 2, false, 6, ""))
	assert.Equal(t, "1⇄2 0/6", r.s.Status().Groups[0].String())
	assert.Contains(t, notes(), "budget of 1⇄2: 0/6 turns")
}

// A program that names many files before its CLI's turn ends cannot keep the CLI's own
// file from being read: past maxUsageFiles the reader named longest ago goes, and the
// file read and named again keeps its reader (nothing counted twice).
func TestManyFilesNamedHideNoSpend(t *testing.T) {
	dir := t.TempDir()
	m := newMeter(time.Time{})
	for i := range maxUsageFiles {
		empty := filepath.Join(dir, fmt.Sprintf("empty-%d", i))
		require.NoError(t, os.WriteFile(empty, nil, 0o600))
		got, err := m.read(usage.Pi, empty)
		require.NoError(t, err)
		require.Empty(t, got)
	}
	real := filepath.Join(dir, "t.jsonl")
	require.NoError(t, os.WriteFile(real, []byte(spendLine1), 0o600))
	got, err := m.read(usage.Claude, real)
	require.NoError(t, err)
	require.Len(t, got, 1, "the real file is read")
	assert.Equal(t, int64(1000), got[0].Tokens.Input)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "one-more"), nil, 0o600))
	_, err = m.read(usage.Pi, filepath.Join(dir, "one-more"))
	require.NoError(t, err)
	got, err = m.read(usage.Claude, real)
	require.NoError(t, err)
	assert.Empty(t, got, "named since: its reader stayed, nothing counted again")
}
