package session

import "encoding/binary"

// kinfoParent reads the parent process id from b, FreeBSD's struct kinfo_proc (sys/user.h)
// for process pid as sysctl kern.proc.pid returns it, on a system whose pointers are
// ptrSize bytes. The record opens with two ints (its own size, a layout number) and
// eight pointers; then come ki_pid and ki_ppid. 0 when b is not such a record of pid: too
// short, its size field not its length, or another pid. It is here, not in the FreeBSD
// file, so that the tests read it on every system.
func kinfoParent(b []byte, pid, ptrSize int) int {
	off := 8 + 8*ptrSize // ki_pid
	if len(b) < off+8 || int(int32(binary.NativeEndian.Uint32(b))) != len(b) {
		return 0
	}
	if int(int32(binary.NativeEndian.Uint32(b[off:]))) != pid {
		return 0
	}
	return int(int32(binary.NativeEndian.Uint32(b[off+4:])))
}
