package hooks

import "syscall"

// changeTime is st's change time in nanoseconds (Linux's Stat_t.Ctim). st is what
// os.Lstat's FileInfo.Sys gives, a syscall.Stat_t on every system: each system names
// its change time differently (ctime_bsd.go).
func changeTime(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
