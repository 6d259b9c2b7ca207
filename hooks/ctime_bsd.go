//go:build darwin || freebsd || netbsd

package hooks

import "syscall"

// changeTime is st's change time in nanoseconds (Stat_t.Ctimespec on macOS and the
// BSDs; Linux's is ctime_linux.go).
func changeTime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
