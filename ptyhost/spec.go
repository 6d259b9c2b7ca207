package ptyhost

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Defaults used when a Spec leaves a field at its zero value.
const (
	// DefaultCols and DefaultRows are the window size used when Spec.Cols or Spec.Rows
	// is not positive.
	DefaultCols, DefaultRows = 80, 24
	// DefaultKillGrace is how long Close waits after SIGHUP before it sends SIGKILL.
	DefaultKillGrace = 2 * time.Second
	// DefaultDrainGrace is how long Done waits, after the child exited, for the PTY to
	// report end of output. Only a stray process that keeps the terminal open (a daemon
	// started with its own session, say) makes it expire.
	DefaultDrainGrace = 2 * time.Second
)

// Spec describes a program to start in a PTY.
type Spec struct {
	// Argv is the program and its arguments; Argv[0] is looked up in PATH (LookPath).
	Argv []string
	// Dir is the working directory; "" means the current one.
	Dir string
	// Env holds extra KEY=VALUE entries added to os.Environ() (from which Start drops
	// COLUMNS, LINES, TMUX and TMUX_PANE). TERM, COLORTERM, AGENTMUX_PANE and
	// AGENTMUX_NAME are always set by Start and win over Env.
	Env []string
	// Cols and Rows are the window size set before the program starts (DefaultCols x
	// DefaultRows when not positive).
	Cols, Rows int
	// Pane is the pane number exported as AGENTMUX_PANE.
	Pane int
	// Name is the pane name exported as AGENTMUX_NAME.
	Name string
	// Proof is the pane's secret, exported as AGENTMUX_PROOF when not empty: a client
	// of the session socket inside the pane's process tree proves with it that it
	// speaks for the pane. agentmux's own AGENTMUX_PROOF (agentmux run inside a pane)
	// is never inherited.
	Proof string
	// UserNS starts the program in a user namespace of its own (Linux), which every
	// process started in the pane stays in: the session tells them from the person by
	// it. setuid programs cannot raise privileges there. Where the system refuses the
	// namespace, Start fails with ErrNoUserNS.
	UserNS bool
	// KillGrace is the time between SIGHUP and SIGKILL in Close (DefaultKillGrace if 0).
	KillGrace time.Duration
	// DrainGrace bounds how long Done waits for the end of output after the child
	// exited (DefaultDrainGrace if 0).
	DrainGrace time.Duration
	// EchoFirst, shared by the programs of one session, pauses the others' readers
	// while the echo of a key written to one of them is awaited (Proc.Expect); nil:
	// never.
	EchoFirst *EchoFirst
}

// ServerComm is the process name (/proc/PID/comm) of a hardened session server
// (Harden): a process with one among its parents runs inside some session.
const ServerComm = "agentmux-server"

// ErrNoCommand is returned by Start when Spec.Argv is empty or Argv[0] is "".
var ErrNoCommand = errors.New("empty command")

// ErrNoUserNS is returned (wrapped, with the start's own error) by Start when
// Spec.UserNS is set and this system refuses this process a user namespace (see
// UserNSAllowed): the program did not start, and may be started without one.
var ErrNoUserNS = errors.New("this system makes no user namespace for the pane")

// NotFoundError reports a program that LookPath could not find or cannot run. Its
// message reads `"foo": program not found`; errors.Is(err, exec.ErrNotFound) holds
// when the program does not exist (Unwrap returns the underlying cause).
type NotFoundError struct {
	// Name is the program as the user wrote it.
	Name string
	// Err is the cause: exec.ErrNotFound, or a permission or "is a directory" error.
	Err error
}

// Error returns `"name": program not found` or `"name": <cause>`.
func (e *NotFoundError) Error() string {
	if errors.Is(e.Err, exec.ErrNotFound) {
		return strconv.Quote(e.Name) + ": program not found"
	}
	return strconv.Quote(e.Name) + ": " + e.Err.Error()
}

// Unwrap returns the cause, so errors.Is(err, exec.ErrNotFound) works.
func (e *NotFoundError) Unwrap() error { return e.Err }

// LookPath resolves argv0 the way exec.LookPath does (a name with a slash is used as a
// path, anything else is searched in PATH) and returns the path to run. The error is a
// *NotFoundError with a one-line message such as `"foo": program not found`; callers
// print it after their program name (`agentmux: "foo": program not found`).
func LookPath(argv0 string) (string, error) {
	if argv0 == "" {
		return "", ErrNoCommand
	}
	path, err := exec.LookPath(argv0)
	if err == nil {
		return path, nil
	}
	var ee *exec.Error
	cause := err
	if errors.As(err, &ee) {
		cause = ee.Err
	}
	switch {
	case errors.Is(cause, exec.ErrNotFound), errors.Is(cause, fs.ErrNotExist):
		cause = exec.ErrNotFound
	case errors.Is(cause, fs.ErrPermission):
		cause = fmt.Errorf("not executable: %w", cause)
	}
	return "", &NotFoundError{Name: argv0, Err: cause}
}

// dropped are the variables of agentmux's own environment that its children do not
// inherit: COLUMNS and LINES would override the PTY size in curses programs and go stale
// on resize; TMUX and TMUX_PANE name the tmux pane agentmux runs in, not the child's, so
// a program calling tmux (or deciding it runs inside tmux) would act on the outer pane.
// The rest name the outer terminal: agent CLIs pick key and image protocols by them
// (TERM_PROGRAM=tmux, iTerm's or kitty's), which agentmux's emulator does not speak, and
// kitty's or WezTerm's remote-control variables would reach the outer window. The child
// gets TERM_PROGRAM=agentmux instead, as tmux sets its own.
var dropped = []string{
	"COLUMNS=", "LINES=", "TMUX=", "TMUX_PANE=",
	"TERM_PROGRAM=", "TERM_PROGRAM_VERSION=", "LC_TERMINAL=", "LC_TERMINAL_VERSION=",
	"ITERM_SESSION_ID=", "KITTY_WINDOW_ID=", "KITTY_PID=", "KITTY_LISTEN_ON=",
	"WEZTERM_PANE=", "WEZTERM_UNIX_SOCKET=", "KONSOLE_VERSION=", "VTE_VERSION=", "WT_SESSION=",
	ProofEnv + "=", // a pane's proof is its own: agentmux run inside a pane never passes its own on
}

// ProofEnv is the variable that carries a pane's proof (Spec.Proof).
const ProofEnv = "AGENTMUX_PROOF"

// environ builds the child's environment: os.Environ() minus the dropped variables,
// then s.Env, then the variables agentmux always sets. exec.Cmd keeps the last of
// duplicate keys.
func environ(s Spec) []string {
	base := os.Environ()
	env := make([]string, 0, len(base)+len(s.Env)+4)
next:
	for _, kv := range base {
		for _, d := range dropped {
			if strings.HasPrefix(kv, d) {
				continue next
			}
		}
		env = append(env, kv)
	}
	for _, kv := range s.Env {
		if !strings.HasPrefix(kv, ProofEnv+"=") {
			env = append(env, kv)
		}
	}
	env = append(env,
		"TERM=xterm-256color",
		"COLORTERM=truecolor",
		"TERM_PROGRAM=agentmux",
		"AGENTMUX_PANE="+strconv.Itoa(s.Pane),
		"AGENTMUX_NAME="+s.Name,
	)
	if s.Proof != "" {
		env = append(env, ProofEnv+"="+s.Proof)
	}
	return env
}

// clampSize keeps a window dimension inside what TIOCSWINSZ can hold.
func clampSize(n, def int) uint16 {
	switch {
	case n <= 0:
		return uint16(def)
	case n > 0xffff:
		return 0xffff
	}
	return uint16(n)
}
