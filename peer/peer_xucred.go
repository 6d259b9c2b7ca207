//go:build darwin || freebsd

package peer

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// xucredVersion is XUCRED_VERSION of sys/ucred.h (0 on macOS and FreeBSD alike).
const xucredVersion = 0

// xucred reads fd's peer's credentials with LOCAL_PEERCRED, taken when the peer
// connected: getpeereid(3) reads the same.
func xucred(fd int) (*unix.Xucred, error) {
	x, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return nil, err
	}
	if x.Version != xucredVersion {
		return nil, fmt.Errorf("LOCAL_PEERCRED: xucred version %d, not %d", x.Version, xucredVersion)
	}
	return x, nil
}
