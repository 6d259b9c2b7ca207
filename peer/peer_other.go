//go:build !linux

package peer

import "net"

// PID is 0 (unknown) where the kernel's peer credentials are not read.
func PID(net.Conn) int { return 0 }
