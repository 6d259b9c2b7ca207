// Package ptytest runs a program in a pseudo-terminal for tests and reads its screen
// through our emulator, vterm. It owns the plumbing the end-to-end tests (e2e), the
// whole-program benchmarks (internal/sysbench) and the real-CLI tests (agents) share: the
// PTY and its non-blocking master, the reader goroutine that feeds a vterm.Terminal and
// signals a coalescing update channel, the one ordered writer that carries both typed input
// and the emulator's answers to the program's queries, window-size changes, waiting for a
// screen condition with a deadline, and ending the program and its process group.
//
// What a harness checks on top (e2e's panes found by their border titles, sysbench's /proc
// readers and timings, agents' title log) stays in the harness. Only tests import this
// package; it imports vterm and nothing else of the project.
package ptytest
