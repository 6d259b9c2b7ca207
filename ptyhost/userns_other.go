//go:build !linux

package ptyhost

import "os/exec"

// startIn runs start: user namespaces are Linux's.
func startIn(_ *exec.Cmd, _ bool, start func() error) error { return start() }

// UserNSAllowed is false: user namespaces are Linux's.
func UserNSAllowed() bool { return false }

// Harden does nothing where prctl is not.
func Harden() error { return nil }

// Subreap does nothing where prctl is not: the panes are told apart by their parents
// alone.
func Subreap() error { return nil }

// forget does nothing: no orphans are reaped here.
func forget(int) {}

// RunConfined runs cmd: user namespaces are Linux's, and a session there tells its
// panes' processes by their parents.
func RunConfined(cmd *exec.Cmd) error { return cmd.Run() }
