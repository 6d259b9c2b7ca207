// The socket folder and session naming: permissions, stale sockets replaced, a live
// session never taken over (the next name is used), and the list of live sessions.
package dirs_test

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/dirs"
)

func TestRuntimeDirAndSockets(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", base)
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(base, "agentmux"), dir)
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())

	name, l1, err := dirs.Claim(dir, "my project")
	require.NoError(t, err)
	defer l1.Close()
	assert.Equal(t, "my-project", name)
	st, err = os.Stat(dirs.SocketPath(dir, name))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	go func() { // answer dials, as a live hub does
		for {
			c, err := l1.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	// A live session holds the name: the next one gets -2.
	name2, l2, err := dirs.Claim(dir, "my project")
	require.NoError(t, err)
	assert.Equal(t, "my-project-2", name2)
	_, err = dirs.Listen(dirs.SocketPath(dir, "my-project"))
	assert.ErrorIs(t, err, dirs.ErrInUse)

	// A dead one leaves its socket file behind: it is replaced, the name reused.
	l2.SetUnlinkOnClose(false)
	l2.Close()
	_, err = os.Stat(dirs.SocketPath(dir, name2))
	require.NoError(t, err, "the stale file is there")
	ss, err := dirs.Sessions(dir)
	require.NoError(t, err)
	assert.Equal(t, []dirs.Session{{Name: "my-project", Socket: dirs.SocketPath(dir, "my-project")}}, ss)
	name3, l3, err := dirs.Claim(dir, "my project")
	require.NoError(t, err)
	defer l3.Close()
	assert.Equal(t, "my-project-2", name3)
	c, err := net.Dial("unix", dirs.SocketPath(dir, name3))
	require.NoError(t, err)
	c.Close()
}

// Without XDG_RUNTIME_DIR the sockets go to run in agentmux's state folder, never to the
// shared temp folder: a planted agentmux-UID there is not even looked at.
func TestRuntimeDirWithoutXDG(t *testing.T) {
	state, tmp := t.TempDir(), t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("TMPDIR", tmp)
	planted := filepath.Join(tmp, "agentmux-"+itoa(os.Getuid()))
	require.NoError(t, os.Mkdir(planted, 0o777))
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(state, "agentmux", "run"), dir)
	for _, d := range []string{dir, filepath.Dir(dir)} {
		st, err := os.Stat(d)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), d)
	}
	require.NoError(t, os.Chmod(dir, 0o755))
	_, err = dirs.RuntimeDir()
	require.NoError(t, err)
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), "opened up folders are closed again")
}

func itoa(i int) string { return strconv.Itoa(i) }

// A folder's name becomes a session name the documented rules take, whatever the
// folder is called: one '-' per character not allowed, nothing that reads as a flag or
// is hidden first, short enough that Claim's suffix still fits in 64.
func TestSessionName(t *testing.T) {
	long := strings.Repeat("z", 80)
	for in, want := range map[string]string{"agentmux": "agentmux", "my proj/x": "my-proj-x", ".hidden": "hidden", "": "agentmux",
		"é": "agentmux", "ärger": "rger", "éclair": "clair", "日本": "agentmux", "projet-é": "projet--", "-x": "x", ".-.x": "x",
		long: long[:60]} {
		got := dirs.SessionName(in)
		assert.Equal(t, want, got, in)
		assert.NoError(t, dirs.ValidSessionName(got+"-100"), in)
	}
}

// Whatever holds the socket folder's name is judged before use: a symlink is refused
// and never followed (its target keeps its mode), a folder of another user is refused,
// one of ours left open is made 0700.
func TestRuntimeDirRefusesWhatIsNotOurs(t *testing.T) {
	state, other := t.TempDir(), t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_STATE_HOME", state)
	require.NoError(t, os.Mkdir(filepath.Join(state, "agentmux"), 0o700))
	dir := filepath.Join(state, "agentmux", "run")

	target := filepath.Join(other, "attacker")
	require.NoError(t, os.Mkdir(target, 0o777))
	require.NoError(t, os.Chmod(target, 0o777))
	require.NoError(t, os.Symlink(target, dir))
	_, err := dirs.RuntimeDir()
	assert.ErrorContains(t, err, "symlink")
	st, err := os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o777), st.Mode().Perm(), "the planted target is not touched")
	require.NoError(t, os.Remove(dir))

	if os.Getuid() == 0 {
		require.NoError(t, os.Mkdir(dir, 0o700))
		require.NoError(t, os.Lchown(dir, 65534, 65534))
		_, err = dirs.RuntimeDir()
		assert.ErrorContains(t, err, "belongs to user 65534")
		require.NoError(t, os.Remove(dir))
	}

	require.NoError(t, os.Mkdir(dir, 0o755))
	got, err := dirs.RuntimeDir()
	require.NoError(t, err)
	assert.Equal(t, dir, got)
	st, err = os.Lstat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
}

func TestValidSessionName(t *testing.T) {
	for _, ok := range []string{"proj", "my-proj_2.x", "A1"} {
		assert.NoError(t, dirs.ValidSessionName(ok), ok)
	}
	for bad, why := range map[string]string{
		"my session": "may hold only", "a/b": "may hold only", "é": "may hold only", "": "empty",
		".hidden": "cannot start", "-x": "cannot start", strings.Repeat("a", 65): "at most 64",
	} {
		err := dirs.ValidSessionName(bad)
		if assert.Error(t, err, bad) {
			assert.Contains(t, err.Error(), why, bad)
		}
	}
}

// An explicit name is claimed as given or refused: never NAME-2.
func TestClaimExact(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	l, err := dirs.ClaimExact(dir, "dup")
	require.NoError(t, err)
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, err = dirs.ClaimExact(dir, "dup")
	assert.ErrorIs(t, err, dirs.ErrInUse)
	_, err = dirs.ClaimExact(dir, "my session")
	assert.ErrorContains(t, err, "may hold only")
}

// Names that differ only in case never run side by side: attach finds names in any
// case, and a case-insensitive file system makes their sockets one file. An explicit
// name is refused; a folder's name moves on to NAME-2. A dead socket does not count.
func TestClaimRefusesACaseTwin(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	l, err := dirs.ClaimExact(dir, "s1")
	require.NoError(t, err)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, err = dirs.ClaimExact(dir, "S1")
	var clash *dirs.CaseClashError
	if assert.ErrorAs(t, err, &clash) {
		assert.Equal(t, "s1", clash.Live)
	}
	assert.ErrorIs(t, err, dirs.ErrInUse)
	name, l2, err := dirs.Claim(dir, "S1")
	require.NoError(t, err)
	assert.Equal(t, "S1-2", name)
	l2.Close()

	l.Close() // s1 ends: S1 may start
	l3, err := dirs.ClaimExact(dir, "S1")
	require.NoError(t, err)
	l3.Close()
}

// A socket another user planted is never listed, however it got into the folder (a
// folder once shared, say), nor a link to a live socket; and a folder that is not the
// user's own and 0700 is refused whole. The other user is the machine's second uid,
// where the tests run as root.
func TestSessionsListsOnlyOwnSocketsInAPrivateFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agentmux")
	require.NoError(t, os.Mkdir(dir, 0o700))
	serve := func(name string) string {
		p := dirs.SocketPath(dir, name)
		l, err := net.Listen("unix", p)
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		return p
	}
	mine := serve("mine")
	elsewhere := filepath.Join(t.TempDir(), "x.sock")
	l, err := net.Listen("unix", elsewhere)
	require.NoError(t, err)
	defer l.Close()
	require.NoError(t, os.Symlink(elsewhere, dirs.SocketPath(dir, "linked")))
	if os.Getuid() == 0 {
		require.NoError(t, os.Lchown(serve("planted"), 1000, 1000))
	} else {
		t.Log("not root: the planted socket of another uid is not made")
	}

	ss, err := dirs.Sessions(dir)
	require.NoError(t, err)
	assert.Equal(t, []dirs.Session{{Name: "mine", Socket: mine}}, ss)

	require.NoError(t, os.Chmod(dir, 0o755))
	_, err = dirs.Sessions(dir)
	assert.ErrorContains(t, err, "not 0700")
	require.NoError(t, os.Chmod(dir, 0o700))
	if os.Getuid() == 0 {
		require.NoError(t, os.Lchown(dir, 1000, 1000))
		_, err = dirs.Sessions(dir)
		assert.ErrorContains(t, err, "belongs to another user")
	}
	link := filepath.Join(t.TempDir(), "run")
	require.NoError(t, os.Symlink(dir, link))
	_, err = dirs.Sessions(link)
	assert.ErrorContains(t, err, "symlink")
}
