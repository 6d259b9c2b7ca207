package proto

// The frame budget through pipes (a write returns once the reader took its bytes, so
// what a reader holds is known when a write returns): a second large frame that would
// pass the budget is refused while the first holds it, every byte is given back when a
// frame ends however it ends, and a frame never holds more than what arrived plus one
// chunk.

import (
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// partial starts a reader of one frame announcing size bytes, feeds it sent bytes, and
// returns a channel with ReadFrameIn's error and the writer (to finish or close).
func partial(t *testing.T, b *Budget, size, sent int) (<-chan error, *io.PipeWriter) {
	t.Helper()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := ReadFrameIn(r, 1<<20, b)
		r.CloseWithError(err)
		done <- err
	}()
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(size))
	if _, err := w.Write(hdr[:]); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(make([]byte, sent)); err != nil {
		t.Fatal(err)
	}
	return done, w
}

func TestBudgetRefusesAFrameThatWouldPassIt(t *testing.T) {
	b := NewBudget(1 << 20)
	// One frame of 1 MiB - 1, all but its last byte sent: it holds it all.
	firstDone, first := partial(t, b, 1<<20-1, 1<<20-2)
	if got := b.Used(); got != 1<<20-1 {
		t.Fatalf("held %d, want %d", got, 1<<20-1)
	}
	// A second one cannot take its first chunk.
	r, w := io.Pipe()
	go func() {
		var hdr [4]byte
		binary.BigEndian.PutUint32(hdr[:], 100<<10)
		w.Write(hdr[:])
		w.Write(make([]byte, 10))
	}()
	_, err := ReadFrameIn(r, 1<<20, b)
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("second frame: %v, want ErrBudget", err)
	}
	// The first ends cut short: every byte is given back.
	first.Close()
	if err := <-firstDone; !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("first: %v", err)
	}
	if got := b.Used(); got != 0 {
		t.Fatalf("held %d after the frames ended, want 0", got)
	}
	// Now a frame of the same size is read whole, and gives its bytes back.
	done, w2 := partial(t, b, 1<<20-1, 1<<20-1)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	w2.Close()
	if got := b.Used(); got != 0 {
		t.Fatalf("held %d after a whole frame, want 0", got)
	}
}

func TestBudgetHoldsWhatArrivedPlusAChunk(t *testing.T) {
	b := NewBudget(64 << 20)
	_, w := partial(t, b, 1<<20-1, 1000)
	defer w.Close()
	if got := b.Used(); got != frameChunk {
		t.Fatalf("a frame announcing 1 MiB with 1000 bytes sent holds %d, want one chunk (%d)", got, frameChunk)
	}
}
