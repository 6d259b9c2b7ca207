package peer

import (
	"errors"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// holdFD returns a pidfd of nc's peer, pid: SO_PEERPIDFD's, the very process that
// connected, or on a kernel without it (before 6.5) pidfd_open's of pid; -1 when
// neither is to be had (a kernel before 5.3, a seccomp filter): nothing held, Alive
// cannot tell. ended says the peer had ended and been waited for, or that this
// process is out of file descriptors (a client that filled them must not pass for
// the person unheld: fail closed).
func holdFD(nc net.Conn, pid int) (fd int, ended bool) {
	err := error(unix.ENOPROTOOPT)
	if sc, ok := nc.(syscall.Conn); ok && peerPIDFD {
		if raw, rerr := sc.SyscallConn(); rerr == nil {
			_ = raw.Control(func(s uintptr) {
				fd, err = unix.GetsockoptInt(int(s), unix.SOL_SOCKET, unix.SO_PEERPIDFD)
			})
		}
	}
	switch {
	case err == nil:
		return fd, false
	case !errors.Is(err, unix.ENOPROTOOPT) && !errors.Is(err, unix.EINVAL):
		return -1, true // ESRCH (ended), EMFILE, ENFILE
	}
	fd, err = unix.PidfdOpen(pid, 0)
	switch {
	case err == nil:
		return fd, false
	case errors.Is(err, unix.ESRCH), errors.Is(err, unix.EMFILE), errors.Is(err, unix.ENFILE):
		return -1, true
	}
	return -1, false
}

// peerPIDFD is false in tests that run the path of a kernel before 6.5.
var peerPIDFD = true

// alive reports whether pidfd fd's process has not been waited for yet: signal 0
// checks without sending, and EPERM (a client of root's, which this user may not
// signal) says it is there; ESRCH that it is gone.
func alive(fd int) bool {
	err := unix.PidfdSendSignal(fd, 0, nil, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

func closeFD(fd int) { _ = unix.Close(fd) }
