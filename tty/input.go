package tty

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/muesli/cancelreader"

	"github.com/agentmux/agentmux/keys"
)

// This file reads the outer terminal's raw input itself (the ui runs bubbletea without
// input: its own key parsing loses Shift+Enter, Ctrl+Space and more).
//
//	stdin ──read loop──▶ chunks ──decode loop (keys.Decoder, escape timer)──▶ Batch ──▶ ui
//
// An attached terminal's input already comes in chunks (the attach stream's frames):
// StartChunks decodes them as they come, with no reader and no read loop.
//
// The decode loop is the only owner of the Decoder. When a read ends inside a possible
// escape sequence (Decoder.Pending), a timer is armed; if no byte comes before it fires
// the decoder is flushed, so a lone Esc is delivered as Esc. Nothing polls.

// escTimeout is how long an incomplete escape sequence waits for its next byte.
const escTimeout = 25 * time.Millisecond

// Batch is the events decoded from one read of the outer terminal, in order. Err is
// set when input ended (the terminal went away) or its goroutines failed.
type Batch struct {
	Events []keys.Event
	Err    error
}

// Input owns the goroutines that read and decode the terminal's input.
type Input struct {
	events  chan Batch
	escWait time.Duration             // escTimeout; tests change it
	cr      cancelreader.CancelReader // nil for StartChunks
	readErr error                     // why reading ended, set before the chunks are closed
	// decoded is nil when cr reads through the runtime's poller; else (a blocking
	// reader) the decode loop tells the read loop on it that a chunk is decoded, and the
	// read loop waits for that before it reads again (see pollin.go).
	decoded chan struct{}
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// StartInput starts reading r (the terminal, in raw mode).
func StartInput(ctx context.Context, r io.Reader) (*Input, error) {
	return startInputWait(ctx, r, escTimeout)
}

// startInputWait is StartInput with a chosen escape timeout.
func startInputWait(ctx context.Context, r io.Reader, escWait time.Duration) (*Input, error) {
	cr, polled, err := newCancelReader(r)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	ir := &Input{events: make(chan Batch, 16), escWait: escWait, cr: cr, cancel: cancel}
	if !polled {
		ir.decoded = make(chan struct{}, 1)
	}
	chunks := make(chan []byte, 4)
	ir.wg.Go(func() { ir.readLoop(ctx, chunks) })
	ir.wg.Go(func() { ir.decodeLoop(ctx, chunks) })
	return ir, nil
}

// StartChunks decodes input that comes as chunks of raw bytes, in order, until chunks is
// closed (input ended: io.EOF) or Close. Chunks are not written to after they are sent.
func StartChunks(ctx context.Context, chunks <-chan []byte) *Input {
	ctx, cancel := context.WithCancel(ctx)
	ir := &Input{events: make(chan Batch, 16), escWait: escTimeout, cancel: cancel}
	ir.wg.Go(func() { ir.decodeLoop(ctx, chunks) })
	return ir
}

// readLoop reads raw bytes until the reader is cancelled or fails; a failure is kept in
// readErr and out is closed.
func (ir *Input) readLoop(ctx context.Context, out chan<- []byte) {
	defer func() {
		if r := recover(); r != nil {
			ir.fail(ctx, Recovered(r))
		}
	}()
	buf := make([]byte, 4096)
	for {
		n, err := ir.cr.Read(buf)
		if n > 0 {
			select {
			case out <- bytes.Clone(buf[:n]):
			case <-ctx.Done():
				return
			}
			if err == nil && !ir.handedOff(ctx) {
				return
			}
		}
		if err != nil {
			if errors.Is(err, cancelreader.ErrCanceled) {
				return
			}
			ir.readErr = err
			close(out)
			return
		}
	}
}

// handedOff waits, for a blocking reader, until the decode loop has decoded the chunk
// just sent and handed on its events, then lets the goroutines that woke run first: so
// the read that follows, which holds its scheduler slot while it blocks, never keeps
// them waiting. False when ctx ended first.
func (ir *Input) handedOff(ctx context.Context) bool {
	if ir.decoded == nil {
		return true
	}
	select {
	case <-ir.decoded:
	case <-ctx.Done():
		return false
	}
	runtime.Gosched()
	return true
}

// decodeLoop turns chunks into events, one message per read, and flushes an incomplete
// escape sequence after escTimeout.
func (ir *Input) decodeLoop(ctx context.Context, in <-chan []byte) {
	defer func() {
		if r := recover(); r != nil {
			ir.fail(ctx, Recovered(r))
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
		case b, ok := <-in:
			if !ok {
				err := ir.readErr
				if err == nil {
					err = io.EOF
				}
				ir.emit(ctx, Batch{Events: d.Flush(), Err: err})
				return
			}
			evs := d.Feed(b)
			if d.Pending() {
				timer.Reset(ir.escWait)
			} else {
				timer.Stop()
			}
			ir.emit(ctx, Batch{Events: evs})
			if ir.decoded != nil {
				select {
				case ir.decoded <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
		case <-timer.C:
			ir.emit(ctx, Batch{Events: d.Flush()})
		}
	}
}

// emit hands a batch to the reader of Events (waiting for it to take it), skipping empty ones.
func (ir *Input) emit(ctx context.Context, msg Batch) {
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
func (ir *Input) fail(ctx context.Context, err error) {
	ir.emit(ctx, Batch{Err: err})
}

// Events returns the decoded batches, one per read; it is closed by Close.
func (ir *Input) Events() <-chan Batch { return ir.events }

// Probe reads the answers to the start-up queries (Terminal.Setup) until the DA1
// sentinel arrives or timeout passes. It returns what they said, and every other event
// (keys typed meanwhile), so the caller replays them: nothing typed at start-up is lost.
func (ir *Input) Probe(timeout time.Duration) (p Probed, other []keys.Event, err error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			return p, other, nil
		case msg := <-ir.events:
			done := false
			for _, ev := range msg.Events {
				r, ok := ev.(keys.Reply)
				if !ok {
					other = append(other, ev)
					continue
				}
				if p.Apply(r) {
					done = true
				}
			}
			if msg.Err != nil {
				return p, other, msg.Err
			}
			if done {
				return p, other, nil
			}
		}
	}
}

// Close stops both goroutines, waits for them, and closes the events channel (a
// reader still waiting on it then returns).
func (ir *Input) Close() {
	ir.cancel()
	if ir.cr != nil {
		ir.cr.Cancel()
	}
	ir.wg.Wait()
	if ir.cr != nil {
		_ = ir.cr.Close()
	}
	close(ir.events)
}
