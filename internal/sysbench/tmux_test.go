package sysbench

// tmux as the yardstick: every comparison starts its own server on a unique socket
// (tmux -L, -f /dev/null so no user configuration applies) and kills it in cleanup. The
// tmux halves of a benchmark are skipped, with a message, when tmux is not installed.

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

var tmuxSeq atomic.Int64

// tmuxPath returns tmux's path, or "" (after logging why) when it is not installed.
func tmuxPath(tb testing.TB) string {
	tb.Helper()
	p, err := exec.LookPath("tmux")
	if err != nil {
		tb.Logf("tmux not found (%v): the tmux half of this benchmark is skipped", err)
		return ""
	}
	return p
}

// tmuxServer is one private tmux server.
type tmuxServer struct {
	tb   testing.TB
	path string
	sock string
	env  []string
	conf string // the configuration file; "" is none (/dev/null)
}

// newTmux names a private server; it starts with the first session and is killed by
// tb's cleanup.
func newTmux(tb testing.TB, path string) *tmuxServer {
	tb.Helper()
	s := &tmuxServer{tb: tb, path: path, env: childEnv(tb),
		sock: fmt.Sprintf("agentmux-sysbench-%d-%d", os.Getpid(), tmuxSeq.Add(1))}
	tb.Cleanup(s.kill)
	return s
}

// argv is a tmux command line for this server.
func (s *tmuxServer) argv(args ...string) []string {
	conf := s.conf
	if conf == "" {
		conf = "/dev/null"
	}
	return append([]string{s.path, "-L", s.sock, "-f", conf}, args...)
}

// run runs a tmux command and fails the benchmark if it fails.
func (s *tmuxServer) run(args ...string) string {
	s.tb.Helper()
	argv := s.argv(args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.tb.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// kill ends the server (it may never have started).
func (s *tmuxServer) kill() {
	argv := s.argv("kill-server")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = s.env
	_ = cmd.Run()
}

// catDetached runs `cat file` in a detached 200×50 pane and returns when it has finished
// (the pane signals a wait-for channel after it; a signal with no waiter yet is kept).
func (s *tmuxServer) catDetached(file string) {
	s.tb.Helper()
	ch := fmt.Sprintf("done-%d", tmuxSeq.Add(1))
	s.run("new-session", "-d", "-x", fmt.Sprint(outerCols), "-y", fmt.Sprint(outerRows),
		fmt.Sprintf("sh -c 'cat %s; tmux wait-for -S %s'", file, ch))
	s.run("wait-for", ch)
}
