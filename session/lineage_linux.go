package session

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// maxLineage bounds the parents lineage follows.
const maxLineage = 256

// lineage returns pid, its terminal session's leader, then its parents up to (not
// including) init, as /proc says now: the processes whose pane pid may belong to.
func lineage(pid int) []int {
	out := []int{pid}
	if sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, uintptr(pid), 0, 0); errno == 0 && int(sid) > 1 {
		out = append(out, int(sid))
	}
	for range maxLineage {
		ppid := parentOf(pid)
		if ppid <= 1 {
			break
		}
		out = append(out, ppid)
		pid = ppid
	}
	return out
}

// parentOf reads pid's parent from /proc/PID/stat (0 when it cannot be read).
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) state ppid …: comm may hold spaces and parentheses, so read after
	// the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
