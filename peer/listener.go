package peer

import (
	"fmt"
	"net"
)

// OwnUser returns l taking connections from this user and root only. Its Accept closes
// every connection whose peer is another user, or whose peer the kernel does not name,
// tells refused why (when refused is not nil), and waits for the next; errors of l's own
// Accept are returned as they are.
func OwnUser(l net.Listener, refused func(error)) net.Listener {
	return &ownUser{Listener: l, refused: refused}
}

type ownUser struct {
	net.Listener
	refused func(error)
}

func (o *ownUser) Accept() (net.Conn, error) {
	for {
		nc, err := o.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c, err := Of(nc)
		if err == nil && !c.Trusted() {
			err = fmt.Errorf("a client of user %d (pid %d) refused: only your own user and root may connect", c.UID, c.PID)
		}
		if err == nil {
			return nc, nil
		}
		nc.Close()
		if o.refused != nil {
			o.refused(err)
		}
	}
}
