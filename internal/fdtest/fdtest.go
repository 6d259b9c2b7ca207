// Package fdtest runs a server through a spell of "too many open files", for the tests
// of the accept loops (hub, server): a child process (the test binary run again) limits
// and uses up its file descriptors once its server listens, and frees them when the
// server logs that accepting fails; the parent connects meanwhile. It imports nothing of
// the project.
package fdtest

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
)

// ChildEnv is set in the child's environment (to the value Child was given).
const ChildEnv = "AGENTMUX_TEST_EMFILE_CHILD"

// Child runs test (this binary's test of that name) again as a child with ChildEnv set
// to value, and waits for its line "serving PATH": it returns PATH and the rest of the
// child's output. The child ends when the test does.
func Child(t *testing.T, test, value string) (path string, out *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), ChildEnv+"="+value)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	out = bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	if err != nil {
		t.Fatalf("the child never said where it serves: %v", err)
	}
	path, ok := strings.CutPrefix(strings.TrimSpace(line), "serving ")
	if !ok {
		t.Fatalf("the child said %q", line)
	}
	return path, out
}

// Spell is the child's side: its logger frees the descriptors Exhaust took at the
// first warning about accepting.
type Spell struct {
	mu     sync.Mutex // filler is made by Exhaust, freed by the logging goroutine
	filler []int
	once   sync.Once
	freed  chan struct{}
}

// NewSpell returns a Spell whose descriptors are not taken yet.
func NewSpell() *Spell { return &Spell{freed: make(chan struct{})} }

// Logger logs nothing; a warning whose message names accept frees the descriptors.
func (s *Spell) Logger() *slog.Logger {
	return slog.New(&hook{on: func(r slog.Record) {
		if r.Level >= slog.LevelWarn && strings.Contains(r.Message, "accept") {
			s.once.Do(func() {
				s.mu.Lock()
				defer s.mu.Unlock()
				for _, fd := range s.filler {
					syscall.Close(fd)
				}
				close(s.freed)
			})
		}
	}})
}

// Exhaust limits the process to 128 descriptors and opens /dev/null until none is left.
func (s *Spell) Exhaust(t *testing.T) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	lim.Cur = 128
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		fd, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			if err != syscall.EMFILE {
				t.Fatalf("filling descriptors: %v", err)
			}
			return
		}
		s.filler = append(s.filler, fd)
	}
}

// Serve says the child serves at path (Child's parent reads it), then the line
// "logged accept failing" once the descriptors are freed, and returns when the parent
// ends the child.
func (s *Spell) Serve(path string) {
	os.Stdout.WriteString("serving " + path + "\n")
	go func() {
		<-s.freed
		os.Stdout.WriteString(Logged)
	}()
	os.Stdin.Read(make([]byte, 1))
}

// Logged is the child's line once a failed accept was logged.
const Logged = "logged accept failing\n"

// hook calls on for every record.
type hook struct{ on func(slog.Record) }

func (h *hook) Enabled(context.Context, slog.Level) bool      { return true }
func (h *hook) Handle(_ context.Context, r slog.Record) error { h.on(r); return nil }
func (h *hook) WithAttrs([]slog.Attr) slog.Handler            { return h }
func (h *hook) WithGroup(string) slog.Handler                 { return h }
