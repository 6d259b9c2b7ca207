package ptyhost

import (
	"os"
	"strconv"
	"syscall"
)

// ExitStatus is how a child ended, in one int so it travels as a plain exit code: a
// value N >= 0 is exit(N); a negative value -N means signal N killed the child (the
// convention of Python's subprocess). String formats it as a shell user reads it.
type ExitStatus int

// statusOf converts a finished process's state to an ExitStatus.
func statusOf(st *os.ProcessState) ExitStatus {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitStatus(-int(ws.Signal()))
	}
	return ExitStatus(st.ExitCode())
}

// Signal returns the signal that killed the child, or 0 when it exited by itself.
func (s ExitStatus) Signal() syscall.Signal {
	if s < 0 {
		return syscall.Signal(-s)
	}
	return 0
}

// ShellCode is the status a POSIX shell reports in $?: the exit code, or 128 plus the
// number of the signal that killed the child (130 for SIGINT, 139 for SIGSEGV).
func (s ExitStatus) ShellCode() int {
	if s < 0 {
		return 128 - int(s)
	}
	return int(s)
}

// String is "exited (N)", or "killed (SIGNAME)" for a child a signal killed
// ("killed (signal N)" for a signal without a name here).
func (s ExitStatus) String() string {
	if s >= 0 {
		return "exited (" + strconv.Itoa(int(s)) + ")"
	}
	sig := s.Signal()
	name, ok := signalNames[sig]
	if !ok {
		name = "signal " + strconv.Itoa(int(sig))
	}
	return "killed (" + name + ")"
}

// signalNames are the names shells and kill(1) use for the signals a program can die
// of. The numbers come from package syscall, so they are right on every Unix.
var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP:    "SIGHUP",
	syscall.SIGINT:    "SIGINT",
	syscall.SIGQUIT:   "SIGQUIT",
	syscall.SIGILL:    "SIGILL",
	syscall.SIGTRAP:   "SIGTRAP",
	syscall.SIGABRT:   "SIGABRT",
	syscall.SIGBUS:    "SIGBUS",
	syscall.SIGFPE:    "SIGFPE",
	syscall.SIGKILL:   "SIGKILL",
	syscall.SIGUSR1:   "SIGUSR1",
	syscall.SIGSEGV:   "SIGSEGV",
	syscall.SIGUSR2:   "SIGUSR2",
	syscall.SIGPIPE:   "SIGPIPE",
	syscall.SIGALRM:   "SIGALRM",
	syscall.SIGTERM:   "SIGTERM",
	syscall.SIGXCPU:   "SIGXCPU",
	syscall.SIGXFSZ:   "SIGXFSZ",
	syscall.SIGVTALRM: "SIGVTALRM",
	syscall.SIGPROF:   "SIGPROF",
	syscall.SIGSYS:    "SIGSYS",
}
