package peer

import (
	"net"
	"syscall"
)

// PID is the process id of the client at the other end of nc, as the kernel says
// (SO_PEERCRED, taken when it connected); 0 when unknown. nc may wrap the Unix socket
// (a session server hands the hub connections whose first frame it read) as long as
// it gives the socket's SyscallConn.
func PID(nc net.Conn) int {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return 0
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return 0
	}
	pid := 0
	_ = raw.Control(func(fd uintptr) {
		if cred, err := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED); err == nil {
			pid = int(cred.Pid)
		}
	})
	return pid
}
