package peer

import "golang.org/x/sys/unix"

// credOf reads fd's peer's user with LOCAL_PEERCRED and its process with LOCAL_PEERPID
// (the last process to use the peer's end; 0 when the kernel does not say).
func credOf(fd int) (Cred, error) {
	x, err := xucred(fd)
	if err != nil {
		return Cred{}, err
	}
	c := Cred{UID: int(x.Uid)}
	if pid, err := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID); err == nil && pid > 0 {
		c.PID = pid
	}
	return c, nil
}
