package store

// Strategy: records written, the store closed and opened again (a restart, or a killed
// server: each record is committed as it is added), and the sums by every key checked
// exactly, with a record of an unpriced model kept apart from the cost.

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpendSurvivesReopenAndSumsByKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s := open(t, path)
	day1 := time.Date(2026, 1, 1, 23, 0, 0, 0, time.UTC).UnixMilli()
	day2 := time.Date(2026, 1, 2, 1, 0, 0, 0, time.UTC).UnixMilli()
	usd := func(v float64) *float64 { return &v }
	for _, sp := range []Spend{
		{Session: "w", Pane: "alice", Model: "claude-sonnet-4-5", AtMs: day1, Requests: 1, Input: 100, Output: 10, CacheRead: 1000, CostUSD: usd(0.5)},
		{Session: "w", Pane: "bob", Link: "1⇄2", Model: "gpt-5", AtMs: day2, Requests: 2, Input: 50, Output: 5, CacheWrite: 7, CostUSD: usd(0.25)},
		{Session: "w", Pane: "alice", Link: "1⇄2", Model: "mock", AtMs: day2, Requests: 1, Input: 1, Output: 1},
		{Session: "x", Pane: "alice", Model: "gpt-5", AtMs: day2, Requests: 1, Input: 9, CostUSD: usd(1)},
	} {
		require.NoError(t, s.AddSpend(sp))
	}
	require.NoError(t, s.Close())
	s = open(t, path)

	pane, err := s.SpendBy("w", "pane", 0)
	require.NoError(t, err)
	assert.Equal(t, []SpendTotal{
		{Key: "alice", Requests: 2, Input: 101, Output: 11, CacheRead: 1000, CostUSD: 0.5, Priced: 1, Unpriced: 1},
		{Key: "bob", Requests: 2, Input: 50, Output: 5, CacheWrite: 7, CostUSD: 0.25, Priced: 1},
	}, pane)
	link, err := s.SpendBy("w", "link", 0)
	require.NoError(t, err)
	require.Len(t, link, 2)
	assert.Equal(t, "", link[0].Key)
	assert.Equal(t, "1⇄2", link[1].Key)
	assert.Equal(t, int64(3), link[1].Requests)
	day, err := s.SpendBy("", "day", 0)
	require.NoError(t, err)
	require.Len(t, day, 2)
	assert.Equal(t, "2026-01-01", day[0].Key)
	assert.Equal(t, 1.25, day[1].CostUSD)
	since, err := s.SpendBy("", "pane", day2)
	require.NoError(t, err)
	assert.Equal(t, []string{"w/alice", "w/bob", "x/alice"}, []string{since[0].Key, since[1].Key, since[2].Key})
	assert.Equal(t, int64(1), since[0].Input)
	_, err = s.SpendBy("w", "week", 0)
	assert.ErrorContains(t, err, "pane, link, session, day, model")
}
