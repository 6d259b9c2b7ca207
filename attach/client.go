package attach

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/cancelreader"

	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/tty"
)

// This file is the thin client: the person's terminal in raw mode, piped to the server.
//
//	stdin ──read──▶ input frames ─┐
//	SIGWINCH ──────▶ resize frames ┼─▶ conn ─▶ server (draws with the ui, per client)
//	SIGHUP/TERM ───▶ detach frame ─┘
//	stdout ◀── output frames ◀── conn
//
// The client keeps no screen state: the server draws everything, so a new attach shows
// the current picture. When the server goes away without an end frame (killed), the
// client undoes the terminal's modes itself.

// handshakeTimeout bounds the wait for the server's answer to ATTACH.
const handshakeTimeout = 10 * time.Second

// Options say how a terminal attaches.
type Options struct {
	ReadOnly     bool // watch: nothing typed reaches a pane
	DetachOthers bool // detach every other client
	// Serving: the session is served from this process, which ends it on SIGHUP,
	// SIGTERM and SIGINT; the client follows only SIGWINCH.
	Serving bool
	// Terminal is what the terminal answered to the probe the client just made
	// (Request.Terminal); "" when it made none. Typed is what the person typed during
	// that probe, sent as the stream's first input.
	Terminal string
	Typed    []byte
}

// Result is how an attach ended. Reason is empty when the server went away without
// saying (it was killed).
type Result struct {
	Session string
	Reason  Reason
	Message string
}

// Error is the server's refusal of the attach (an ERROR answer).
type Error struct{ Code, Message string }

func (e *Error) Error() string { return e.Message }

// Run attaches the terminal (in, out) to the session server on nc until the stream ends,
// and closes nc. Until the server accepts, the terminal is untouched, so a refusal is
// an error to print on one line.
func Run(ctx context.Context, nc net.Conn, in, out *os.File, o Options) (Result, error) {
	defer nc.Close()
	if !term.IsTerminal(in.Fd()) || !term.IsTerminal(out.Fd()) {
		return Result{}, errors.New("attach needs a terminal")
	}
	cols, rows, err := TerminalSize(out)
	if err != nil {
		return Result{}, fmt.Errorf("terminal size: %w", err)
	}
	acc, err := handshake(nc, Request{Version: Version, Cols: cols, Rows: rows, ReadOnly: o.ReadOnly, DetachOthers: o.DetachOthers, Acks: true, Terminal: o.Terminal})
	if err != nil {
		return Result{}, err
	}
	saved, err := term.MakeRaw(in.Fd())
	if err != nil {
		return Result{}, fmt.Errorf("raw mode: %w", err)
	}
	c := &pipe{nc: nc, acks: acc.Acks}
	res := Result{Session: acc.Session}
	for typed := o.Typed; len(typed) > 0; { // a failed send ends the stream: the read sees it
		n := min(len(typed), MaxFrame-1)
		_ = c.send(Input(typed[:n]))
		typed = typed[n:]
	}
	stopInput, err := c.pumpInput(in)
	if err != nil {
		_ = term.Restore(in.Fd(), saved)
		return res, err
	}
	stopSignals := c.followSignals(ctx, out, !o.Serving)
	if cols2, rows2, err := TerminalSize(out); err == nil && (cols2 != cols || rows2 != rows) {
		_ = c.send(Resize(cols2, rows2)) // resized before the signal was watched
	}
	res.Reason, res.Message = c.drawOutput(out)
	stopSignals()
	stopInput()
	if res.Reason == "" { // the server went away mid-stream: undo its modes here
		_, _ = io.WriteString(out, tty.KittyPop+tty.RestoreSeq)
	}
	_ = term.Restore(in.Fd(), saved)
	return res, nil
}

// UnknownCols and UnknownRows stand for a size the terminal reports as 0: a PTY whose
// size nobody set (ssh -tt from a script, docker exec -t before its first resize) says
// 0x0, which is no size to draw at. tmux takes 80x24 for it too.
const UnknownCols, UnknownRows = 80, 24

// TerminalSize returns the size of the terminal f, a dimension it reports as 0 taken
// as UnknownCols or UnknownRows.
func TerminalSize(f *os.File) (cols, rows int, err error) {
	cols, rows, err = term.GetSize(f.Fd())
	if err != nil {
		return 0, 0, err
	}
	if cols <= 0 {
		cols = UnknownCols
	}
	if rows <= 0 {
		rows = UnknownRows
	}
	return cols, rows, nil
}

// handshake sends ATTACH and reads the answer: the server's acceptance (the session's
// name), or the refusal.
func handshake(nc net.Conn, req Request) (Accepted, error) {
	body, err := Handshake(TypeAttach, req)
	if err != nil {
		return Accepted{}, err
	}
	_ = nc.SetDeadline(time.Now().Add(handshakeTimeout))
	defer nc.SetDeadline(time.Time{})
	if err := proto.WriteFrame(nc, body); err != nil {
		return Accepted{}, fmt.Errorf("attach: %w", err)
	}
	ans, err := proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil)
	if err != nil {
		return Accepted{}, fmt.Errorf("attach: no answer from the session: %w", err)
	}
	e, err := proto.Decode(ans)
	if err != nil {
		return Accepted{}, fmt.Errorf("attach: %w", err)
	}
	switch e.Type {
	case TypeAttached:
		a, err := proto.DecodePayload[Accepted](e)
		if err != nil {
			return Accepted{}, fmt.Errorf("attach: %w", err)
		}
		if a.Version != Version {
			return Accepted{}, fmt.Errorf("attach: the session speaks attach version %d, this agentmux %d", a.Version, Version)
		}
		return a, nil
	case proto.TypeError:
		pe, err := proto.DecodePayload[proto.Error](e)
		if err != nil {
			return Accepted{}, fmt.Errorf("attach: %w", err)
		}
		return Accepted{}, &Error{Code: pe.Code, Message: pe.Message}
	}
	return Accepted{}, fmt.Errorf("attach: unexpected answer %s", e.Type)
}

// pipe is the client's connection; writes of frames are serialised. With acks set (the
// server asked for them) each output frame written to the terminal is acknowledged.
type pipe struct {
	nc   net.Conn
	mu   sync.Mutex
	acks bool
}

// send writes one frame (errors end the stream by the reader seeing the close).
func (c *pipe) send(body []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return proto.WriteFrame(c.nc, body)
}

// write writes frames already framed, in one write.
func (c *pipe) write(frames []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.nc.Write(frames)
	return err
}

// pumpInput sends the terminal's bytes as input frames until stopped.
func (c *pipe) pumpInput(in *os.File) (stop func(), err error) {
	cr, err := cancelreader.NewReader(in)
	if err != nil {
		return nil, fmt.Errorf("terminal input: %w", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := cr.Read(buf)
			if n > 0 && c.send(Input(buf[:n])) != nil {
				return
			}
			if err != nil {
				if !errors.Is(err, cancelreader.ErrCanceled) {
					_ = c.send(Detach()) // the terminal is gone: a detach, as tmux's
					_ = c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
				}
				return
			}
		}
	}()
	return func() {
		cr.Cancel()
		<-done
		cr.Close()
	}, nil
}

// followSignals sends a resize frame on SIGWINCH and, with ending set, detaches on
// SIGHUP, SIGTERM, SIGINT and SIGQUIT (the terminal closed, or the client was told to
// go): the terminal is restored, where SIGQUIT's stack dump would have been printed on
// the alternate screen and left the terminal raw.
func (c *pipe) followSignals(ctx context.Context, out *os.File, ending bool) (stop func()) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGWINCH)
	if ending {
		signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT)
		// SIGTSTP (kill -TSTP: ctrl+z reaches the pane, the terminal being raw) would
		// stop the client with the terminal raw, on the alternate screen, its mouse
		// reporting on; it is ignored, as tmux's client does, for the rest of the
		// process (which ends with the stream).
		signal.Ignore(syscall.SIGTSTP)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case s := <-sigs:
				if s != syscall.SIGWINCH {
					_ = c.send(Detach())
					_ = c.nc.SetReadDeadline(time.Now().Add(time.Second)) // the server's end frame, or not
					continue
				}
				if cols, rows, err := TerminalSize(out); err == nil {
					_ = c.send(Resize(cols, rows))
				}
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		cancel()
		<-done
	}
}

// drawOutput writes output frames to the terminal until the end frame (its reason and
// message) or until the connection ends ("" reason). The connection is read through a
// buffer, so a frame's header and body (and the frames sent with it) come in one read;
// the output of the frames read together is acknowledged in one write, after the last
// of them is written to the terminal.
func (c *pipe) drawOutput(out *os.File) (Reason, string) {
	r := bufio.NewReaderSize(c.nc, MaxFrame+4)
	var buf, acks []byte
	unacked := 0 // output written to the terminal and not yet acknowledged
	for {
		body, err := proto.ReadFrame(r, MaxFrame, buf)
		if err != nil {
			return "", ""
		}
		buf = body
		f, err := Decode(body)
		if err != nil {
			return "", ""
		}
		switch f.Kind {
		case KindOutput:
			if _, err := out.Write(f.Data); err != nil {
				return "", ""
			}
			if c.acks {
				unacked += len(f.Data)
			}
		case KindEnd:
			return f.Reason, string(f.Data)
		}
		if unacked > 0 && r.Buffered() == 0 {
			acks = AppendAcks(acks[:0], unacked)
			unacked = 0
			_ = c.write(acks) // a failed send ends the stream: the read sees it
		}
	}
}
