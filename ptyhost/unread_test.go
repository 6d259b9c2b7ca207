package ptyhost

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// A line typed and submitted counts as unread until the program reads it, also after
// the terminal echoed it (the echo is the kernel's, not the program's); a line still
// being edited is no input yet in canonical mode; once the program read, nothing is.
func TestUnreadCountsInputTheProgramHasNotRead(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "go")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	// The program reads nothing from its terminal until the test opens the fifo.
	p, out := start(t, Spec{Argv: []string{"/bin/sh", "-c", `echo ready; read go < "$1"; read line; echo "got:$line"; read rest`, "sh", fifo}})
	waitOutput(t, p, out, "ready", func(s string) bool { return strings.Contains(s, "ready") })

	n, err := p.Unread()
	require.NoError(t, err)
	require.Zero(t, n, "nothing typed yet")

	p.Write([]byte("hel"))
	waitOutput(t, p, out, "the echo of a half line", func(s string) bool { return strings.Contains(s, "hel") })
	p.queue.waitWritten() // the echo can come before the writer counted its write
	n, err = p.Unread()
	require.NoError(t, err)
	require.Zero(t, n, "a line still being edited is no input in canonical mode")

	p.Write([]byte("lo\r"))
	waitOutput(t, p, out, "the echo of the carriage return", func(s string) bool { return strings.Contains(s, "hello\r\n") })
	p.queue.waitWritten()
	n, err = p.Unread()
	require.NoError(t, err)
	require.Equal(t, len("hello\n"), n, "submitted and echoed, but not read")

	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("go\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	waitOutput(t, p, out, "the program's answer", func(s string) bool { return strings.Contains(s, "got:hello") })
	n, err = p.Unread()
	require.NoError(t, err)
	require.Zero(t, n, "read")

	require.NoError(t, p.Close())
	_, err = p.Unread()
	require.ErrorIs(t, err, os.ErrClosed)
}
