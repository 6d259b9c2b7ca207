//go:build !linux && !darwin

package ptyhost

// CommandLine is nil: processes are not read here.
func CommandLine(int) []string { return nil }
