package peer

import "unsafe"

// credOf reads fd's peer's user with LOCAL_PEERCRED. From FreeBSD 13 the xucred also
// holds the peer's process (cr_pid, in the union that ends the struct, which
// golang.org/x/sys leaves unnamed); before, that word is 0 and so is PID.
func credOf(fd int) (Cred, error) {
	x, err := xucred(fd)
	if err != nil {
		return Cred{}, err
	}
	c := Cred{UID: int(x.Uid)}
	// The union is the struct's last, pointer-sized field; pid_t is its first 4 bytes.
	last := unsafe.Add(unsafe.Pointer(x), unsafe.Sizeof(*x)-unsafe.Sizeof(uintptr(0)))
	if pid := *(*int32)(last); pid > 0 {
		c.PID = int(pid)
	}
	return c, nil
}
