//go:build linux || openbsd || dragonfly || solaris

package hooks

import "syscall"

// changeTime is st's change time in nanoseconds (Stat_t.Ctim on these systems).
func changeTime(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
