package session

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// peersKnown says the kernel names every socket client's process (SO_PEERCRED): a
// client it does not name is not the person.
const peersKnown = true

// placesKnown says Here reads where a process runs (Place.Admits): one it cannot read
// is no one's.
const placesKnown = true

// maxNesting bounds the user namespaces userNSChain walks up (the kernel allows 32).
const maxNesting = 33

// userNSChain returns the user namespace pid runs in, then its parents as far as this
// process may see them (its own and those below it): the nsfs device and inode of
// each, read through /proc/PID/ns/user and NS_GET_PARENT. An error when pid's
// namespace cannot be read (the process is gone, or the kernel refuses).
func userNSChain(pid int) ([]nsID, error) {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/ns/user", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: "/proc/" + strconv.Itoa(pid) + "/ns/user", Err: err}
	}
	var out []nsID
	for range maxNesting {
		var st unix.Stat_t
		err := unix.Fstat(fd, &st)
		if err == nil {
			out = append(out, nsID{dev: st.Dev, ino: st.Ino})
		}
		parent, perr := unix.IoctlRetInt(fd, unix.NS_GET_PARENT)
		unix.Close(fd)
		if err != nil {
			return nil, &os.SyscallError{Syscall: "fstat", Err: err}
		}
		if perr != nil {
			break // the top, or a namespace above this process's own
		}
		fd = parent
	}
	return out, nil
}

// commOf is process pid's name as /proc/PID/comm says ("" when it cannot be read).
func commOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(b), "\n")
}

// Here is this process's Place; the zero Place when its namespace cannot be read.
func Here() Place {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return Place{}
	}
	chain, err := userNSChain(os.Getpid())
	if err != nil || len(chain) == 0 {
		return Place{}
	}
	uidMap, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return Place{}
	}
	return Place{Boot: strings.TrimSpace(string(boot)), Dev: chain[0].dev, Ino: chain[0].ino, UIDMap: strings.Join(strings.Fields(string(uidMap)), " ")}
}
