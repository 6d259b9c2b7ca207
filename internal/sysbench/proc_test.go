package sysbench

// Readers of /proc for the CPU and memory benchmarks: CPU time (utime+stime of every
// thread, in clock ticks of 10 ms: Linux's USER_HZ is 100 on every platform Go supports
// here), context switches summed over the threads (each one a wake-up), and resident
// memory. TestProcReaders checks them on the test process itself.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// clkTck is USER_HZ, the unit of utime and stime in /proc/PID/stat.
const clkTck = 100

// cpuTicks returns utime+stime of process pid (all its threads) in clock ticks.
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("cpu time: %w", err)
	}
	// The command name (field 2) is in parentheses and may hold spaces: count from after it.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("cpu time: malformed /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("cpu time: short /proc/%d/stat", pid)
	}
	// f[0] is field 3 (state), so utime (14) and stime (15) are f[11] and f[12].
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("cpu time: bad utime/stime in /proc/%d/stat", pid)
	}
	return utime + stime, nil
}

// switches returns the voluntary and involuntary context switches summed over the
// threads of pid that exist now.
func switches(pid int) (int64, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("context switches of %d: no threads found", pid)
	}
	var sum int64
	for _, t := range tasks {
		st, err := statusFields(t, "voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")
		if err != nil {
			continue // the thread ended between the glob and the read
		}
		sum += st[0] + st[1]
	}
	return sum, nil
}

// memoryKB returns VmHWM (peak resident set) and VmRSS of pid in kB.
func memoryKB(pid int) (peak, rss int64, err error) {
	v, err := statusFields(fmt.Sprintf("/proc/%d/status", pid), "VmHWM", "VmRSS")
	if err != nil {
		return 0, 0, err
	}
	return v[0], v[1], nil
}

// statusFields reads the first number of each named field of a /proc status file.
func statusFields(path string, names ...string) ([]int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	out := make([]int64, len(names))
	found := 0
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		for i, n := range names {
			if k == n {
				f := strings.Fields(v)
				if len(f) == 0 {
					return nil, fmt.Errorf("%s: empty %s", path, n)
				}
				if out[i], err = strconv.ParseInt(f[0], 10, 64); err != nil {
					return nil, fmt.Errorf("%s: %s: %w", path, n, err)
				}
				found++
			}
		}
	}
	if found != len(names) {
		return nil, fmt.Errorf("%s: missing one of %v", path, names)
	}
	return out, nil
}

func TestProcReaders(t *testing.T) {
	pid := os.Getpid()
	before := mustTicks(t, pid)
	// Burn CPU until the ticks move by 5 (50 ms), or fail after 5 s of wall time.
	x := 0
	for deadline := time.Now().Add(5 * time.Second); mustTicks(t, pid)-before < 5; {
		if time.Now().After(deadline) {
			t.Fatalf("cpu ticks moved by %d in 5 s of a busy loop", mustTicks(t, pid)-before)
		}
		for i := range 1 << 20 {
			x ^= i
		}
	}
	_ = x
	if n, err := switches(pid); err != nil || n <= 0 {
		t.Errorf("switches = %d, %v", n, err)
	}
	peak, rss, err := memoryKB(pid)
	if err != nil || rss <= 0 || peak < rss {
		t.Errorf("memory: peak %d kB, rss %d kB, %v", peak, rss, err)
	}
}

func mustTicks(t *testing.T, pid int) int64 {
	t.Helper()
	n, err := cpuTicks(pid)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
