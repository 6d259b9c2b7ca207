package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
)

// serveSession names the session after the working folder, serves it with the store in
// XDG_STATE_HOME, and a second one in the same folder gets -2; what Env gives the panes
// is what the commands find it by.
func TestServeSession(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Chdir(filepath.Join(t.TempDir()))
	wd, err := os.Getwd()
	require.NoError(t, err)

	s1, err := serveSession("", nil, nil)
	require.NoError(t, err)
	defer s1.Close()
	assert.Equal(t, hub.SessionName(filepath.Base(wd)), s1.Name)
	s2, err := serveSession("", nil, nil)
	require.NoError(t, err)
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
