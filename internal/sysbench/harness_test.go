package sysbench

// The harness: agentmux is built once per test binary (sync.Once) into a temporary folder
// that TestMain removes, and runs in a PTY whose master one goroutine reads into a
// vterm.Terminal, signalling a capacity-1 update channel (bursts coalesce). Another
// goroutine writes to the PTY, in order, the benchmark's keys and the emulator's answers to
// the start-up queries, so agentmux (or an attached tmux client) meets a terminal that
// answers like a real one. Waits are on the update channel for a screen condition, with a
// deadline; nothing sleeps to synchronise.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agentmux/agentmux/vterm"
)

// outerCols and outerRows are the outer terminal's size in every benchmark.
const outerCols, outerRows = 200, 50

var (
	// workDir holds the built binary and the generated inputs; TestMain removes it.
	workDir     string
	workDirOnce sync.Once
	workDirErr  error

	buildOnce   sync.Once
	agentmuxBin string
	buildErr    error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if workDir != "" {
		os.RemoveAll(workDir)
	}
	os.Exit(code)
}

// scratch returns the run's temporary folder, creating it on first use.
func scratch(tb testing.TB) string {
	tb.Helper()
	workDirOnce.Do(func() { workDir, workDirErr = os.MkdirTemp("", "agentmux-sysbench-") })
	if workDirErr != nil {
		tb.Fatalf("temporary folder: %v", workDirErr)
	}
	return workDir
}

// moduleRoot finds the folder holding go.mod, from the test's working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// agentmux returns the path of agentmux built from this tree (once per test binary).
func agentmux(tb testing.TB) string {
	tb.Helper()
	dir := scratch(tb)
	buildOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			buildErr = err
			return
		}
		agentmuxBin = filepath.Join(dir, "agentmux")
		cmd := exec.Command("go", "build", "-o", agentmuxBin, "./cmd/agentmux")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/agentmux: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return agentmuxBin
}

// childEnv is the environment of every program the benchmarks start: a fresh HOME and
// XDG folders (agentmux's log goes there), TERM=xterm-256color, no TMUX, so a tmux started
// here never talks to a server the benchmark runs inside of, and TMUX_TMPDIR in the run's
// scratch folder, so the sockets of the private tmux servers go away with it.
func childEnv(tb testing.TB) []string {
	home := tb.TempDir()
	env := make([]string, 0, len(os.Environ())+4)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX") && !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	return append(env, "TERM=xterm-256color", "HOME="+home, "TMUX_TMPDIR="+scratch(tb),
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"))
}

// session is a program running in a PTY of outerCols×outerRows, read through vterm.
type session struct {
	tb      testing.TB
	cmd     *exec.Cmd
	pty     *os.File
	vt      *vterm.Terminal
	keys    chan []byte   // to the PTY, in order: keys and query answers
	updates chan struct{} // capacity 1: output arrived
	eof     chan struct{} // closed when the PTY has no more output
	exited  chan struct{} // closed when the program has exited
	closeMu sync.Once
	outN    atomic.Int64 // bytes read from the PTY so far
}

// startSession runs argv in a PTY; it is ended by tb's cleanup if not before.
func startSession(tb testing.TB, argv ...string) *session {
	tb.Helper()
	s := &session{
		tb:      tb,
		keys:    make(chan []byte, 1024),
		updates: make(chan struct{}, 1),
		eof:     make(chan struct{}),
		exited:  make(chan struct{}),
	}
	s.vt = vterm.New(vterm.Options{
		Cols: outerCols, Rows: outerRows,
		Reply: func(b []byte) { // inside vterm's Write: must not block
			select {
			case s.keys <- bytes.Clone(b):
			default:
			}
		},
	})
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Env = childEnv(tb)
	f, err := pty.StartWithSize(s.cmd, &pty.Winsize{Cols: outerCols, Rows: outerRows})
	if err != nil {
		tb.Fatalf("start %s: %v", argv[0], err)
	}
	s.pty = f
	go s.read()
	go s.write()
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	tb.Cleanup(s.close)
	return s
}

func (s *session) read() {
	defer close(s.eof)
	buf := make([]byte, 64<<10)
	for {
		n, err := s.pty.Read(buf)
		if n > 0 {
			s.outN.Add(int64(n))
			s.vt.Write(buf[:n])
			select {
			case s.updates <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

func (s *session) write() {
	for {
		select {
		case b := <-s.keys:
			if _, err := s.pty.Write(b); err != nil {
				return
			}
		case <-s.eof:
			return
		}
	}
}

// send queues bytes for the PTY (after any query answers already queued).
func (s *session) send(b []byte) { s.keys <- b }

// pid is the program's process id.
func (s *session) pid() int { return s.cmd.Process.Pid }

// waitScreen waits until cond holds for the screen and returns that snapshot; on
// timeout, or if the output ends first, it fails the benchmark with the last screen.
func (s *session) waitScreen(what string, timeout time.Duration, cond func(*vterm.Snapshot) bool) *vterm.Snapshot {
	s.tb.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		snap := s.vt.Snapshot()
		if cond(snap) {
			return snap
		}
		select {
		case <-s.updates:
		case <-s.eof:
			if snap := s.vt.Snapshot(); cond(snap) {
				return snap
			}
			s.tb.Fatalf("output ended while waiting for %s; last screen:\n%s", what, s.dump())
		case <-deadline.C:
			s.tb.Fatalf("timed out after %v waiting for %s; last screen:\n%s", timeout, what, s.dump())
		}
	}
}

// waitText waits until every one of texts is on the screen.
func (s *session) waitText(timeout time.Duration, texts ...string) *vterm.Snapshot {
	s.tb.Helper()
	return s.waitScreen(strings.Join(texts, " and "), timeout, func(snap *vterm.Snapshot) bool {
		for _, x := range texts {
			if _, _, ok := find(snap, x); !ok {
				return false
			}
		}
		return true
	})
}

// waitQuiet waits until no output arrived for quiet, and reports whether that happened
// within timeout (a program that keeps drawing never gets quiet).
func (s *session) waitQuiet(quiet, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	still := time.NewTimer(quiet)
	defer still.Stop()
	for {
		select {
		case <-s.updates:
			still.Reset(quiet)
		case <-still.C:
			return true
		case <-deadline.C:
			return false
		case <-s.eof:
			return false
		}
	}
}

// dump is the screen as text, for failure messages.
func (s *session) dump() string { return strings.Join(s.vt.ScreenText(), "\n") }

// close ends the program (SIGTERM, SIGKILL to its process group after a grace period)
// and waits for its output to end.
func (s *session) close() {
	s.closeMu.Do(func() {
		select {
		case <-s.exited:
		default:
			_ = s.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-s.exited:
			case <-time.After(10 * time.Second):
				s.tb.Errorf("%s ignored SIGTERM for 10s; killing it", s.cmd.Path)
				_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
				<-s.exited
			}
		}
		select {
		case <-s.eof:
		case <-time.After(10 * time.Second):
			s.tb.Errorf("the PTY of %s still had output 10s after it exited", s.cmd.Path)
		}
		s.pty.Close()
	})
}

// find returns the row and column (in cells) where text starts on the screen.
func find(snap *vterm.Snapshot, text string) (row, col int, ok bool) {
	want := []rune(text)
	for y, line := range snap.Lines {
		cells := line.Cells
	next:
		for x := 0; x+len(want) <= len(cells); x++ {
			for i, r := range want {
				if cells[x+i].Rune != r {
					continue next
				}
			}
			return y, x, true
		}
	}
	return 0, 0, false
}
