package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Other local users must not read the messages: under the usual umask 022, a state
// folder an older agentmux left 0755 becomes 0700 and the database with its WAL files
// are 0600.
func TestOpenMakesStorePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "agentmux")
	require.NoError(t, os.Mkdir(dir, 0o755))
	path := filepath.Join(dir, "agentmux.db")

	s := open(t, path)
	require.NoError(t, s.Insert(msg("m1", "bob", 1, 10)))
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), "the state folder")
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		require.NoError(t, err, p)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), p)
	}
	require.NoError(t, s.Close())

	// Files an older agentmux made 0644 are closed up on the next open.
	require.NoError(t, os.Chmod(path, 0o644))
	s2 := open(t, path)
	require.NoError(t, s2.Insert(msg("m2", "bob", 2, 11)))
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		st, err := os.Stat(p)
		require.NoError(t, err, p)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), p)
	}
}
