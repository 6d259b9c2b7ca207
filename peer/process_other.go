//go:build !linux

package peer

import "net"

// holdFD holds nothing here: this system has no pidfd, and Alive cannot tell.
func holdFD(net.Conn, int) (int, bool) { return -1, false }

func alive(int) bool { return true }

func closeFD(int) {}
