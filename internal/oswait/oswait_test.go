package oswait_test

// The waits are tested against the real kernel: a child that ends after the wait began
// (and one that never ends, which must time out), and files created and removed by
// another goroutine after the watch began.

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/internal/oswait"
)

func TestExitedSeesTheEnd(t *testing.T) {
	cmd := exec.Command("cat")
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	require.False(t, oswait.Exited(cmd.Process.Pid, 50*time.Millisecond), "a running process has not ended")
	in.Close() // cat reads the end of its input, exits and stays a zombie until Wait
	require.True(t, oswait.Exited(cmd.Process.Pid, time.Minute), "the zombie has ended")
	require.NoError(t, cmd.Wait())
	require.True(t, oswait.Exited(cmd.Process.Pid, 0), "a reaped process has ended")
}

func TestUntilWakesOnChanges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	exists := func() bool { _, err := os.Stat(path); return err == nil }
	require.ErrorIs(t, oswait.Until(50*time.Millisecond, exists, dir), oswait.ErrTimeout)

	go func() { _ = os.WriteFile(path, []byte("x"), 0o600) }()
	require.NoError(t, oswait.Until(time.Minute, exists, dir))
	go func() { _ = os.Remove(path) }()
	require.NoError(t, oswait.Until(time.Minute, func() bool { return !exists() }, dir))

	require.ErrorContains(t, oswait.Until(time.Second, exists, filepath.Join(dir, "missing")), "missing")
}
