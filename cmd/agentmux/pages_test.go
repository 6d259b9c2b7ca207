package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/hubtest"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

// Stored messages larger than the 1 MiB frame limit (a pane's long turn, many long
// messages) no longer break history (it pages) nor read (it streams the body in parts).
func TestHistoryAndReadOverTheFrameLimit(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	srv := hubtest.Start(t, dir, hub.Config{Session: "big"})
	got, st := srv.Name, srv.Store
	now := time.Now().UnixMilli()
	var ms []store.Message
	for i := range 12 {
		ms = append(ms, store.Message{ID: fmt.Sprintf("m%02d", i), Session: got, From: "alice", To: "bob", Kind: "message",
			Body: fmt.Sprintf("message %d\n", i) + strings.Repeat("<x> é ", 120<<10/8), Seq: int64(i + 1), Queued: now + int64(i)})
	}
	huge := "first line\n" + strings.Repeat("0123456789<>&\"\n", 3<<19/15) + "the end"
	ms = append(ms, store.Message{ID: "mhuge", Session: got, From: "claude", To: "codex", Kind: "message", Body: huge, Seq: 1, Queued: now + 100})
	require.NoError(t, st.Insert(ms...))

	code, out, err := runCmd(t, "", "history")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 13)
	assert.Contains(t, lines[0], "m00")
	assert.Contains(t, lines[12], "mhuge  claude → codex  queued  first line…")

	code, out, err = runCmd(t, "", "history", "--json", "--limit", "5")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	var hist []proto.Message
	require.NoError(t, json.Unmarshal([]byte(out), &hist))
	require.Len(t, hist, 5)
	assert.Equal(t, "mhuge", hist[4].ID)
	assert.Equal(t, "m08", hist[0].ID)

	code, out, err = runCmd(t, "", "read", "mhuge")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	header, body, ok := strings.Cut(out, "\n\n")
	require.True(t, ok)
	assert.Contains(t, header, "from:   claude")
	assert.Contains(t, header, "to:     codex (queued)")
	assert.True(t, body == huge+"\n", "read prints the whole body: %d bytes of %d", len(body), len(huge)+1)

	code, out, err = runCmd(t, "", "read", "mhuge", "--json")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	var rows []proto.Message
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 1)
	assert.True(t, rows[0].Body == huge, "--json has the whole body")
	assert.False(t, rows[0].Cut)
}
