package session

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// parentOf reads pid's parent from the kernel's process table (sysctl kern.proc.pid,
// the call ps makes): 0 when pid is gone or cannot be read. golang.org/x/sys has no
// kinfo_proc type for FreeBSD, so the record is read by kinfoParent.
func parentOf(pid int) int {
	b, err := unix.SysctlRaw("kern.proc.pid", pid)
	if err != nil {
		return 0
	}
	return kinfoParent(b, pid, int(unsafe.Sizeof(uintptr(0))))
}
