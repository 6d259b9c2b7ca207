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

// A pane renamed: what waits for it follows (Readdress), what ended keeps the name it
// was sent to, and a message that already has a row for the new name (sent to both
// before, its copy there ended) does not stop the others from following.
func TestReaddressMovesWhatWaits(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "agentmux.db"))
	require.NoError(t, err)
	defer s.Close()
	for _, m := range []Message{
		{ID: "b1", Session: "x", From: "ops", To: "alice", Kind: "message", Body: "to both", Queued: 1},
		{ID: "b1", Session: "x", From: "ops", To: "carol", Kind: "message", Body: "to both", Queued: 1},
		{ID: "m2", Session: "x", From: "ops", To: "alice", Kind: "message", Body: "waits", Queued: 2},
		{ID: "m3", Session: "x", From: "ops", To: "alice", Kind: "message", Body: "done", Queued: 3},
	} {
		require.NoError(t, s.Insert(m))
	}
	_, err = s.Mark("b1", "carol", Dropped, 5)
	require.NoError(t, err)
	_, err = s.Mark("m3", "alice", Confirmed, 5)
	require.NoError(t, err)
	require.NoError(t, s.Readdress("x", "alice", "carol"))
	p, err := s.Pending("x", "carol", Confirmed)
	require.NoError(t, err)
	require.Len(t, p, 1)
	assert.Equal(t, "m2", p[0].ID)
	done, err := s.Get("m3")
	require.NoError(t, err)
	assert.Equal(t, "alice", done[0].To, "history keeps the name it was sent to")
}

// A pane renamed: what it sent that still waits is from its new name, on every row of
// the message; what it sent that ended keeps the name it was sent from.
func TestReaddressGivesWhatThePaneSentItsNewName(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "agentmux.db"))
	require.NoError(t, err)
	defer s.Close()
	for _, m := range []Message{
		{ID: "w1", Session: "x", From: "alice", To: "bob", Kind: "message", Body: "waits", Queued: 1},
		{ID: "w1", Session: "x", From: "alice", To: "carol", Kind: "message", Body: "waits", Queued: 1},
		{ID: "d2", Session: "x", From: "alice", To: "bob", Kind: "message", Body: "done", Queued: 2},
		{ID: "o3", Session: "y", From: "alice", To: "bob", Kind: "message", Body: "another session's", Queued: 3},
	} {
		require.NoError(t, s.Insert(m))
	}
	_, err = s.Mark("w1", "carol", Confirmed, 5)
	require.NoError(t, err)
	_, err = s.Mark("d2", "bob", Confirmed, 5)
	require.NoError(t, err)
	require.NoError(t, s.Readdress("x", "alice", "alpha"))
	p, err := s.Pending("x", "bob", Confirmed)
	require.NoError(t, err)
	require.Len(t, p, 1)
	assert.Equal(t, "alpha", p[0].From)
	for id, want := range map[string]string{"w1": "alpha", "d2": "alice", "o3": "alice"} {
		rows, err := s.Get(id)
		require.NoError(t, err)
		for _, r := range rows {
			assert.Equal(t, want, r.From, "%s to %s", id, r.To)
		}
	}
}
