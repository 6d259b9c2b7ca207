//go:build !unix

package demo

import "os"

// stopSignals end the agent cleanly, restoring the terminal.
var stopSignals = []os.Signal{os.Interrupt}

// notifyResize does nothing: without SIGWINCH the agent keeps its first size.
func notifyResize(chan os.Signal) {}

// signalNumber is sig's number, for the 128+N exit status.
func signalNumber(os.Signal) int { return 2 }
