package ptyhost

import "golang.org/x/sys/unix"

// CommandLine is process pid's argument vector as the kernel keeps it (the sysctl
// kern.procargs2: the count of arguments, the executable's path, then the arguments,
// each ended by a NUL); nil when it cannot be read.
func CommandLine(pid int) []string {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil
	}
	return procArgs2(b)
}
