package e2e

// A command run in a terminal writes its answer and nothing else: no library asks the
// terminal anything at start-up behind agentmux's own probe. The terminal here is a
// PTY that answers nothing, as a terminal that knows neither OSC 11 nor a cursor
// position request would; a query would show in what the command wrote (and hold it
// five seconds for a reply that never comes).

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommandInATerminalAsksItNothing(t *testing.T) {
	cmd := exec.Command(agentmuxBin, "--version")
	cmd.Env = append(cmd.Environ(), "TERM=xterm-256color")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 80, Rows: 24})
	require.NoError(t, err)
	defer f.Close()
	var out bytes.Buffer
	_, err = io.Copy(&out, f)
	if !errors.Is(err, syscall.EIO) { // the PTY's end: every writer closed it
		require.NoError(t, err)
	}
	require.NoError(t, cmd.Wait())
	got := out.String()
	assert.NotContains(t, got, "\x1b]11;?", "a background colour query")
	assert.NotContains(t, got, "\x1b[6n", "a cursor position request")
	assert.True(t, strings.HasPrefix(got, "agentmux "), "only the version: %q", got)
}
