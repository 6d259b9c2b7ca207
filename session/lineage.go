package session

import "golang.org/x/sys/unix"

// A socket client's pane is found by its processes: the client itself, its terminal
// session's leader and its parents. How a process's parent is read is the system's
// (parentOf, one small file per system): /proc on Linux, sysctl kern.proc.pid on macOS
// and FreeBSD; elsewhere no parent is known and only the client and its session leader
// are looked at. The walk is the same everywhere.

// maxLineage bounds the parents lineage follows.
const maxLineage = 256

// lineage returns pid, its terminal session's leader, then its parents up to (not
// including) init, as the kernel says now: the processes whose pane pid may belong to.
func lineage(pid int) []int { return walkLineage(pid, sessionOf, parentOf) }

// sessionOf is the leader of pid's terminal session (getsid), 0 when unknown.
func sessionOf(pid int) int {
	sid, err := unix.Getsid(pid)
	if err != nil {
		return 0
	}
	return sid
}

// walkLineage is lineage with the kernel's answers given: session and parent return 0
// when they do not know. It stops at init (pid 1) and after maxLineage parents, so a
// parent table that changes while it is read (pids are reused) cannot make it loop.
func walkLineage(pid int, session, parent func(int) int) []int {
	out := []int{pid}
	if sid := session(pid); sid > 1 {
		out = append(out, sid)
	}
	for range maxLineage {
		ppid := parent(pid)
		if ppid <= 1 {
			break
		}
		out = append(out, ppid)
		pid = ppid
	}
	return out
}
