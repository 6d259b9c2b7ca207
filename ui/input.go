package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/muesli/cancelreader"

	"github.com/agentmux/agentmux/keys"
)

// This file reads the outer terminal's raw input itself (bubbletea runs with
// tea.WithInput(nil): its own key parsing loses Shift+Enter, Ctrl+Space and more).
//
//	stdin ──read loop──▶ chunks ──decode loop (keys.Decoder, escape timer)──▶ events ──▶ model
//
// The decode loop is the only owner of the Decoder. When a read ends inside a possible
// escape sequence (Decoder.Pending), a timer is armed; if no byte comes before it fires
// the decoder is flushed, so a lone Esc is delivered as Esc. Nothing polls.

// escTimeout is how long an incomplete escape sequence waits for its next byte.
const escTimeout = 25 * time.Millisecond

// chunk is one read of raw input, or the error that ended reading.
type chunk struct {
	b   []byte
	err error
}

// inputReader owns the goroutines that read and decode the terminal's input.
type inputReader struct {
	events  chan inputMsg
	escWait time.Duration // escTimeout; tests change it
	cr      cancelreader.CancelReader
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// startInput starts reading r (the terminal, in raw mode).
func startInput(ctx context.Context, r io.Reader) (*inputReader, error) {
	return startInputWait(ctx, r, escTimeout)
}

// startInputWait is startInput with a chosen escape timeout.
func startInputWait(ctx context.Context, r io.Reader, escWait time.Duration) (*inputReader, error) {
	cr, err := cancelreader.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("terminal input: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	ir := &inputReader{events: make(chan inputMsg, 16), escWait: escWait, cr: cr, cancel: cancel}
	chunks := make(chan chunk, 4)
	ir.wg.Go(func() { ir.readLoop(ctx, chunks) })
	ir.wg.Go(func() { ir.decodeLoop(ctx, chunks) })
	return ir, nil
}

// readLoop reads raw bytes until the reader is cancelled or fails.
func (ir *inputReader) readLoop(ctx context.Context, out chan<- chunk) {
	defer func() {
		if r := recover(); r != nil {
			ir.fail(ctx, &PanicError{Value: r, Stack: debug.Stack()})
		}
	}()
	buf := make([]byte, 4096)
	for {
		n, err := ir.cr.Read(buf)
		if n > 0 {
			select {
			case out <- chunk{b: bytes.Clone(buf[:n])}:
			case <-ctx.Done():
				return
			}
		}
		if err != nil {
			if errors.Is(err, cancelreader.ErrCanceled) {
				return
			}
			select {
			case out <- chunk{err: err}:
			case <-ctx.Done():
			}
			return
		}
	}
}

// decodeLoop turns chunks into events, one message per read, and flushes an incomplete
// escape sequence after escTimeout.
func (ir *inputReader) decodeLoop(ctx context.Context, in <-chan chunk) {
	defer func() {
		if r := recover(); r != nil {
			ir.fail(ctx, &PanicError{Value: r, Stack: debug.Stack()})
		}
	}()
	var d keys.Decoder
	timer := time.NewTimer(ir.escWait)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-in:
			if c.err != nil {
				ir.emit(ctx, inputMsg{Events: d.Flush(), Err: c.err})
				return
			}
			evs := d.Feed(c.b)
			if d.Pending() {
				timer.Reset(ir.escWait)
			} else {
				timer.Stop()
			}
			ir.emit(ctx, inputMsg{Events: evs})
		case <-timer.C:
			ir.emit(ctx, inputMsg{Events: d.Flush()})
		}
	}
}

// emit hands a batch to the model (waiting for it to take it), skipping empty ones.
func (ir *inputReader) emit(ctx context.Context, msg inputMsg) {
	if len(msg.Events) == 0 && msg.Err == nil {
		return
	}
	select {
	case ir.events <- msg:
	case <-ctx.Done():
	}
}

// fail reports a panic in an input goroutine as an input error, so the program quits
// and the terminal is restored.
func (ir *inputReader) fail(ctx context.Context, err error) {
	ir.emit(ctx, inputMsg{Err: err})
}

// probe reads the answers to the start-up queries until the DA1 sentinel arrives or
// timeout passes. It returns the answers, and every other event (keys typed meanwhile)
// so they can be replayed into the model: nothing typed at start-up is lost.
func (ir *inputReader) probe(timeout time.Duration) (replies []keys.Reply, other []keys.Event, err error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			return replies, other, nil
		case msg := <-ir.events:
			done := false
			for _, ev := range msg.Events {
				r, ok := ev.(keys.Reply)
				if !ok {
					other = append(other, ev)
					continue
				}
				replies = append(replies, r)
				if parseReply(r.Raw).kind == replyDA1 {
					done = true
				}
			}
			if msg.Err != nil {
				return replies, other, msg.Err
			}
			if done {
				return replies, other, nil
			}
		}
	}
}

// close stops both goroutines, waits for them, and closes the events channel (a
// waitForInput still pending then returns).
func (ir *inputReader) close() {
	ir.cancel()
	ir.cr.Cancel()
	ir.wg.Wait()
	_ = ir.cr.Close()
	close(ir.events)
}
