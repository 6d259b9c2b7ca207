//go:build !linux && !darwin && !freebsd

package peer

// credOf knows no call on this system: every peer is unknown, and the session socket
// refuses it.
func credOf(int) (Cred, error) { return Cred{}, ErrUnsupported }
