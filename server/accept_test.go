// The demux's accept loop through a spell of "too many open files": a child process (this
// test binary run again) sorts a socket's connections with its file descriptors limited
// and used up; the parent connects and sends a frame the hub would take; the child frees
// its descriptors when the demux logs that accepting fails, and must then hand the
// connection on: the child answers "taken" on it. The log line is the synchronisation;
// the parent's read deadline fails a demux that gave up.
package server

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/proto"
)

const emfileChild = "AGENTMUX_TEST_EMFILE_CHILD"

func TestDemuxSurvivesOutOfFileDescriptors(t *testing.T) {
	if os.Getenv(emfileChild) != "" {
		emfileSort(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDemuxSurvivesOutOfFileDescriptors$", "-test.count=1")
	cmd.Env = append(os.Environ(), emfileChild+"="+filepath.Join(t.TempDir(), "s.sock"))
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

	nc, err := net.Dial("unix", path)
	require.NoError(t, err)
	defer nc.Close()
	require.NoError(t, proto.WriteFrame(nc, []byte(`{"v":1,"type":"HELLO"}`)))
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, err := bufio.NewReader(nc).ReadString('\n')
	require.NoError(t, err, "the socket must serve again once descriptors are free")
	require.Equal(t, "taken\n", got)
}

// emfileSort is the child: a demux whose process has no file descriptor left until it
// logs a failed accept; whatever it hands the hub is answered "taken".
func emfileSort(t *testing.T) {
	path := os.Getenv(emfileChild)
	var mu sync.Mutex // filler is made by the test, freed by the logging goroutine
	var filler []int
	var once sync.Once
	log := slog.New(&hookHandler{on: func(r slog.Record) {
		if r.Level >= slog.LevelWarn && strings.Contains(r.Message, "accept") {
			once.Do(func() {
				mu.Lock()
				defer mu.Unlock()
				for _, fd := range filler {
					syscall.Close(fd)
				}
			})
		}
	}})
	l, err := net.Listen("unix", path)
	require.NoError(t, err)
	d := newDemux(l, func(nc net.Conn, _ *proto.Envelope) { nc.Close() }, log)
	defer d.Close()
	go func() {
		for {
			c, err := d.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("taken\n"))
		}
	}()

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
	os.Stdout.WriteString("serving " + path + "\n")
	// Serve until the parent is done.
	os.Stdin.Read(make([]byte, 1))
}

// hookHandler calls on for every record.
type hookHandler struct{ on func(slog.Record) }

func (h *hookHandler) Enabled(context.Context, slog.Level) bool      { return true }
func (h *hookHandler) Handle(_ context.Context, r slog.Record) error { h.on(r); return nil }
func (h *hookHandler) WithAttrs([]slog.Attr) slog.Handler            { return h }
func (h *hookHandler) WithGroup(string) slog.Handler                 { return h }
