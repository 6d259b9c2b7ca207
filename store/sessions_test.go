package store

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionsSummary(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "agentmux.db"))
	require.NoError(t, err)
	defer s.Close()
	got, err := s.Sessions()
	require.NoError(t, err)
	assert.Empty(t, got)
	require.NoError(t, s.Insert(
		Message{ID: "m1", Session: "old", From: "a", To: "b", Kind: "message", Body: "x", Queued: 100},
		Message{ID: "m2", Session: "new", From: "a", To: "b", Kind: "message", Body: "y", Queued: 300},
		Message{ID: "m3", Session: "old", From: "a", To: "c", Kind: "message", Body: "z", Queued: 200},
	))
	got, err = s.Sessions()
	require.NoError(t, err)
	assert.Equal(t, []SessionSummary{{Name: "old", Messages: 2, Last: 200}, {Name: "new", Messages: 1, Last: 300}}, got)
}

// A message whose timeout passed is expired, a phase of its own: history says so, and
// it is never sent again.
func TestExpiredIsAPhase(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "agentmux.db"))
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Insert(Message{ID: "m1", Session: "s", From: "a", To: "b", Kind: "message", Body: "x", Queued: 100}))
	changed, err := s.Mark("m1", "b", Expired, 200)
	require.NoError(t, err)
	assert.True(t, changed)
	got, err := s.Get("m1")
	require.NoError(t, err)
	assert.Equal(t, int64(200), got[0].Expired)
	assert.Zero(t, got[0].Dropped)
	p, err := s.Pending("s", "b", Confirmed)
	require.NoError(t, err)
	assert.Empty(t, p, "an expired message is not sent again")
}
