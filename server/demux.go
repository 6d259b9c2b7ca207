package server

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/agentmux/agentmux/accept"
	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/peer"
	"github.com/agentmux/agentmux/proto"
)

// This file sorts the session socket's connections by their first frame: ATTACH,
// KILL_SESSION and CLIENTS are the server's (the attach stream); everything else goes to
// the hub, the first frame given back to it unread, so its own checks (size, JSON,
// HELLO first) answer bad input exactly as before.
//
//	listener ──accept──▶ sort (one goroutine per new connection, bounded by a deadline)
//	                        ├── attach types ──▶ handle
//	                        └── anything else ──▶ demux.Accept (the hub's listener)

// firstFrameWait bounds how long a new connection may take to send its first frame.
const firstFrameWait = 10 * time.Second

// sortBudget bounds the bytes of first frames being read by the sorters, in all: a
// frame's bytes are held as they arrive, never on its announced length alone.
const sortBudget = 8 << 20

// demux is the hub's listener: it hands the hub every connection that is not the
// server's.
type demux struct {
	l      net.Listener
	handle func(net.Conn, *proto.Envelope, *peer.Process)
	conns  chan net.Conn
	quit   chan struct{}
	log    *slog.Logger
	budget *proto.Budget
	once   sync.Once
	wg     sync.WaitGroup
	mu     sync.Mutex // orders serve's start of a sorter before Close's wait
	closed bool
}

// newDemux starts sorting l's connections; handle gets the server's (it owns them);
// log gets accept failures.
func newDemux(l net.Listener, handle func(net.Conn, *proto.Envelope, *peer.Process), log *slog.Logger) *demux {
	d := &demux{l: l, handle: handle, log: log, budget: proto.NewBudget(sortBudget), conns: make(chan net.Conn), quit: make(chan struct{})}
	d.wg.Go(d.acceptLoop)
	return d
}

// acceptLoop sorts every connection; temporary failures (out of file descriptors, say)
// are waited out, so the socket serves again once they pass.
func (d *demux) acceptLoop() {
	a := accept.Loop{L: d.l, Quit: d.quit, Logger: d.log, Name: "session socket"}
	for {
		nc, err := a.Accept()
		if err != nil {
			select {
			case <-d.quit:
			default:
				d.log.Error("accept: the socket takes no more connections", "err", err)
			}
			return
		}
		d.wg.Go(func() { d.sort(nc) })
	}
}

// serve sorts nc as one of the listener's connections; false when the demux is closed.
func (d *demux) serve(nc net.Conn) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return false
	}
	d.wg.Go(func() { d.sort(nc) })
	return true
}

// sort reads nc's first frame and hands nc to its owner, with its client's process
// held from its accept on (peer.Hold): the owner asks where it runs after the first
// frame, which the client may send seconds later.
func (d *demux) sort(nc net.Conn) {
	proc := peer.Hold(nc)
	_ = nc.SetReadDeadline(time.Now().Add(firstFrameWait))
	var hdr [4]byte
	n, err := io.ReadFull(nc, hdr[:])
	if err != nil {
		d.toHub(nc, hdr[:n], proc)
		return
	}
	size := binary.BigEndian.Uint32(hdr[:])
	if size == 0 || size > attach.MaxFrame {
		d.toHub(nc, hdr[:], proc)
		return
	}
	body, err := proto.ReadBody(nc, int(size), d.budget)
	read := append(hdr[:], body...)
	if err != nil {
		// Cut short, or over the budget: the hub reads on under its own and answers.
		d.toHub(nc, read, proc)
		return
	}
	e, err := proto.Decode(body)
	if err == nil {
		switch e.Type {
		case attach.TypeAttach, attach.TypeKill, attach.TypeClients:
			_ = nc.SetReadDeadline(time.Time{})
			d.handle(nc, e, proc)
			return
		}
	}
	d.toHub(nc, read, proc)
}

// toHub gives the hub nc with the bytes already read put back in front, and its
// client's process, which the hub lets go.
func (d *demux) toHub(nc net.Conn, read []byte, proc *peer.Process) {
	_ = nc.SetReadDeadline(time.Time{})
	c := &replayConn{Conn: nc, r: io.MultiReader(bytes.NewReader(bytes.Clone(read)), nc), proc: proc}
	select {
	case d.conns <- c:
	case <-d.quit:
		nc.Close()
		proc.Close()
	}
}

// Accept returns the next connection for the hub.
func (d *demux) Accept() (net.Conn, error) {
	select {
	case c := <-d.conns:
		return c, nil
	case <-d.quit:
		return nil, net.ErrClosed
	}
}

// Close stops accepting (and sorting), closes the listener and waits for the sorters.
func (d *demux) Close() error {
	var err error
	d.once.Do(func() {
		d.mu.Lock()
		d.closed = true
		d.mu.Unlock()
		close(d.quit)
		err = d.l.Close()
		d.wg.Wait()
	})
	return err
}

// Addr is the listener's address.
func (d *demux) Addr() net.Addr { return d.l.Addr() }

// replayConn is a connection whose first bytes were read by the demux: reads give them
// back first.
type replayConn struct {
	net.Conn
	r    io.Reader
	proc *peer.Process
}

func (c *replayConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// Peer is the client's process, held since the connection was accepted.
func (c *replayConn) Peer() *peer.Process { return c.proc }

// Unwrap is the connection underneath (for peer credentials, say).
func (c *replayConn) Unwrap() net.Conn { return c.Conn }

// SyscallConn is the underlying Unix socket's, so checks of the peer's credentials see
// through the replay.
func (c *replayConn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.New("not a system connection")
}
