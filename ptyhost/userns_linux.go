package ptyhost

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// A pane's program starts in a user namespace of its own (Spec.UserNS) that maps the
// user's ids 1:1: files, signals and sockets work as before, but no process started
// in the pane, whatever it does (setsid, a double fork, its parent's exit), can leave
// that namespace, and the session server tells it from the person by it. setuid
// programs (sudo) cannot raise privileges inside it.

var (
	// spawnMu orders pane starts against the dumpable flag they lift and against the
	// orphan reaper, which must never take a pane's own program's exit status.
	spawnMu sync.Mutex
	// leaders are the pids of the panes' programs not yet waited for.
	leaders = map[int]bool{}
)

// forget drops pid, a pane's program that was waited for, from leaders.
func forget(pid int) {
	spawnMu.Lock()
	delete(leaders, pid)
	spawnMu.Unlock()
}

// startIn runs start (which forks cmd) with cmd set to enter a user namespace of its
// own when userNS. The parent writes the child's id maps under /proc/CHILD, which a
// process made non-dumpable (Harden) cannot open as a user other than root: the flag
// is lifted for the fork alone.
func startIn(cmd *exec.Cmd, userNS bool, start func() error) error {
	spawnMu.Lock()
	defer spawnMu.Unlock()
	defer func() {
		if cmd.Process != nil {
			leaders[cmd.Process.Pid] = true
		}
	}()
	if !userNS {
		return start()
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr.Cloneflags |= newUserNS
	cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	cmd.SysProcAttr.GidMappingsEnableSetgroups = false
	if uid != 0 {
		if d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); err == nil && d == 0 {
			_ = unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
			defer unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) //nolint:errcheck // set above
		}
	}
	return start()
}

var (
	userNSOnce    sync.Once
	userNSAllowed bool
	// newUserNS is the clone flag that makes a pane's namespace; tests add one the
	// kernel refuses beside it (CLONE_FS), as a system that makes none refuses it.
	newUserNS uintptr = syscall.CLONE_NEWUSER
)

// UserNSAllowed reports whether this process may start a program in a user namespace
// of its own (the kernel, a container's seccomp filter or an AppArmor rule may refuse
// it). It forks once, on the first call, towards a program that does not exist: the
// clone and the id maps succeed or fail before the exec does. Start asks only when a
// start in a namespace failed, so where namespaces are made no start pays this fork.
func UserNSAllowed() bool {
	userNSOnce.Do(func() {
		cmd := exec.Command("/nonexistent/agentmux-user-namespace-probe")
		cmd.Path = cmd.Args[0]
		err := startIn(cmd, true, cmd.Start)
		if err == nil {
			_ = cmd.Wait()
			forget(cmd.Process.Pid)
		}
		userNSAllowed = errors.Is(err, syscall.ENOENT)
	})
	return userNSAllowed
}

// Harden names this process ServerComm and makes it (a session server) non-dumpable,
// so that no process of the same user without privileges (a pane's program) may trace
// it or read its memory, environment or open files through /proc.
func Harden() error {
	// The name every session's checks look for among a client's parents (the main
	// thread's, which /proc/PID/comm shows; a thread may name others of its group).
	if err := os.WriteFile("/proc/self/task/"+strconv.Itoa(os.Getpid())+"/comm", []byte(ServerComm), 0); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return &os.SyscallError{Syscall: "prctl(PR_SET_DUMPABLE)", Err: err}
	}
	return nil
}

var subreapOnce sync.Once

// Subreap makes this process the reaper of its panes' orphans, so that a process whose
// parent exited still has the server among its parents, and reaps them as they exit.
// A second call does nothing.
func Subreap() error {
	var err error
	subreapOnce.Do(func() {
		if err = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			err = &os.SyscallError{Syscall: "prctl(PR_SET_CHILD_SUBREAPER)", Err: err}
			return
		}
		chld := make(chan os.Signal, 1)
		signal.Notify(chld, syscall.SIGCHLD)
		go func() {
			for range chld {
				reapOrphans()
			}
		}()
	})
	return err
}

// reapOrphans waits for the exited orphans the kernel handed this process as their
// reaper: its zombie children of another terminal session than its own (its own
// children other than panes share its session) that are no pane's program (whose
// waiter takes its status).
func reapOrphans() {
	self := os.Getpid()
	sid, err := unix.Getsid(0)
	if err != nil {
		return
	}
	names, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	spawnMu.Lock()
	defer spawnMu.Unlock()
	for _, n := range names {
		pid, err := strconv.Atoi(n.Name())
		if err != nil || leaders[pid] {
			continue
		}
		b, err := os.ReadFile("/proc/" + n.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session …, read after the last ')'.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 4 || f[0] != "Z" || f[1] != strconv.Itoa(self) || f[3] == strconv.Itoa(sid) {
			continue
		}
		var ws unix.WaitStatus
		_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
	}
}

// RunConfined runs cmd to its end as a pane's program starts: in a user namespace of
// its own where the system makes them, so that nothing it starts (a program named in
// a repository's config that git runs, say) is told for the person at a session
// socket. Where no namespace can be made it runs cmd as is.
func RunConfined(cmd *exec.Cmd) error {
	if err := startIn(cmd, UserNSAllowed(), cmd.Start); err != nil {
		return err
	}
	defer forget(cmd.Process.Pid)
	return cmd.Wait()
}
