//go:build unix

package demo

import (
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end the agent cleanly, restoring the terminal. (In raw mode Ctrl+C is a
// key, so SIGINT comes only from kill.)
var stopSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT}

// notifyResize delivers the terminal's size changes (SIGWINCH) on c.
func notifyResize(c chan os.Signal) { signal.Notify(c, syscall.SIGWINCH) }

// signalNumber is sig's number, for the 128+N exit status.
func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 0
}
