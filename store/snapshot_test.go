// Tests of the snapshots and conversations tables against a real SQLite file: a
// session's snapshot starts, changes and stops; a start again clears the stop; a
// conversation is set, replaced, and the set is renumbered in one go; and both survive
// reopening the file.
package store

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSnapshotLifecycle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentmux.db")
	s := open(t, path)
	_, err := s.Snapshot("work")
	require.ErrorIs(t, err, ErrNoSnapshot)

	require.NoError(t, s.StartSnapshot("work", "/src", []byte(`{"v":1}`), 42, 100))
	require.NoError(t, s.SaveSnapshot("work", []byte(`{"v":2}`), 200))
	sn, err := s.Snapshot("work")
	require.NoError(t, err)
	assert.Equal(t, Snapshot{Session: "work", Folder: "/src", Spec: []byte(`{"v":2}`), PID: 42, Started: 100, Updated: 200, Offered: true}, sn)

	require.NoError(t, s.StopSnapshot("work", "kill-session", false, 300))
	require.NoError(t, s.Close())
	s = open(t, path)
	sn, err = s.Snapshot("work")
	require.NoError(t, err)
	assert.Equal(t, int64(300), sn.Stopped)
	assert.Equal(t, "kill-session", sn.Why)
	assert.False(t, sn.Offered)

	require.NoError(t, s.StartSnapshot("work", "/src", []byte(`{"v":3}`), 43, 400))
	require.NoError(t, s.StartSnapshot("other", "/o", []byte(`{}`), 44, 500))
	all, err := s.Snapshots()
	require.NoError(t, err)
	require.Len(t, all, 2)
	assert.Equal(t, "work", all[0].Session)
	assert.Zero(t, all[0].Stopped)
	assert.Empty(t, all[0].Why)
	assert.True(t, all[0].Offered)
	assert.Equal(t, "other", all[1].Session)
}

func TestConversations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentmux.db")
	s := open(t, path)
	require.NoError(t, s.SetConversation("work", 1, Conversation{CLI: "claude", ID: "a"}, 1))
	require.NoError(t, s.SetConversation("work", 1, Conversation{CLI: "claude", ID: "b"}, 2))
	require.NoError(t, s.SetConversation("work", 3, Conversation{CLI: "codex", ID: "c"}, 2))
	require.NoError(t, s.SetConversation("else", 1, Conversation{CLI: "qwen", ID: "d"}, 2))
	got, err := s.Conversations("work")
	require.NoError(t, err)
	assert.Equal(t, map[int]Conversation{1: {"claude", "b"}, 3: {"codex", "c"}}, got)

	require.NoError(t, s.ReplaceConversations("work", map[int]Conversation{1: {"claude", "b"}, 2: {"codex", "c"}}, 3))
	require.NoError(t, s.Close())
	s = open(t, path)
	got, err = s.Conversations("work")
	require.NoError(t, err)
	assert.Equal(t, map[int]Conversation{1: {"claude", "b"}, 2: {"codex", "c"}}, got)
	other, err := s.Conversations("else")
	require.NoError(t, err)
	assert.Equal(t, map[int]Conversation{1: {"qwen", "d"}}, other)
}
