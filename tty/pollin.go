package tty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/muesli/cancelreader"
)

// The terminal's input is read through the Go runtime's poller when it can be: the
// terminal is opened again (a new open file description of the same device, so the
// non-blocking mode the poller needs is never seen by the shell that shares stdin's),
// and a read that has nothing to return parks its goroutine instead of holding a thread
// in a blocking system call. That matters for a key's latency: the read goroutine hands
// each read to the decoder and reads again at once; when that read is a blocking
// system call, the decoder (queued on the same scheduler slot) waits until the runtime
// takes the slot back from the system call, which while another pane floods took 6 ms
// at the median and up to 20 ms.
//
// Opening the terminal again is the system's (reopen): Linux opens /proc/self/fd/N.
// Elsewhere (macOS: /dev/fd/N there duplicates the descriptor, the very description the
// shell shares; a device of another user) cancelreader's blocking wait reads, and the
// read loop keeps the decoder from waiting behind it by design: after handing a read
// on, it waits until the decoder has decoded it and passed its events on, and lets the
// goroutines that woke run, before it reads, and so blocks, again (Input.handedOff).

// reopenTerminal is the system's reopen; tests replace it to run the blocking path of
// a system where the terminal cannot be opened again.
var reopenTerminal = reopen

// newCancelReader returns a cancellable reader of r: r's terminal opened again for the
// poller when r is one (polled), else cancelreader's blocking one.
func newCancelReader(r io.Reader) (cr cancelreader.CancelReader, polled bool, err error) {
	if f, ok := r.(*os.File); ok {
		if pf, err := reopenTerminal(f); err == nil {
			return &pollReader{f: pf}, true, nil
		}
	}
	cr, err = cancelreader.NewReader(r)
	if err != nil {
		return nil, false, fmt.Errorf("terminal input: %w", err)
	}
	return cr, false, nil
}

// pollReader reads a terminal opened for the runtime's poller; Cancel ends a read in
// progress and every later one with cancelreader.ErrCanceled, nothing consumed.
type pollReader struct {
	f        *os.File
	canceled atomic.Bool
}

func (p *pollReader) Read(b []byte) (int, error) {
	if p.canceled.Load() {
		return 0, cancelreader.ErrCanceled
	}
	n, err := p.f.Read(b)
	if err != nil && p.canceled.Load() && errors.Is(err, os.ErrDeadlineExceeded) {
		return n, cancelreader.ErrCanceled
	}
	return n, err
}

// Cancel makes the read in progress, and every later one, return ErrCanceled.
func (p *pollReader) Cancel() bool {
	p.canceled.Store(true)
	return p.f.SetReadDeadline(time.Now()) == nil
}

func (p *pollReader) Close() error { return p.f.Close() }
