package tty

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/agentmux/agentmux/keys"
)

// blockingTerminal returns a PTY's master and a blocking descriptor of its terminal
// end, in raw mode, as agentmux
// has its stdin.
func blockingTerminal(t *testing.T) (master, in *os.File) {
	t.Helper()
	m, s, err := pty.Open()
	require.NoError(t, err)
	fd, err := syscall.Open(s.Name(), syscall.O_RDWR|syscall.O_NOCTTY, 0)
	require.NoError(t, err)
	in = os.NewFile(uintptr(fd), s.Name())
	_, err = term.MakeRaw(uintptr(fd))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	t.Cleanup(func() { _ = in.Close(); _ = m.Close() })
	return m, in
}

// flags returns f's open file status flags without changing its mode.
func flags(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	require.NoError(t, err)
	var fl int
	var ferr error
	require.NoError(t, rc.Control(func(fd uintptr) {
		fl, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0)
	}))
	require.NoError(t, ferr)
	return fl
}

// A terminal's input is read through the runtime's poller (a read that waits parks its
// goroutine, it holds no thread in a system call), from a description of its own: the
// description agentmux was given (shared with the shell that started it) stays
// blocking, keys arrive, and Close ends a read in progress without taking input.
func TestTerminalInputIsReadThroughThePoller(t *testing.T) {
	terminalInput(t, true)
}

// Where the terminal cannot be opened again (every other system), a blocking reader
// reads it, handing each read to the decoder first; the rest holds as above.
func TestTerminalInputWithoutReopen(t *testing.T) {
	defer func() { reopenTerminal = reopen }()
	reopenTerminal = func(*os.File) (*os.File, error) { return nil, errors.New("not on this system") }
	terminalInput(t, false)
}

func terminalInput(t *testing.T, wantPolled bool) {
	master, in := blockingTerminal(t)
	ir, err := startInputWait(context.Background(), in, time.Hour)
	require.NoError(t, err)
	_, polled := ir.cr.(*pollReader)
	assert.Equal(t, wantPolled, polled, "read through the poller")
	assert.Equal(t, wantPolled, ir.decoded == nil, "a blocking reader hands each read off")
	assert.Zero(t, flags(t, in)&syscall.O_NONBLOCK, "the shell's description stays blocking")

	_, err = master.Write([]byte("ab"))
	require.NoError(t, err)
	var got []rune
	for len(got) < 2 {
		for _, ev := range next(t, ir).Events {
			if k, ok := ev.(keys.Key); ok {
				got = append(got, k.Rune)
			}
		}
	}
	assert.Equal(t, []rune("ab"), got)

	closed := make(chan struct{})
	go func() { ir.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the read in progress")
	}
	assert.Zero(t, flags(t, in)&syscall.O_NONBLOCK)

	_, err = master.Write([]byte("c"))
	require.NoError(t, err)
	buf := make([]byte, 8)
	n, err := in.Read(buf) // blocking, and "c" is there
	require.NoError(t, err)
	assert.Equal(t, "c", string(buf[:n]), "input after Close is left for the next reader")
}
