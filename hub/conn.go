package hub

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/agentmux/agentmux/peer"
	"github.com/agentmux/agentmux/proto"
)

// conn is one client connection. Its reader goroutine reads and decodes frames and hands
// them to the hub's loop; its writer goroutine owns the write side: it drains out, and
// sends PING when nothing was written for a heartbeat. The loop owns everything else
// (connState); out is only sent to, and closed, by the loop.
type conn struct {
	id int
	nc net.Conn
	// proc is the client's process as the kernel named it when it connected (PID 0:
	// unknown), held so that a PID read later is known to still name it; the reader
	// lets it go when the connection ends.
	proc *peer.Process
	out  chan []byte // framed bytes; closed by the loop to end the writer
	// queued counts the bytes in out: the loop adds, the writer subtracts once written.
	queued atomic.Int64
	// gone is closed by the writer when it has closed the socket.
	gone chan struct{}
}

// Events from connections to the loop.
type (
	// frameIn is a decoded envelope.
	frameIn struct {
		c *conn
		e *proto.Envelope
	}
	// connEnded: the reader stopped. bad is set for bad input (the connection gets
	// ERROR with code, then closes); otherwise err says why it ended (EOF, timeout).
	connEnded struct {
		c    *conn
		err  error
		bad  bool
		code string
	}
)

// read is the reader goroutine: one frame at a time with a deadline of two heartbeats,
// so a silent peer is dead after 2× heartbeat. It stops at the first error or bad frame.
// A frame's bytes are held in the hub's frame budget while they arrive (a connection
// that would pass it is closed with an ERROR saying so), and no buffer is kept between
// frames: an idle connection holds no frame memory.
func (h *Hub) read(c *conn) {
	defer c.proc.Close()
	for {
		c.nc.SetReadDeadline(time.Now().Add(2 * h.cfg.Heartbeat))
		body, err := proto.ReadFrameIn(c.nc, h.cfg.MaxFrameBytes, h.budget)
		h.giveBack()
		if err != nil {
			ev := connEnded{c: c, err: err}
			switch {
			case errors.Is(err, proto.ErrFrameTooLarge):
				ev.bad, ev.code = true, proto.CodeTooLarge
			case errors.Is(err, proto.ErrBudget):
				ev.bad, ev.code = true, proto.CodeInternal
				ev.err = fmt.Errorf("the session is reading too many large frames at once (%w): try again", err)
			case errors.Is(err, proto.ErrEmptyFrame):
				ev.bad, ev.code = true, proto.CodeBadRequest
			case errors.Is(err, os.ErrDeadlineExceeded):
				ev.err = fmt.Errorf("no frame for %v: dead", 2*h.cfg.Heartbeat)
			case errors.Is(err, io.ErrUnexpectedEOF):
				ev.err = errors.New("closed mid-frame")
			}
			h.post(ev)
			return
		}
		e, err := proto.Decode(body)
		if err != nil {
			h.post(connEnded{c: c, err: err, bad: true, code: proto.CodeBadRequest})
			return
		}
		if !h.post(frameIn{c: c, e: e}) {
			return
		}
	}
}

// giveBackAt is the most bytes frames being read may have held before the memory is
// given back to the system once none is read any more.
const giveBackAt = 8 << 20

// giveBack returns the memory of large frames to the system (a GC and a scavenge, on a
// goroutine of its own, one at a time) once no frame is being read and the frames read
// since the last time held more than giveBackAt: a spell of many large or unfinished
// frames leaves the process as small as it was.
func (h *Hub) giveBack() {
	if h.budget.Used() != 0 || h.budget.TakePeak() < giveBackAt || !h.freeing.CompareAndSwap(false, true) {
		return
	}
	h.wg.Add(1) // safe: a reader, counted, calls it
	go func() {
		defer h.wg.Done()
		defer h.freeing.Store(false)
		debug.FreeOSMemory()
	}()
}

// write is the writer goroutine. A write that cannot finish within two heartbeats (a
// peer that does not read) ends the connection. The loop closes out for every
// connection it knows before it ends (and waits for them); h.done ends the others.
func (h *Hub) write(c *conn) {
	defer close(c.gone)
	defer c.nc.Close()
	ping := time.NewTimer(h.cfg.Heartbeat)
	defer ping.Stop()
	nonce := 0
	for {
		var b []byte
		select {
		case m, ok := <-c.out:
			if !ok {
				return
			}
			b = m
			c.queued.Add(-int64(len(m)))
		case <-ping.C:
			// Every heartbeat, however busy the connection is this way: a peer that
			// only listens answers nothing else, and is dead after two heartbeats
			// without a frame from it.
			ping.Reset(h.cfg.Heartbeat)
			nonce++
			e, _ := proto.New(proto.TypePing, "ping-"+strconv.Itoa(nonce), h.cfg.Now().UnixMilli(), proto.Ping{Nonce: strconv.Itoa(nonce)})
			body, _ := proto.Encode(e)
			b = proto.AppendFrame(nil, body)
		case <-h.done:
			// The loop ended without knowing this connection (it was accepted while
			// the hub closed): nobody will close out.
			return
		}
		c.nc.SetWriteDeadline(time.Now().Add(2 * h.cfg.Heartbeat))
		if _, err := c.nc.Write(b); err != nil {
			// The reader sees the closed socket and reports the end to the loop;
			// draining out keeps the loop's sends from ever blocking on us.
			c.nc.Close()
			for {
				select {
				case _, ok := <-c.out:
					if !ok {
						return
					}
				case <-h.done:
					return
				}
			}
		}
	}
}
