package session

import "golang.org/x/sys/unix"

// parentOf reads pid's parent from the kernel's process table (sysctl kern.proc.pid,
// the call ps makes; any user may read it): 0 when pid is gone or cannot be read.
func parentOf(pid int) int {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || int(kp.Proc.P_pid) != pid {
		return 0
	}
	return int(kp.Eproc.Ppid)
}
