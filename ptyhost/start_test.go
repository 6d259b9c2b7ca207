package ptyhost

// Start-up behaviour with real programs: the window size is in place before the program
// runs (stty prints it as its first act), the environment carries the agentmux
// variables, exit codes and signals come back, and a missing program fails cleanly.

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func TestSizeSetBeforeStart(t *testing.T) {
	p, out := start(t, Spec{Argv: []string{"stty", "size"}, Cols: 123, Rows: 45})
	waitDone(t, p)
	if got := strings.TrimSpace(out.String()); got != "45 123" {
		t.Fatalf("stty size = %q, want %q", got, "45 123")
	}
	if p.ExitCode() != 0 {
		t.Fatalf("exit code %d", p.ExitCode())
	}
}

func TestDefaultSize(t *testing.T) {
	out := &syncBuf{}
	p, err := Start(Spec{Argv: []string{"stty", "size"}}, out)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitDone(t, p)
	if got := strings.TrimSpace(out.String()); got != "24 80" {
		t.Fatalf("stty size = %q, want 24 80", got)
	}
}

func TestEnvironment(t *testing.T) {
	t.Setenv("TERM", "xterm-kitty")
	t.Setenv("COLUMNS", "999")
	t.Setenv("TMUX", "/tmp/tmux-0/default,1234,0")
	t.Setenv("TMUX_PANE", "%7")
	t.Setenv("TERM_PROGRAM", "tmux")
	t.Setenv("TERM_PROGRAM_VERSION", "3.3a")
	t.Setenv("KITTY_WINDOW_ID", "1")
	p, out := start(t, Spec{
		Argv: []string{"sh", "-c", `echo "T=$TERM C=$COLORTERM P=$AGENTMUX_PANE N=$AGENTMUX_NAME X=$EXTRA W=${COLUMNS-unset} M=${TMUX-unset},${TMUX_PANE-unset} D=$(pwd) TP=${TERM_PROGRAM-unset},${TERM_PROGRAM_VERSION-unset},${KITTY_WINDOW_ID-unset}"`},
		Env:  []string{"EXTRA=yes", "TERM=dumb"},
		Pane: 3, Name: "alice", Dir: "/tmp",
	})
	waitDone(t, p)
	want := "T=xterm-256color C=truecolor P=3 N=alice X=yes W=unset M=unset,unset D=/tmp TP=agentmux,unset,unset"
	if got := strings.TrimSpace(out.String()); got != want {
		t.Fatalf("env line = %q, want %q", got, want)
	}
}

// A pane's proof is its own: set from Spec.Proof, never inherited from agentmux's own
// environment (agentmux run inside another's pane) nor taken from Spec.Env.
func TestEnvironmentProof(t *testing.T) {
	t.Setenv(ProofEnv, "outer-session-proof")
	script := `echo "R=${AGENTMUX_PROOF-unset}"`
	p, out := start(t, Spec{Argv: []string{"sh", "-c", script}, Env: []string{ProofEnv + "=planted"}, Proof: "0123abcd"})
	waitDone(t, p)
	if got := strings.TrimSpace(out.String()); got != "R=0123abcd" {
		t.Fatalf("env line = %q, want the spec's proof", got)
	}
	p, out = start(t, Spec{Argv: []string{"sh", "-c", script}, Env: []string{ProofEnv + "=planted"}})
	waitDone(t, p)
	if got := strings.TrimSpace(out.String()); got != "R=unset" {
		t.Fatalf("env line = %q, want no proof", got)
	}
}

func TestExitCodeAndOutputDrained(t *testing.T) {
	p, out := start(t, Spec{Argv: []string{"sh", "-c", "printf hello; exit 3"}})
	waitDone(t, p)
	if got := p.ExitCode(); got != 3 {
		t.Fatalf("ExitCode = %d, want 3", got)
	}
	if got := out.String(); got != "hello" {
		t.Fatalf("output after Done = %q, want %q", got, "hello")
	}
}

func TestExitBySignal(t *testing.T) {
	cases := []struct {
		script string
		sig    syscall.Signal
		want   string
		shell  int
	}{
		{"kill -KILL $$", syscall.SIGKILL, "killed (SIGKILL)", 137},
		{"sleep 0.01; kill -TERM $$", syscall.SIGTERM, "killed (SIGTERM)", 143},
	}
	for _, c := range cases {
		p, _ := start(t, Spec{Argv: []string{"sh", "-c", c.script}})
		waitDone(t, p)
		if got := p.ExitCode(); got != -int(c.sig) {
			t.Errorf("%s: ExitCode = %d, want %d", c.script, got, -int(c.sig))
		}
		st := p.ExitStatus()
		if st.String() != c.want || st.Signal() != c.sig || st.ShellCode() != c.shell {
			t.Errorf("%s: ExitStatus %q signal %v shell code %d, want %q %v %d", c.script, st, st.Signal(), st.ShellCode(), c.want, c.sig, c.shell)
		}
		ws, ok := p.ExitState().Sys().(syscall.WaitStatus)
		if !ok || !ws.Signaled() || ws.Signal() != c.sig {
			t.Errorf("%s: ExitState = %v, want killed by %v", c.script, p.ExitState(), c.sig)
		}
	}
}

func TestExitStatusString(t *testing.T) {
	cases := []struct {
		s     ExitStatus
		want  string
		shell int
	}{
		{0, "exited (0)", 0},
		{3, "exited (3)", 3},
		{255, "exited (255)", 255},
		{ExitStatus(-int(syscall.SIGSEGV)), "killed (SIGSEGV)", 128 + int(syscall.SIGSEGV)},
		{ExitStatus(-int(syscall.SIGINT)), "killed (SIGINT)", 130},
		{ExitStatus(-int(syscall.SIGHUP)), "killed (SIGHUP)", 129},
		{-40, "killed (signal 40)", 168},
	}
	for _, c := range cases {
		if got := c.s.String(); got != c.want {
			t.Errorf("ExitStatus(%d).String() = %q, want %q", int(c.s), got, c.want)
		}
		if got := c.s.ShellCode(); got != c.shell {
			t.Errorf("ExitStatus(%d).ShellCode() = %d, want %d", int(c.s), got, c.shell)
		}
	}
}

func TestNotFound(t *testing.T) {
	_, err := Start(Spec{Argv: []string{"agentmux-no-such-program"}}, &syncBuf{})
	if err == nil {
		t.Fatal("Start of a missing program succeeded")
	}
	if !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("error %v is not exec.ErrNotFound", err)
	}
	if want := `"agentmux-no-such-program": program not found`; err.Error() != want {
		t.Fatalf("error = %q, want %q", err, want)
	}
	if _, err := LookPath("/nonexistent/dir/prog"); !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("LookPath with a slash: %v", err)
	}
	if _, err := LookPath("/etc"); err == nil || errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("LookPath(/etc) = %v, want a not-executable error", err)
	}
	if path, err := LookPath("sh"); err != nil || !strings.HasSuffix(path, "/sh") {
		t.Fatalf("LookPath(sh) = %q, %v", path, err)
	}
}

func TestEmptyCommand(t *testing.T) {
	for _, argv := range [][]string{nil, {""}} {
		if _, err := Start(Spec{Argv: argv}, &syncBuf{}); !errors.Is(err, ErrNoCommand) {
			t.Fatalf("Start(%q) = %v, want ErrNoCommand", argv, err)
		}
	}
}

func TestOwnProcessGroup(t *testing.T) {
	p, _ := start(t, Spec{Argv: []string{"sleep", "100"}})
	pgid, err := syscall.Getpgid(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	sid, err := unix.Getsid(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	if pgid != p.Pid() || sid != p.Pid() {
		t.Fatalf("pid %d: pgid %d sid %d, want both equal to pid", p.Pid(), pgid, sid)
	}
	if p.ExitCode() != -1 || p.ExitState() != nil {
		t.Fatalf("running child: ExitCode %d ExitState %v, want -1 and nil", p.ExitCode(), p.ExitState())
	}
}
