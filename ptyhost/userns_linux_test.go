package ptyhost

// Where the system refuses a pane its user namespace, Start says so apart from any
// other failure, so that the session may start its panes without one.

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refuseUserNS makes this process's user namespaces fail as a system that makes none
// fails them (at the clone), until the test ends; the probe's answer is asked again
// before and after.
func refuseUserNS(t *testing.T) {
	t.Helper()
	flag := newUserNS
	newUserNS |= syscall.CLONE_FS // the kernel refuses CLONE_NEWUSER with CLONE_FS
	userNSOnce = sync.Once{}
	t.Cleanup(func() {
		newUserNS = flag
		userNSOnce = sync.Once{}
	})
}

// A start refused its user namespace says so (ErrNoUserNS, with the cause), and the
// same program starts without one; a start that fails for its program's own sake does
// not say so where namespaces are made.
func TestStartRefusedItsUserNSSaysSo(t *testing.T) {
	if !UserNSAllowed() {
		t.Skip("this machine makes no user namespaces")
	}
	bad := filepath.Join(t.TempDir(), "not-a-program")
	require.NoError(t, os.WriteFile(bad, []byte{0, 1, 2, 3}, 0o700))
	_, err := Start(Spec{Argv: []string{bad}, UserNS: true}, io.Discard)
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrNoUserNS, "the program failed, not the namespace")

	refuseUserNS(t)
	_, err = Start(Spec{Argv: []string{"sh", "-c", "exit 0"}, UserNS: true}, io.Discard)
	require.ErrorIs(t, err, ErrNoUserNS)
	assert.ErrorIs(t, err, syscall.EINVAL, "the cause is kept")
	assert.False(t, UserNSAllowed())
	p, out := start(t, Spec{Argv: []string{"sh", "-c", "echo started"}})
	waitContains(t, p, out, "started")
}
