package ptyhost

import (
	"os"
	"strconv"
)

// CommandLine is process pid's argument vector as /proc/PID/cmdline holds it; nil when
// it cannot be read (the process is gone, or hidden).
func CommandLine(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return nil
	}
	return splitArgs(b)
}
