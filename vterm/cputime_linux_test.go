package vterm_test

import (
	"syscall"
	"time"
)

// rusageThread is RUSAGE_THREAD: the calling thread's usage only.
const rusageThread = 1

// threadCPU returns the CPU time the calling OS thread has used, or 0 when it cannot be
// read. Benchmarks lock their goroutine to its thread and report MB per CPU second next
// to MB/s, a figure other work on a shared machine disturbs much less.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
