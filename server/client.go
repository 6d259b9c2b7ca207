package server

import (
	"bytes"
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ui"
)

// This file is one attached terminal on the server: a reader goroutine turning its
// frames into input chunks, sizes and a detach; the ui running for it (ui.Attach),
// decoding the chunks as they come and writing through out; and the end frame saying
// why the stream ended.
//
//	conn ──frames──▶ reader ──input──▶ queue ──▶ ui.Attach (decode) ──▶ out ──▶ conn
//	                   ├──resize──▶ latest size ──▶ forwarder ──▶ ui            ▲ room
//	                   ├──ack──────────────────────────────────────────────────┘
//	                   └──detach / bad frame──▶ reason, cancel
//
// The reader never waits for the ui (input goes through a queue, sizes through a slot
// that keeps the latest), so the acks it reads reach a waiting write even while the ui is
// busy or ending (its last writes undo the terminal's modes, and must not wait behind
// input nobody reads any more).
//
// A client that acknowledges output (Request.Acks) gets at most outputWindow bytes ahead
// of what it has written to its terminal. While it is behind, the screen writer waits
// and its one-frame slot keeps only the newest picture, so a slow terminal (or one whose
// client is not scheduled for a while) is sent the current screen when it catches up,
// never a queue of stale frames that a key's echo would wait behind.

// writeWait bounds one write to a client: a terminal that stops reading for this long
// is detached rather than holding its drawing goroutine.
const writeWait = 10 * time.Second

// inputQueue is how many input frames may wait for the ui; past it the reader waits
// (and the client's sends with it) until the ui takes one or starts ending.
const inputQueue = 64

// keptOutput is the largest buffer a client's output keeps between writes.
const keptOutput = 1 << 20

// outputWindow is how many output bytes a client that acknowledges output may have
// unacknowledged; a write larger than that (a whole screen) goes once nothing is.
const outputWindow = 16 << 10

// Why a write to a client that acknowledges output fails.
var (
	errClientGone = errors.New("the client's connection ended")
	errNoAcks     = errors.New("the terminal acknowledged no output for too long")
	errExtraAck   = errors.New("an ack for more output than was sent")
	errNoWindow   = errors.New("an ack from a client that did not ask to send them")
)

// client is one attached terminal. Its fields after the registry's are owned as noted.
type client struct {
	id       int
	readOnly bool
	fixed    bool // the terminal the session runs in (Local): it is never detached
	since    time.Time
	control  chan struct{} // capacity 1: this client just took control
	cancel   context.CancelFunc
	active   uint64 // when it was last active, in the server's activity count (s.mu)

	sizeMu sync.Mutex
	sz     ui.Size // the terminal's latest size

	reasonMu sync.Mutex
	reason   attach.Reason // set once, by whoever ends the stream first
	message  string
}

func (c *client) size() ui.Size {
	c.sizeMu.Lock()
	defer c.sizeMu.Unlock()
	return c.sz
}

// end sets why the stream ends (the first reason wins) and stops the client's ui.
func (c *client) end(r attach.Reason, msg string) {
	c.reasonMu.Lock()
	if c.reason == "" {
		c.reason, c.message = r, msg
	}
	c.reasonMu.Unlock()
	c.cancel()
}

func (c *client) why() (attach.Reason, string) {
	c.reasonMu.Lock()
	defer c.reasonMu.Unlock()
	return c.reason, c.message
}

// out is a client's terminal output: each write goes as output frames, serialised with
// the end frame. With window set (the client acknowledges output) a write waits until
// the unacknowledged bytes leave room for it.
type out struct {
	nc   net.Conn
	mu   sync.Mutex // serialises writes and the end frame
	fail func()

	buf []byte // the frames of one write, reused (under mu)
	// broken is the first write's error (under mu): every later write, the end frame
	// too, fails at once with it rather than wait out writeWait again on a terminal
	// that stopped reading (four such waits held a detach for 40 s).
	broken error

	window  int           // 0: the client sends no acks
	patient time.Duration // how long a write waits for an ack
	flowMu  sync.Mutex    // guards unacked
	unacked int           // output bytes sent and not yet acknowledged
	acked   chan struct{} // capacity 1: an ack came
	gone    chan struct{} // closed when the connection's reader ends
}

// newOut returns the output of a client on nc; window 0 when it sends no acks.
func newOut(nc net.Conn, window int, fail func()) *out {
	return &out{nc: nc, fail: fail, window: window, patient: writeWait, acked: make(chan struct{}, 1), gone: make(chan struct{})}
}

func (o *out) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken != nil {
		return 0, o.broken
	}
	if err := o.room(len(p)); err != nil {
		o.broken = err
		o.fail()
		return 0, err
	}
	// Every frame of p in one write of the connection: one system call per frame drawn,
	// and p copied once.
	o.buf = attach.AppendOutput(o.buf[:0], p)
	_ = o.nc.SetWriteDeadline(time.Now().Add(writeWait))
	if _, err := o.nc.Write(o.buf); err != nil {
		o.broken = err
		o.fail()
		return 0, err
	}
	if cap(o.buf) > keptOutput {
		o.buf = nil // a whole-screen repaint of a huge terminal: not kept for the next frame
	}
	return len(p), nil
}

// room waits until n more bytes fit the window (always at once without one), and
// counts them as sent. It fails when the connection ends or no ack comes for o.patient
// (writeWait: a terminal that stopped reading is detached, as one whose writes block).
func (o *out) room(n int) error {
	if o.window == 0 {
		return nil
	}
	var expire <-chan time.Time
	for {
		o.flowMu.Lock()
		if o.unacked == 0 || o.unacked+n <= o.window {
			o.unacked += n
			o.flowMu.Unlock()
			return nil
		}
		o.flowMu.Unlock()
		if expire == nil {
			t := time.NewTimer(o.patient)
			defer t.Stop()
			expire = t.C
		}
		select {
		case <-o.acked:
		case <-o.gone:
			return errClientGone
		case <-expire:
			return errNoAcks
		}
	}
}

// ack takes the client's ack of n output bytes written to its terminal.
func (o *out) ack(n int) error {
	if o.window == 0 {
		return errNoWindow
	}
	o.flowMu.Lock()
	if n > o.unacked {
		o.flowMu.Unlock()
		return errExtraAck
	}
	o.unacked -= n
	o.flowMu.Unlock()
	signal(o.acked)
	return nil
}

func (o *out) frame(body []byte) error {
	_ = o.nc.SetWriteDeadline(time.Now().Add(writeWait))
	return proto.WriteFrame(o.nc, body)
}

// endFrame writes the end frame.
func (o *out) endFrame(r attach.Reason, msg string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.broken == nil {
		_ = o.frame(attach.End(r, msg))
	}
}

// attach runs one terminal's stream to its end.
func (s *Server) attach(nc net.Conn, e *proto.Envelope) {
	defer nc.Close()
	req, err := proto.DecodePayload[attach.Request](e)
	if err != nil {
		refuse(nc, e, err.Error())
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	c := &client{readOnly: req.ReadOnly, fixed: s.local(nc), since: time.Now(), control: make(chan struct{}, 1), cancel: cancel,
		sz: ui.Size{Cols: req.Cols, Rows: req.Rows}}
	s.register(c, req.DetachOthers)
	unregister := sync.OnceFunc(func() { s.unregister(c) })
	defer unregister()
	s.log.Info("attach", "client", c.id, "size", req.Cols, "rows", req.Rows, "read_only", req.ReadOnly)
	reply(nc, attach.TypeAttached, attach.Accepted{Version: attach.Version, Session: s.cfg.Name, Acks: req.Acks})

	sizes := make(chan ui.Size)
	window := 0
	if req.Acks {
		window = outputWindow
	}
	w := newOut(nc, window, func() { c.end(attach.ReasonDetached, "the terminal stopped reading") })
	var probed *ui.TerminalInfo
	if info, err := ui.ParseTerminalInfo(req.Terminal); req.Terminal != "" && err == nil && info.Known {
		probed = &info // its client asked it just now: not again through the stream
	}
	inputs := make(chan []byte, inputQueue)
	resized := make(chan struct{}, 1)
	var wg sync.WaitGroup
	wg.Go(func() { s.read(ctx, c, nc, inputs, resized, w) })
	wg.Go(func() { forwardSizes(ctx, c, resized, sizes) })
	ending, err := s.cfg.runUI(ctx, s.cfg.Session, s.cfg.UI, ui.Remote{
		Name: s.cfg.Name, Input: inputs, Out: w, Size: ui.Size{Cols: req.Cols, Rows: req.Rows}, Sizes: sizes,
		Controls: func() bool { return s.controls(c.id) }, Control: c.control,
		Active: func() { s.activate(c) }, ReadOnly: req.ReadOnly, Fixed: c.fixed, Probed: probed,
	})
	if err != nil {
		s.log.Warn("attached terminal", "client", c.id, "err", err)
	}
	switch ending {
	case ui.EndQuit:
		switch {
		case err != nil && !c.fixed:
			// The ui failed for this terminal alone: the agents go on working, and the
			// person attaches again.
			s.log.Error("attached terminal's ui failed: detached, the session goes on", "client", c.id, "err", err)
			c.end(attach.ReasonDetached, "agentmux's screen for this terminal failed, the session goes on: "+err.Error())
		case err != nil:
			s.End("its terminal's program failed: " + err.Error()) // the session's own terminal: it ends with it
			c.end(attach.ReasonEnded, s.farewell())
		default:
			s.End(QuitKey)
			c.end(attach.ReasonEnded, s.farewell())
		}
	case ui.EndClosed:
		s.End(EndLastPane)
		c.end(attach.ReasonEnded, s.farewell())
	case ui.EndDetach:
		c.end(attach.ReasonDetached, "")
	}
	select {
	case <-s.done:
		c.end(attach.ReasonEnded, s.farewell())
	default:
	}
	c.end(attach.ReasonDetached, "")
	r, msg := c.why()
	unregister() // a client told it is gone is no longer listed
	w.endFrame(r, msg)
	s.log.Info("detach", "client", c.id, "reason", string(r))
	nc.Close() // ends the reader
	wg.Wait()
}

// read turns the client's frames into input (queued for the ui), sizes (the latest
// kept in c, resized signalled), acks of output (to w) and a detach until the connection
// ends; a bad frame ends this client's stream alone. Once the ui is ending (ctx done),
// input that finds the queue full is dropped: acks keep being read.
func (s *Server) read(ctx context.Context, c *client, nc net.Conn, inputs chan<- []byte, resized chan struct{}, w *out) {
	defer close(inputs)
	defer close(resized)
	defer close(w.gone)
	var buf []byte
	for {
		body, err := proto.ReadFrame(nc, attach.MaxFrame, buf)
		if err != nil {
			if errors.Is(err, proto.ErrFrameTooLarge) || errors.Is(err, proto.ErrEmptyFrame) {
				c.end(attach.ReasonError, err.Error())
			}
			return
		}
		buf = body
		f, err := attach.Decode(body)
		if err != nil {
			s.log.Warn("attach frame", "client", c.id, "err", err)
			c.end(attach.ReasonError, err.Error())
			return
		}
		switch f.Kind {
		case attach.KindInput:
			select {
			case inputs <- bytes.Clone(f.Data): // f.Data aliases buf
			case <-ctx.Done():
			}
		case attach.KindResize:
			c.sizeMu.Lock()
			c.sz = ui.Size{Cols: f.Cols, Rows: f.Rows}
			c.sizeMu.Unlock()
			signal(resized)
		case attach.KindAck:
			if err := w.ack(f.Acked); err != nil {
				s.log.Warn("attach frame", "client", c.id, "err", err)
				c.end(attach.ReasonError, err.Error())
				return
			}
		case attach.KindDetach:
			if c.fixed { // its terminal is gone, and the session with it
				s.End("its terminal went away")
				c.cancel()
				continue
			}
			c.end(attach.ReasonDetached, "")
		default:
			c.end(attach.ReasonError, "a client sends no "+string(f.Kind)+" frame")
			return
		}
	}
}

// forwardSizes hands the ui the client's latest size after each resize, until resized is
// closed (the connection ended) or the ui ends. Sizes reported while the ui is busy
// coalesce: the latest is the one that counts.
func forwardSizes(ctx context.Context, c *client, resized <-chan struct{}, sizes chan<- ui.Size) {
	for range resized {
		select {
		case sizes <- c.size():
		case <-ctx.Done():
			return
		}
	}
}

// register adds c to the clients; it takes control unless it only watches. With
// detachOthers every other client is detached but the one the session runs in.
func (s *Server) register(c *client, detachOthers bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	c.id = s.nextID
	s.clients[c.id] = c
	s.waiting = false
	if detachOthers {
		for _, o := range s.clients {
			if o != c && !o.fixed {
				o.end(attach.ReasonReplaced, "")
			}
		}
	}
	if !c.readOnly {
		s.controller = c.id
		s.activity++
		c.active = s.activity
	}
}

// unregister forgets c; if it had control, the most recently active client left takes it.
func (s *Server) unregister(c *client) {
	s.mu.Lock()
	delete(s.clients, c.id)
	if s.controller == c.id {
		s.controller = 0
		var best *client
		for _, o := range s.clients {
			if !o.readOnly && (best == nil || o.active > best.active) {
				best = o
			}
		}
		if best != nil {
			s.controller = best.id
			signal(best.control)
		}
	}
	s.mu.Unlock()
	s.checkIdle()
}

// activate gives c control (it typed, pasted or used the mouse).
func (s *Server) activate(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.readOnly {
		return
	}
	s.activity++
	c.active = s.activity
	if s.controller == c.id {
		return
	}
	s.controller = c.id
	signal(c.control)
}

// controls reports whether client id sets the panes' sizes.
func (s *Server) controls(id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.controller == id
}

// signal wakes a capacity-1 channel without blocking.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
