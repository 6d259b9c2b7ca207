package peer

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
)

// Cred is what the kernel says of the process at the other end of a Unix socket.
type Cred struct {
	// UID is the process's effective user id.
	UID int
	// PID is its process id; 0 where the system does not say (see the package's table).
	PID int
}

// ErrUnsupported means this system tells nothing of a socket's peer.
var ErrUnsupported = errors.New("this system does not tell who is at the other end of a socket")

// readCred is the system's credOf; tests replace it to run the path of a system that
// gives the user alone.
var readCred = credOf

// Of returns what the kernel says of the client at the other end of nc. nc may wrap the
// Unix socket (a session server hands the hub connections whose first frame it read) as
// long as it gives the socket's SyscallConn.
func Of(nc net.Conn) (Cred, error) {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return Cred{}, fmt.Errorf("peer credentials: %T is no socket", nc)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return Cred{}, fmt.Errorf("peer credentials: %w", err)
	}
	var c Cred
	var cerr error
	if err := raw.Control(func(fd uintptr) { c, cerr = readCred(int(fd)) }); err != nil {
		return Cred{}, fmt.Errorf("peer credentials: %w", err)
	}
	if cerr != nil {
		return Cred{}, fmt.Errorf("peer credentials: %w", cerr)
	}
	return c, nil
}

// PID is the process id of the client at the other end of nc, as the kernel says; 0
// when unknown (no socket, or a system that does not say).
func PID(nc net.Conn) int {
	c, err := Of(nc)
	if err != nil {
		return 0
	}
	return c.PID
}

// Trusted reports whether c's process runs as this process's user or as root: the only
// users whose clients a session takes, as tmux does (root can read this user's files
// and processes anyway).
func (c Cred) Trusted() bool { return c.UID == os.Geteuid() || c.UID == 0 }
