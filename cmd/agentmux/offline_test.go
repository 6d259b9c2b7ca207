package main

// history and read read the store when the session ended; sessions --all lists ended
// sessions with history; with none running, sessions says so.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/hubtest"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/store"
)

func TestHistoryOfAnEndedSession(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_NAME", "")

	code, out, err := runCmd(t, "", "sessions")
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Equal(t, "no session is running (agentmux sessions --all also lists ended ones with history)\n", out)
	_, _, err = runCmd(t, "", "history", "--session", "proj")
	assert.ErrorContains(t, err, "no message store yet")

	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	path, err := statePath("agentmux.db")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	st, err := store.Open(path)
	require.NoError(t, err)
	h := hubtest.Start(t, dir, hub.Config{Session: "proj", Store: st}).Hub
	bot, err := client.Dial(dirs.SocketPath(dir, "proj"), proto.Hello{Agent: "bot", CLI: "script"})
	require.NoError(t, err)
	bot.SetDeadline(time.Now().Add(5 * time.Second))
	_, out, err = runCmd(t, "", "send", "bot", "kept after the end")
	require.NoError(t, err)
	id, _, _ := strings.Cut(strings.TrimSpace(out), " ")
	next(t, bot)
	bot.Raw().Close()
	require.NoError(t, h.Close())
	require.NoError(t, st.Close())

	_, out, err = runCmd(t, "", "history", "--session", "proj")
	require.NoError(t, err)
	assert.Contains(t, out, id+"  you → bot  confirmed  kept after the end")
	_, out, err = runCmd(t, "", "read", id)
	require.NoError(t, err)
	assert.Contains(t, out, "to:     bot (confirmed)\n")
	assert.True(t, strings.HasSuffix(out, "\nkept after the end\n"), out)
	_, out, err = runCmd(t, "", "sessions", "--all")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^NAME\s+STATE\s+TERMINALS\s+MESSAGES\s+LAST\s+SOCKET\nproj\s+ended\s+-\s+1\s+\d{4}-\S+ \S+\s+-$`, out)

	// A member that none of the ended session's messages names (mistyped, or a pane's
	// number) is an error, as a running session's history says it, not an empty history.
	for _, m := range []string{"nope", "1"} {
		code, out, err = runCmd(t, "", "history", "--session", "proj", "--member", m)
		assert.Equal(t, 1, code, m)
		assert.ErrorContains(t, err, `no member "`+m+`" in the stored messages of session proj`, m)
		assert.Empty(t, out, m)
	}
	_, out, err = runCmd(t, "", "history", "--session", "proj", "--member", "BOT")
	require.NoError(t, err)
	assert.Contains(t, out, "kept after the end")
	// A pane of the session that no message names is a member all the same, as a running
	// session's history takes it: an empty history, not an error. The store's record of
	// the session (for a restore) names its panes.
	st, err = store.Open(path)
	require.NoError(t, err)
	require.NoError(t, st.StartSnapshot("proj", t.TempDir(), []byte(`{"panes":[{"number":1,"name":"carol"}]}`), 1, time.Now().UnixMilli()))
	require.NoError(t, st.Close())
	code, out, err = runCmd(t, "", "history", "--session", "proj", "--member", "Carol")
	assert.NoError(t, err, "a pane no message names")
	assert.Equal(t, 0, code)
	assert.NotContains(t, out, "kept after the end")
	code, _, err = runCmd(t, "", "history", "--session", "proj", "--member", "nope")
	assert.Equal(t, 1, code, "still an error for a name no pane had either")
	assert.ErrorContains(t, err, `no member "nope"`)

	code, _, err = runCmd(t, "", "history")
	assert.Equal(t, 1, code)
	assert.ErrorContains(t, err, "no session is running: agentmux history --session NAME shows an ended one's")
	_, _, err = runCmd(t, "", "history", "--session", "nope")
	assert.ErrorContains(t, err, `no session "nope" runs, and the store has no messages of one by that name`)
	_, _, err = runCmd(t, "", "read", "m-no-such")
	assert.ErrorContains(t, err, "no such message in the store")
}

// sessions --all --json says of a running session what sessions --json says (attached,
// its terminals, ...), and adds its messages: a script that adds --all keeps its fields.
func TestSessionsAllJSONKeepsWhatSessionsJSONSays(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	hubtest.Start(t, dir, hub.Config{Session: "proj"})

	_, out, err := runCmd(t, "", "sessions", "--json")
	require.NoError(t, err)
	var plain []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &plain))
	require.Len(t, plain, 1)
	_, out, err = runCmd(t, "", "sessions", "--all", "--json")
	require.NoError(t, err)
	var all []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &all))
	require.Len(t, all, 1)
	require.Contains(t, plain[0], "attached")
	for k, v := range plain[0] {
		assert.Equal(t, v, all[0][k], "sessions --all --json: %s", k)
	}
	assert.Equal(t, true, all[0]["running"])
}
