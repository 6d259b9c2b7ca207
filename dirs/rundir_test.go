package dirs

// The socket folder's rule of each system runs here through socketBaseOf: macOS's
// ($TMPDIR/agentmux-UID without $XDG_RUNTIME_DIR) gets the same checks as Linux's. A
// socket path too long for the kernel is refused with a message that says so.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asMacOS runs RuntimeDir with macOS's rule for the rest of the test.
func asMacOS(t *testing.T) {
	t.Cleanup(func() { socketBaseOf = socketBase })
	socketBaseOf = func() string { return macSocketDir(os.Getenv, os.Getuid()) }
}

func TestRuntimeDirOnMacOSIsUnderTMPDIR(t *testing.T) {
	asMacOS(t)
	tmp := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", tmp)
	want := filepath.Join(tmp, "agentmux-"+strconv.Itoa(os.Getuid()))

	require.NoError(t, os.Mkdir(want, 0o755)) // left open by someone: closed again
	dir, err := RuntimeDir()
	require.NoError(t, err)
	assert.Equal(t, want, dir)
	st, err := os.Lstat(dir)
	require.NoError(t, err)
	assert.True(t, st.IsDir())
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	name, l, err := Claim(dir, "mac")
	require.NoError(t, err)
	defer l.Close()
	assert.Equal(t, "mac", name)

	// $XDG_RUNTIME_DIR, when set, is taken first there too.
	xdg := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", xdg)
	dir, err = RuntimeDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(xdg, "agentmux"), dir)
}

// What another user planted at the folder's name under a shared $TMPDIR is refused.
func TestRuntimeDirOnMacOSRefusesAPlantedFolder(t *testing.T) {
	asMacOS(t)
	tmp := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", tmp)
	path := filepath.Join(tmp, "agentmux-"+strconv.Itoa(os.Getuid()))

	require.NoError(t, os.Symlink(t.TempDir(), path))
	_, err := RuntimeDir()
	require.ErrorContains(t, err, "symlink")
	require.NoError(t, os.Remove(path))

	if os.Geteuid() != 0 {
		return // only root can make a folder of another user
	}
	require.NoError(t, os.Mkdir(path, 0o700))
	require.NoError(t, os.Chown(path, 65534, 65534))
	_, err = RuntimeDir()
	require.ErrorContains(t, err, "belongs to user 65534")
}

// Without $TMPDIR (and $XDG_RUNTIME_DIR) the sockets go to agentmux's state folder.
func TestRuntimeDirOnMacOSWithoutTMPDIR(t *testing.T) {
	asMacOS(t)
	state := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", "")
	t.Setenv("XDG_STATE_HOME", state)
	dir, err := RuntimeDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(state, "agentmux", "run"), dir)
}

func TestSocketPathTooLongIsRefusedClearly(t *testing.T) {
	dir := t.TempDir()
	fits := filepath.Join(dir, strings.Repeat("a", maxSocketPath-len(dir)-1))
	require.Len(t, fits, maxSocketPath)
	l, err := Listen(fits)
	require.NoError(t, err, "a path of the longest length the kernel takes")
	l.Close()

	long := fits + "b"
	_, err = Listen(long)
	require.ErrorContains(t, err, "longer than this system's "+strconv.Itoa(maxSocketPath))
	assert.NotErrorIs(t, err, syscall.EINVAL, "the kernel was not asked")
}
