package ptyhost

import (
	"bufio"
	"encoding/binary"
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A process's command line is read back as it was given, arguments with spaces whole.
func TestCommandLine(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("processes are not read here")
	}
	// Start returns once the exec is under way, before the kernel has set the new
	// program's arguments out (a read then finds none): the shell's first line says
	// that it runs. It then waits on its input, which the test holds open.
	cmd := exec.Command("sh", "-c", "echo ready; read _")
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line)
	assert.Equal(t, []string{"sh", "-c", "echo ready; read _"}, CommandLine(cmd.Process.Pid))
	assert.Equal(t, os.Args, CommandLine(os.Getpid()))
	assert.Nil(t, CommandLine(1<<30), "no such process")
}

// macOS's kern.procargs2: the count, the executable's path and its padding, the
// arguments, then the environment, which is no argument.
func TestProcArgs2(t *testing.T) {
	b := binary.NativeEndian.AppendUint32(nil, 3)
	b = append(b, "/bin/zsh\x00\x00\x00\x00-zsh\x00-l\x00a b\x00HOME=/Users/x\x00TERM=xterm\x00"...)
	assert.Equal(t, []string{"-zsh", "-l", "a b"}, procArgs2(b))
	assert.Nil(t, procArgs2([]byte{1, 0}))
	assert.Nil(t, splitArgs(nil))
	assert.Equal(t, []string{"x", ""}, splitArgs([]byte("x\x00\x00")), "an empty argument stays")
}

// The foreground of a pane's terminal is its program until that runs another in its
// place: an interactive shell taking the terminal is what a pane's program may start.
func TestForegroundCommand(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("read through /proc")
	}
	script := "printf ready; read x; exec bash --norc --noprofile -i"
	p, out := start(t, Spec{Argv: []string{"sh", "-c", script}, Cols: 40, Rows: 5})
	waitContains(t, p, out, "ready")
	assert.Equal(t, []string{"sh", "-c", script}, p.ForegroundCommand())
	p.Write([]byte("go\r"))
	waitContains(t, p, out, "bash-")
	assert.Equal(t, []string{"bash", "--norc", "--noprofile", "-i"}, p.ForegroundCommand())
}
