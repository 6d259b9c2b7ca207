package main

// agentmux spend reads the store: sums by each key, a total row, costs with "+?" where
// part had no price and "$?" where none had, --json's fields, and --by refused with
// the keys it takes.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

func TestSpendCommand(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	path, err := statePath("agentmux.db")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	st, err := store.Open(path)
	require.NoError(t, err)
	now := time.Now().UnixMilli()
	usd := 0.42
	for _, sp := range []store.Spend{
		{Session: "w", Pane: "alice", Link: "1⇄2", Model: "claude-sonnet-4-5", AtMs: now, Requests: 2, Input: 1000, Output: 500, CacheRead: 100_000, CostUSD: &usd},
		{Session: "w", Pane: "alice", Model: "mock", AtMs: now, Requests: 1, Input: 10, Output: 9},
		{Session: "w", Pane: "bob", Model: "mock", AtMs: now, Requests: 1, Input: 10, Output: 9},
	} {
		require.NoError(t, st.AddSpend(sp))
	}
	require.NoError(t, st.Close())

	code, out, err := runCmd(t, "", "spend", "--session", "w")
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Regexp(t, `(?m)^\s*PANE\s+REQUESTS\s+INPUT\s+OUTPUT\s+CACHE READ\s+CACHE WRITE\s+TOKENS\s+COST\s*$`, out)
	assert.Regexp(t, `(?m)^\s*alice\s+3\s+1k\s+509\s+100k\s+0\s+101k\s+\$0\.42\+\?\s*$`, out)
	assert.Regexp(t, `(?m)^\s*bob\s+1\s+10\s+9\s+0\s+0\s+19\s+\$\?\s*$`, out)
	assert.Regexp(t, `(?m)^\s*total\s+4\s+.*\$0\.42\+\?\s*$`, out)

	_, out, err = runCmd(t, "", "spend", "--by", "link", "--json")
	require.NoError(t, err)
	var rows []spendRow
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 2)
	assert.Equal(t, "", rows[0].Key)
	assert.Nil(t, rows[0].CostUSD)
	assert.Equal(t, "w/1⇄2", rows[1].Key)
	assert.Equal(t, int64(100_000), rows[1].Tokens.CacheRead)
	require.NotNil(t, rows[1].CostUSD)
	assert.Equal(t, 0.42, *rows[1].CostUSD)

	code, _, err = runCmd(t, "", "spend", "--by", "week")
	assert.Equal(t, 2, code)
	assert.ErrorContains(t, err, "pane, link, session, day, model")
}

// ls's COST cell marks a cost the pane's CLI computed itself (opencode, pi), and says
// "?" for a pane whose usage cannot be read.
func TestMemberSpendCells(t *testing.T) {
	usd := 0.0125
	own := proto.Member{Number: 1, Tokens: &proto.Tokens{Input: 120, Output: 37}, CostUSD: &usd, CostOwn: true, Metered: true}
	if got := memberSpend(own); got != "157\t$0.01 (cli)" {
		t.Errorf("own cost: %q", got)
	}
	own.CostOwn = false
	if got := memberSpend(own); got != "157\t$0.01" {
		t.Errorf("table's cost: %q", got)
	}
	if got := memberSpend(proto.Member{Number: 2}); got != "?\t?" {
		t.Errorf("not metered: %q", got)
	}
}
