package main

// Strategy: the mesh's flags and [mesh] settings parse and combine (flags win); `mesh
// creds` writes a private file a real hub accepts, and `ls --mesh` lists through it, or
// says what is missing. The mesh itself is tested in package mesh.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/mesh"
)

func TestMeshFlagsAndConfig(t *testing.T) {
	conf, err := parseConfig([]byte("[mesh]\nurl = \"nats://hub:4222\"\ncreds = \"/k/laptop.creds\"\nca = \"/k/ca.pem\"\n"))
	require.NoError(t, err)
	assert.Equal(t, meshFlags{url: "nats://hub:4222", creds: "/k/laptop.creds", ca: "/k/ca.pem"}, conf.Mesh)
	_, err = parseConfig([]byte("[mesh]\nurl = \"x\"\nkey = \"y\"\n"))
	require.ErrorContains(t, err, "unknown keys: mesh.key")

	o, err := parseArgs([]string{"--mesh", "nats://other:4222", "--mesh-nkey", "/k/seed", "bash"})
	require.NoError(t, err)
	assert.Equal(t, meshFlags{url: "nats://other:4222", nkey: "/k/seed"}, o.mesh)
	assert.Equal(t, meshFlags{url: "nats://other:4222", nkey: "/k/seed", ca: "/k/ca.pem"}, o.mesh.or(conf.Mesh), "flags win; an nkey replaces the config's creds")
	assert.Equal(t, conf.Mesh, meshFlags{}.or(conf.Mesh))
}

func TestMeshCredsAndList(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	code, out, err := runCmd(t, "", "mesh", "creds", "laptop")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	creds := filepath.Join(state, "agentmux", "mesh", "creds", "laptop.creds")
	assert.Contains(t, out, creds)
	fi, err := os.Stat(creds)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	fi, err = os.Stat(filepath.Join(state, "agentmux", "mesh"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())

	code, _, err = runCmd(t, "", "mesh", "creds", "not a name")
	assert.Equal(t, 1, code)
	assert.ErrorContains(t, err, "--session")

	h, err := mesh.Serve(mesh.HubConfig{Dir: filepath.Join(state, "agentmux", "mesh"), Listen: "127.0.0.1:0"})
	require.NoError(t, err)
	defer h.Close()
	code, out, err = runCmd(t, "", "ls", "--mesh", "--mesh="+h.URL(), "--mesh-creds", creds)
	require.NoError(t, err)
	require.Equal(t, 0, code)
	assert.Equal(t, "laptop (away)\n", out, "its stream was made when it logged in; no session answers for it")

	code, _, err = runCmd(t, "", "ls", "--mesh", "--mesh="+h.URL())
	assert.Equal(t, 1, code)
	assert.ErrorContains(t, err, "refused")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	code, _, err = runCmd(t, "", "ls", "--mesh")
	assert.Equal(t, 1, code)
	assert.ErrorContains(t, err, "[mesh] url", "no mesh named and no session to ask for the one it joined")
	startSession(t, "plain")
	code, _, err = runCmd(t, "", "ls", "--mesh")
	assert.Equal(t, 1, code)
	assert.ErrorContains(t, err, "joined no mesh", "the session asked joined none")
}
