package e2e

// session runs agentmux in a PTY through internal/ptytest, which reads its screen into
// vterm and writes the test's keys and the emulator's answers to agentmux's start-up
// queries to the PTY in order, so agentmux meets a terminal that answers like a real one.
// What is e2e's own: agentmux's environment (fresh HOME, the race detector's log in a
// temporary folder checked at cleanup), the raw-output record, the pane-aware screen and
// the diag hook in failure messages. Tests wait for a screen condition with a deadline
// that prints the last screen; nothing sleeps.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentmux/agentmux/internal/oswait"
	"github.com/agentmux/agentmux/internal/ptytest"
	"github.com/agentmux/agentmux/vterm"
)

const (
	cols, rows = 120, 40
	// waitLong bounds start-up and exit under the race detector on a busy machine.
	waitLong = 20 * time.Second
	// commandWait bounds one agentmux client command (sockEnv.run): a process of the
	// race-built binary, started, connected and answered; once seen past 20 s at a
	// load of 50 on two cores. It only stops a hang: a command that answers is not
	// waited for longer.
	commandWait = time.Minute
)

type session struct {
	t       *testing.T
	term    *ptytest.Term
	raceDir string
	runtime string   // its XDG_RUNTIME_DIR: the sockets of the servers it started
	env     []string // its environment, for agentmux commands run beside it

	updates <-chan struct{} // capacity 1: the screen changed
	eof     <-chan struct{} // closed when the PTY has no more output
	exited  <-chan struct{} // closed when agentmux has exited

	rawMu sync.Mutex
	raw   []byte // everything agentmux wrote, when options.record is set

	// diag, when set, adds to every failure message after the last screen (the relay
	// tests print their agents' transcripts there).
	diag func() string
}

// options adjust a session before it starts.
type options struct {
	kitty  bool     // the outer terminal speaks the kitty keyboard protocol
	record bool     // keep every byte agentmux writes (session.output)
	env    []string // extra environment
	// home is agentmux's HOME, its XDG folders under it ("": a new temporary folder);
	// runtime its XDG_RUNTIME_DIR, where session sockets go ("": a new one).
	home, runtime string
	dir           string // agentmux's working folder ("": the test's)
}

// start runs agentmux with args in a 120×40 PTY.
func start(t *testing.T, args ...string) *session {
	return startWith(t, options{}, args...)
}

func startWith(t *testing.T, o options, args ...string) *session {
	t.Helper()
	home, runtime := o.home, o.runtime
	if home == "" {
		home = t.TempDir()
	}
	if runtime == "" {
		runtime = runtimeDir(t)
	}
	s := &session{t: t, raceDir: t.TempDir(), runtime: runtime}
	env := append(os.Environ(),
		"TERM=xterm-256color",
		"HOME="+home,
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_RUNTIME_DIR="+runtime,
		"GORACE=log_path="+filepath.Join(s.raceDir, "race"),
	)
	s.env = append(env, o.env...)
	po := ptytest.Options{
		Cols: cols, Rows: rows,
		Env:      append(env, o.env...),
		VT:       vterm.Options{KittyKeyboard: o.kitty},
		Describe: s.describe,
		Dir:      o.dir,
	}
	if o.record {
		po.OnOutput = func(p []byte) {
			s.rawMu.Lock()
			s.raw = append(s.raw, p...)
			s.rawMu.Unlock()
		}
	}
	term, err := ptytest.Start(append([]string{agentmuxBin}, args...), po)
	if err != nil {
		t.Fatalf("start agentmux: %v", err)
	}
	s.term, s.updates, s.eof, s.exited = term, term.Updates(), term.EOF(), term.Exited()
	t.Cleanup(s.close)
	return s
}

// resize sets the outer terminal's size: the test's emulator and the PTY's window (which
// signals SIGWINCH to agentmux).
func (s *session) resize(c, r int) {
	s.t.Helper()
	if err := s.term.Resize(c, r); err != nil {
		s.t.Fatal(err)
	}
}

// setWinsize sets the PTY's window size only.
func (s *session) setWinsize(c, r int) {
	s.t.Helper()
	if err := s.term.SetWinsize(c, r); err != nil {
		s.t.Fatal(err)
	}
}

// output is everything agentmux wrote so far (with options.record).
func (s *session) output() string {
	s.rawMu.Lock()
	defer s.rawMu.Unlock()
	return string(s.raw)
}

// send types keys into agentmux.
func (s *session) send(keys string) {
	if err := s.term.Send([]byte(keys)); err != nil {
		s.t.Errorf("typing %q: agentmux %v", keys, err)
	}
}

// screen is the current screen.
func (s *session) screen() *screen { return newScreen(s.term.VT().Snapshot()) }

// waitScreen waits until cond holds for the screen and returns that screen. On timeout,
// or if agentmux exits first, it fails the test, printing the last screen.
func (s *session) waitScreen(what string, cond func(*screen) bool, timeout time.Duration) *screen {
	s.t.Helper()
	var last *screen
	s.term.Wait(s.t, timeout, what, func(snap *vterm.Snapshot) bool {
		last = newScreen(snap)
		return cond(last)
	})
	return last
}

// waitText waits until the screen shows every one of texts.
func (s *session) waitText(timeout time.Duration, texts ...string) *screen {
	s.t.Helper()
	return s.waitScreen(strings.Join(quoteAll(texts), " and "), func(scr *screen) bool {
		for _, x := range texts {
			if !scr.has(x) {
				return false
			}
		}
		return true
	}, timeout)
}

// describe is the last screen, with row numbers, and whatever diag adds.
func (s *session) describe() string {
	d := s.screen().dump()
	if s.diag != nil {
		d += s.diag()
	}
	return d
}

// waitExit waits for agentmux to exit and returns its status.
func (s *session) waitExit(timeout time.Duration) int {
	s.t.Helper()
	select {
	case <-s.exited:
		return s.term.ExitCode()
	case <-time.After(timeout):
		s.t.Fatalf("agentmux did not exit within %v; screen:\n%s", timeout, s.describe())
		return -1
	}
}

// close ends agentmux if the test left it running (SIGTERM, then SIGKILL), waits for its
// output to end, and fails the test if the race detector reported anything or a query
// answer was dropped.
func (s *session) close() {
	if s.term.Stop(syscall.SIGTERM, waitLong) {
		s.t.Errorf("agentmux ignored SIGTERM for %v; killed it", waitLong)
	}
	if !s.term.Drain(waitLong) {
		s.t.Errorf("the PTY still had output %v after agentmux exited", waitLong)
	}
	s.term.Close()
	s.killServers()
	reports, _ := filepath.Glob(filepath.Join(s.raceDir, "race*"))
	for _, r := range reports {
		b, _ := os.ReadFile(r)
		s.t.Errorf("the race detector reported in %s:\n%s", filepath.Base(r), b)
	}
	if n := s.term.Dropped(); n > 0 {
		s.t.Errorf("%d terminal answers were dropped (the key queue was full)", n)
	}
}

// killServers ends every session server the test left running in its runtime folder
// (SIGTERM to a client detaches it: the server and its agents would live on) and waits
// for their sockets to go.
func (s *session) killServers() {
	runtime := s.runtime
	for _, kv := range s.env { // the last setting wins, as exec takes it
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok {
			runtime = v
		}
	}
	socks, _ := filepath.Glob(filepath.Join(runtime, "agentmux", "*.sock"))
	for _, sock := range socks {
		name := strings.TrimSuffix(filepath.Base(sock), ".sock")
		cmd := exec.Command(agentmuxBin, "kill-session", name)
		cmd.Env = s.env
		_ = cmd.Run()
	}
	// Test cleanup: each server removes its socket as it ends.
	_ = oswait.Until(waitLong, func() bool {
		for _, sock := range socks {
			if _, err := os.Stat(sock); err == nil {
				return false
			}
		}
		return true
	}, filepath.Join(runtime, "agentmux"))
}

// runtimeDir is a new XDG_RUNTIME_DIR for one test: short, since a socket's path must
// fit in 108 bytes (t.TempDir's names the test).
func runtimeDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "amx")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, x := range ss {
		out[i] = "“" + x + "”"
	}
	return out
}
