package peer

import "golang.org/x/sys/unix"

// credOf reads the user and process of fd's peer with SO_PEERCRED: the kernel took
// them when the peer connected.
func credOf(fd int) (Cred, error) {
	u, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return Cred{}, err
	}
	return Cred{UID: int(u.Uid), PID: int(u.Pid)}, nil
}
