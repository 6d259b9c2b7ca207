package peer

import (
	"net"
	"sync"
)

// Process is the client process at the other end of a connection, held from when it
// was asked: a process id alone can name another process once its own ends (the kernel
// hands numbers out again), so a check that reads /proc/PID some time after the client
// connected would read whichever process took the number. Where the system can hold a
// process (Linux: a pidfd), Alive tells whether the one held still runs, and so whether
// PID still names it; elsewhere it cannot tell.
type Process struct {
	// PID is the process id the kernel gave for the peer (0: unknown).
	PID   int
	ended bool // the process had ended (and been waited for) when it was asked

	mu       sync.Mutex // Alive and Close may come from different goroutines
	fd       int        // a pidfd; -1 when none is held
	released bool       // Close let the pidfd go
}

// Hold returns nc's peer process, held (see Process): on Linux 6.5 and later the very
// process that connected (SO_PEERPIDFD), on older Linux the one that has its id now,
// which is the client's when Hold is called as soon as the connection is accepted.
// Close lets it go.
func Hold(nc net.Conn) *Process {
	p := &Process{fd: -1}
	c, err := Of(nc)
	if err != nil {
		return p
	}
	p.PID = c.PID
	if p.PID > 0 {
		p.fd, p.ended = holdFD(nc, p.PID)
	}
	return p
}

// Alive reports whether the process held still runs (a process that ended but was not
// yet waited for counts: its number is still its own); false for one that had ended
// when it was asked, and once Close let it go (fail closed: a frame read before the
// connection ended is still handled after). True where none was held: this system
// cannot tell.
func (p *Process) Alive() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.ended || p.released:
		return false
	case p.fd < 0:
		return true
	}
	return alive(p.fd)
}

// Close lets the process go: Alive says false from then on, where it was held.
func (p *Process) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fd >= 0 {
		closeFD(p.fd)
		p.fd, p.released = -1, true
	}
}
