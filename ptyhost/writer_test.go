package ptyhost

// Unit tests of the write FIFO with an in-memory writer: order is kept across many
// producers' batches, push never blocks even while the writer is stuck, and a killed
// queue drops what it holds and everything after.

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"
)

// gateWriter blocks each Write until the test opens the gate, then records the bytes.
type gateWriter struct {
	mu   sync.Mutex
	got  bytes.Buffer
	gate chan struct{}
	fail bool
	wrot chan struct{}
}

func (g *gateWriter) Write(p []byte) (int, error) {
	<-g.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail {
		return 0, errors.New("gone")
	}
	g.got.Write(p)
	select {
	case g.wrot <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (g *gateWriter) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.got.String()
}

func TestQueueOrderAndNonBlocking(t *testing.T) {
	q := newWriteQueue()
	w := &gateWriter{gate: make(chan struct{}), wrot: make(chan struct{}, 1)}
	stop, gone := make(chan struct{}), make(chan struct{})
	finished := make(chan struct{})
	go func() { q.run(w, stop, gone); close(finished) }()

	// The writer is stuck in its first Write: pushes must still return at once.
	var want bytes.Buffer
	for i := range 10000 {
		b := []byte{byte('a' + i%26)}
		want.Write(b)
		q.push(b)
	}
	close(w.gate)
	deadline := time.After(testTimeout)
	for w.String() != want.String() {
		select {
		case <-w.wrot:
		case <-deadline:
			t.Fatalf("wrote %d of %d bytes", len(w.String()), want.Len())
		}
	}
	close(stop)
	<-finished
	q.push([]byte("late"))
	if q.len() != 0 {
		t.Fatal("push after the writer stopped was queued")
	}
}

func TestQueueDropsAfterFailure(t *testing.T) {
	q := newWriteQueue()
	w := &gateWriter{gate: make(chan struct{}), wrot: make(chan struct{}, 1), fail: true}
	close(w.gate)
	finished := make(chan struct{})
	go func() { q.run(w, make(chan struct{}), make(chan struct{})); close(finished) }()
	q.push([]byte("x"))
	select {
	case <-finished:
	case <-time.After(testTimeout):
		t.Fatal("writer goroutine did not stop after a failed write")
	}
	q.push([]byte("y"))
	if q.len() != 0 || q.take() != nil {
		t.Fatal("queue kept data after the terminal failed")
	}
}
