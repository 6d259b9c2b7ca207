package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
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
	assert.Equal(t, hub.SessionName(filepath.Base(wd)), s1.Name)
	s2, err := claimSession("")
	require.NoError(t, err)
	early, err := client.DialRaw(s2.Socket) // waits in the backlog
	require.NoError(t, err)
	defer early.Raw().Close()
	require.NoError(t, s2.Serve(nil, nil))
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
