package server

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ui"
)

// This file is one attached terminal on the server: a reader goroutine turning its
// frames into input bytes, sizes and a detach; the ui running for it (ui.Attach),
// writing through out; and the end frame saying why the stream ended.
//
//	conn ──frames──▶ reader ──input──▶ pipe ──▶ ui.Attach ──▶ out (frames) ──▶ conn
//	                   ├──resize──▶ sizes ──▶ ui
//	                   └──detach / bad frame──▶ reason, cancel

// writeWait bounds one write to a client: a terminal that stops reading for this long
// is detached rather than holding its drawing goroutine.
const writeWait = 10 * time.Second

// client is one attached terminal. Its fields after the registry's are owned as noted.
type client struct {
	id       int
	readOnly bool
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
// the end frame.
type out struct {
	nc   net.Conn
	mu   sync.Mutex
	fail func()
}

func (o *out) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), attach.MaxFrame-1)
		if err := o.frame(attach.Output(p[:k])); err != nil {
			o.fail()
			return n - len(p), err
		}
		p = p[k:]
	}
	return n, nil
}

func (o *out) frame(body []byte) error {
	_ = o.nc.SetWriteDeadline(time.Now().Add(writeWait))
	return proto.WriteFrame(o.nc, body)
}

// endFrame writes the end frame.
func (o *out) endFrame(r attach.Reason, msg string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	_ = o.frame(attach.End(r, msg))
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
	c := &client{readOnly: req.ReadOnly, since: time.Now(), control: make(chan struct{}, 1), cancel: cancel,
		sz: ui.Size{Cols: req.Cols, Rows: req.Rows}}
	s.register(c, req.DetachOthers)
	unregister := sync.OnceFunc(func() { s.unregister(c) })
	defer unregister()
	s.log.Info("attach", "client", c.id, "size", req.Cols, "rows", req.Rows, "read_only", req.ReadOnly)
	reply(nc, attach.TypeAttached, attach.Accepted{Version: attach.Version, Session: s.cfg.Name})

	pr, pw := io.Pipe()
	sizes := make(chan ui.Size)
	var wg sync.WaitGroup
	wg.Go(func() { s.read(ctx, c, nc, pw, sizes) })
	w := &out{nc: nc, fail: func() { c.end(attach.ReasonDetached, "the terminal stopped reading") }}
	ending, err := ui.Attach(ctx, s.cfg.Session, s.cfg.UI, ui.Remote{
		Name: s.cfg.Name, In: pr, Out: w, Size: ui.Size{Cols: req.Cols, Rows: req.Rows}, Sizes: sizes,
		Controls: func() bool { return s.controls(c.id) }, Control: c.control,
		Active: func() { s.activate(c) }, ReadOnly: req.ReadOnly,
	})
	if err != nil {
		s.log.Warn("attached terminal", "client", c.id, "err", err)
	}
	switch ending {
	case ui.EndQuit:
		s.End("ended by a client")
		c.end(attach.ReasonEnded, "")
	case ui.EndDetach:
		c.end(attach.ReasonDetached, "")
	}
	select {
	case <-s.done:
		c.end(attach.ReasonEnded, "")
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

// read turns the client's frames into input, sizes and a detach until the connection
// ends; a bad frame ends this client's stream alone.
func (s *Server) read(ctx context.Context, c *client, nc net.Conn, pw *io.PipeWriter, sizes chan<- ui.Size) {
	defer pw.CloseWithError(io.EOF)
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
			if _, err := pw.Write(f.Data); err != nil {
				return
			}
		case attach.KindResize:
			sz := ui.Size{Cols: f.Cols, Rows: f.Rows}
			c.sizeMu.Lock()
			c.sz = sz
			c.sizeMu.Unlock()
			select {
			case sizes <- sz:
			case <-ctx.Done():
				return
			}
		case attach.KindDetach:
			c.end(attach.ReasonDetached, "")
		default:
			c.end(attach.ReasonError, "a client sends no "+string(f.Kind)+" frame")
			return
		}
	}
}

// register adds c to the clients; it takes control unless it only watches. With
// detachOthers every other client is detached.
func (s *Server) register(c *client, detachOthers bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	c.id = s.nextID
	s.clients[c.id] = c
	s.waiting = false
	if detachOthers {
		for _, o := range s.clients {
			if o != c {
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
