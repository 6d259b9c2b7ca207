package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/proto"
)

// claimSession names the session after the working folder, opens the store in
// XDG_STATE_HOME, and a second one in the same folder gets -2; a client that connects
// before Serve is answered once it serves; what Env gives the panes is what the
// commands find it by.
func TestClaimAndServeSession(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Chdir(filepath.Join(t.TempDir()))
	wd, err := os.Getwd()
	require.NoError(t, err)

	s1, err := claimSession("")
	require.NoError(t, err)
	defer s1.Close()
	assert.Equal(t, dirs.SessionName(filepath.Base(wd)), s1.Name)
	s2, err := claimSession("")
	require.NoError(t, err)
	early, err := client.DialRaw(s2.Socket) // waits in the backlog
	require.NoError(t, err)
	defer early.Raw().Close()
	require.NoError(t, s2.ServeOn(s2.l, nil, nil))
	_, err = early.Write(proto.TypeHello, "", "", proto.Hello{Agent: "early"})
	require.NoError(t, err)
	w, err := early.Read()
	require.NoError(t, err)
	assert.Equal(t, proto.TypeWelcome, w.Type)
	assert.Equal(t, s1.Name+"-2", s2.Name)
	_, err = os.Stat(filepath.Join(state, "agentmux", "agentmux.db"))
	require.NoError(t, err)

	env := s2.Env()
	assert.Equal(t, []string{"AGENTMUX_SESSION=" + s2.Name, "AGENTMUX_SOCKET=" + s2.Socket}, env)
	t.Setenv("AGENTMUX_SESSION", s2.Name)
	path, err := client.Socket("")
	require.NoError(t, err)
	assert.Equal(t, s2.Socket, path)
	require.NoError(t, s2.Close())
	_, err = os.Stat(s2.Socket)
	assert.True(t, os.IsNotExist(err), "the socket goes with the session")
}

// An explicit --session that a live session holds is an error (exit 2) that says why;
// an invalid one is a usage error; neither becomes another name.
func TestExplicitSessionNameIsNeverChanged(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s1, err := claimSession("dup")
	require.NoError(t, err)
	defer s1.Close()
	require.NoError(t, s1.ServeOn(s1.l, nil, nil))
	assert.Equal(t, "dup", s1.Name)
	_, err = claimSession("dup")
	assert.ErrorIs(t, err, dirs.ErrInUse)

	code, err := claimFailed("dup", err)
	assert.Equal(t, 2, code)
	assert.ErrorContains(t, err, "--session dup: a running session has that name")

	for _, bad := range []string{"my session", "a/b"} {
		_, err := parseArgs([]string{"--session", bad, "sh"})
		assert.ErrorIs(t, err, errUsage, bad)
		assert.ErrorContains(t, err, "may hold only", bad)
	}
}
