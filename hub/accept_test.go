// The accept loop through a spell of "too many open files": a child process (this test
// binary run again) serves a hub with its file descriptors limited and used up, the parent
// connects, and the child frees its descriptors when the hub logs that accepting fails.
// The connection must then be served: the parent's HELLO gets WELCOME. The log line is the
// synchronisation; the parent's handshake deadline fails a hub that gave up.
package hub_test

import (
	"bufio"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/proto"
)

const emfileChild = "AGENTMUX_TEST_EMFILE_CHILD"

func TestAcceptSurvivesOutOfFileDescriptors(t *testing.T) {
	if os.Getenv(emfileChild) != "" {
		emfileServe(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAcceptSurvivesOutOfFileDescriptors$", "-test.count=1")
	cmd.Env = append(os.Environ(), emfileChild+"=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	require.NoError(t, err, "the child never said where it serves")
	path, ok := strings.CutPrefix(strings.TrimSpace(line), "serving ")
	require.True(t, ok, "child said %q", line)

	c, err := client.Dial(path, proto.Hello{Agent: "after-emfile", Capabilities: proto.Capabilities{Ack: true}})
	require.NoError(t, err, "the socket must serve again once descriptors are free")
	c.Raw().Close()
	line, _ = r.ReadString('\n')
	require.Equal(t, "logged accept failing\n", line, "the spell must be logged")
}

// emfileServe is the child: a hub whose process has no file descriptor left until the
// hub logs a failed accept.
func emfileServe(t *testing.T) {
	var mu sync.Mutex // filler is made by the test, freed by the logging goroutine
	var filler []int
	var once sync.Once
	logged := make(chan struct{})
	free := func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			for _, fd := range filler {
				syscall.Close(fd)
			}
			close(logged)
		})
	}
	log := slog.New(&hookHandler{on: func(r slog.Record) {
		if r.Level >= slog.LevelWarn && strings.Contains(r.Message, "accept") {
			free()
		}
	}})
	e := start(t, nil, "", func(c *hub.Config) { c.Logger = log })

	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	lim.Cur = 128
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
	mu.Lock()
	for {
		fd, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			require.ErrorIs(t, err, syscall.EMFILE)
			break
		}
		filler = append(filler, fd)
	}
	mu.Unlock()
	os.Stdout.WriteString("serving " + e.path + "\n")
	<-logged
	os.Stdout.WriteString("logged accept failing\n")
	// Serve until the parent is done.
	buf := make([]byte, 1)
	os.Stdin.Read(buf)
}

// hookHandler calls on for every record.
type hookHandler struct{ on func(slog.Record) }

func (h *hookHandler) Enabled(context.Context, slog.Level) bool      { return true }
func (h *hookHandler) Handle(_ context.Context, r slog.Record) error { h.on(r); return nil }
func (h *hookHandler) WithAttrs([]slog.Attr) slog.Handler            { return h }
func (h *hookHandler) WithGroup(string) slog.Handler                 { return h }
