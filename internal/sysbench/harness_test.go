package sysbench

// The harness: agentmux is built once per test binary (sync.Once) into a temporary folder
// that TestMain removes, and runs in a PTY through internal/ptytest, which reads the master
// into a vterm.Terminal, signalling a capacity-1 update channel (bursts coalesce), and
// writes to the PTY, in order, the benchmark's keys and the emulator's answers to the
// start-up queries, so agentmux (or an attached tmux client) meets a terminal that answers
// like a real one. What is sysbench's own: the build, the children's environment, the count
// of output bytes and the quiet wait. Waits are on the update channel for a screen
// condition, with a deadline; nothing sleeps to synchronise.

import (
	"encoding/json"
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

	"github.com/agentmux/agentmux/internal/oswait"
	"github.com/agentmux/agentmux/internal/ptytest"
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

// agentmux returns the path of agentmux built from this tree (once per test binary),
// without cgo as make build and the release archives build it.
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
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
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
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_RUNTIME_DIR="+runtimeDir(tb))
}

// runtimeDir is a new XDG_RUNTIME_DIR, where the session servers a benchmark starts keep
// their sockets: short, since a socket's path must fit in 108 bytes.
func runtimeDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp(scratch(tb), "rt")
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// session is a program running in a PTY of outerCols×outerRows, read through vterm by
// ptytest.
type session struct {
	tb        testing.TB
	env       []string
	attaching bool // agentmux attach: the session is another terminal's to end
	term      *ptytest.Term
	exited    <-chan struct{} // closed when the program has exited
	closeMu   sync.Once
	outN      atomic.Int64 // bytes read from the PTY so far
}

// startSession runs argv in a PTY; it is ended by tb's cleanup if not before.
func startSession(tb testing.TB, argv ...string) *session {
	tb.Helper()
	return startSessionEnv(tb, childEnv(tb), argv...)
}

// startSessionEnv runs argv in a PTY with environment env (another terminal of the same
// sessions, say).
func startSessionEnv(tb testing.TB, env []string, argv ...string) *session {
	tb.Helper()
	s := &session{tb: tb, env: env, attaching: len(argv) > 1 && argv[1] == "attach"}
	term, err := ptytest.Start(argv, ptytest.Options{
		Cols: outerCols, Rows: outerRows,
		Env:      env,
		Queue:    1024,
		OnOutput: func(p []byte) { s.outN.Add(int64(len(p))) },
	})
	if err != nil {
		tb.Fatal(err)
	}
	s.term, s.exited = term, term.Exited()
	tb.Cleanup(s.close)
	return s
}

// send queues bytes for the PTY (after any query answers already queued).
func (s *session) send(b []byte) {
	if err := s.term.Send(b); err != nil {
		s.tb.Fatalf("send %q: %s %v; screen:\n%s", b, s.term.Name(), err, s.dump())
	}
}

// pid is the program's process id.
func (s *session) pid() int { return s.term.Pid() }

// waitScreen waits until cond holds for the screen and returns that snapshot; on
// timeout, or if the output ends first, it fails the benchmark with the last screen.
func (s *session) waitScreen(what string, timeout time.Duration, cond func(*vterm.Snapshot) bool) *vterm.Snapshot {
	s.tb.Helper()
	return s.term.Wait(s.tb, timeout, what, cond)
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
		case <-s.term.Updates():
			still.Reset(quiet)
		case <-still.C:
			return true
		case <-deadline.C:
			return false
		case <-s.term.EOF():
			return false
		}
	}
}

// dump is the screen as text, for failure messages.
func (s *session) dump() string { return s.term.Describe() }

// close ends the program (SIGTERM, SIGKILL to its process group after a grace period)
// and waits for its output to end.
func (s *session) close() {
	s.closeMu.Do(func() {
		if s.term.Stop(syscall.SIGTERM, 10*time.Second) {
			s.tb.Errorf("%s ignored SIGTERM for 10s; killed it", s.term.Name())
		}
		if !s.term.Drain(10 * time.Second) {
			s.tb.Errorf("the PTY of %s still had output 10s after it exited", s.term.Name())
		}
		s.term.Close()
		if !s.attaching {
			s.killServers()
		}
	})
}

// runtime is the session's XDG_RUNTIME_DIR.
func (s *session) runtime() string {
	var dir string
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			dir = v
		}
	}
	return dir
}

// killServers ends the session servers in the session's runtime folder (SIGTERM to a
// client detaches it) and waits for them to go.
func (s *session) killServers() {
	socks, _ := filepath.Glob(filepath.Join(s.runtime(), "agentmux", "*.sock"))
	var pids []int
	for _, sock := range socks {
		name := strings.TrimSuffix(filepath.Base(sock), ".sock")
		if pid := s.serverPid(name); pid > 0 {
			pids = append(pids, pid)
		}
		cmd := exec.Command(agentmuxBin, "kill-session", name)
		cmd.Env = s.env
		_ = cmd.Run()
	}
	for _, pid := range pids {
		oswait.Exited(pid, 10*time.Second) // the server ends its panes' groups first
	}
}

// serverPid is the process id of session name's server (0: none answers).
func (s *session) serverPid(name string) int {
	cmd := exec.Command(agentmuxBin, "sessions", "--json")
	cmd.Env = s.env
	out, err := cmd.Output()
	if err != nil {
		return 0
	}
	var list []struct {
		Name string `json:"name"`
		Pid  int    `json:"pid"`
	}
	if json.Unmarshal(out, &list) != nil {
		return 0
	}
	for _, l := range list {
		if l.Name == name {
			return l.Pid
		}
	}
	return 0
}

// pids are the agentmux processes of the session: its terminal's, and its server's
// when it has one (the only session in its runtime folder).
func (s *session) pids() []int {
	pids := []int{s.pid()}
	socks, _ := filepath.Glob(filepath.Join(s.runtime(), "agentmux", "*.sock"))
	for _, sock := range socks {
		if pid := s.serverPid(strings.TrimSuffix(filepath.Base(sock), ".sock")); pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
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
