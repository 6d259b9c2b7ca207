package dirs

// The state folder: made private, and refused when it is a link or another user's.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A state folder that is a symlink (planted, or anything but a plain folder of ours) is
// refused, and SecureDir says what mode it changed.
func TestSecureDir(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "state")
	require.NoError(t, os.Mkdir(dir, 0o755))
	was, err := SecureDir(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), was)
	was, err = SecureDir(dir)
	require.NoError(t, err)
	assert.Zero(t, was)

	link := filepath.Join(base, "link")
	require.NoError(t, os.Symlink(dir, link))
	_, err = SecureDir(link)
	assert.ErrorContains(t, err, "not a folder")

	if os.Getuid() == 0 {
		other := filepath.Join(base, "other")
		require.NoError(t, os.Mkdir(other, 0o700))
		require.NoError(t, os.Lchown(other, 65534, 65534))
		_, err = SecureDir(other)
		assert.ErrorContains(t, err, "another user")
	}
}
