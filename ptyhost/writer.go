package ptyhost

import (
	"io"
	"sync"
)

// writeQueue is the unbounded FIFO between Proc.Write and the writer goroutine. Its
// mutex guards pending, unwritten and dead; signal (capacity 1) wakes the writer goroutine without
// ever blocking the producer. Once killed, the queue drops everything it holds and all
// later pushes.
type writeQueue struct {
	mu      sync.Mutex
	pending [][]byte
	// unwritten counts the bytes pushed and not yet written to the terminal (queued,
	// or taken by a write that has not returned).
	unwritten int
	dead      bool
	signal    chan struct{}
	// settled is broadcast (under mu) whenever unwritten falls.
	settled *sync.Cond
}

func newWriteQueue() *writeQueue {
	q := &writeQueue{signal: make(chan struct{}, 1)}
	q.settled = sync.NewCond(&q.mu)
	return q
}

// push copies b onto the queue and wakes the writer. It never blocks.
func (q *writeQueue) push(b []byte) {
	if len(b) == 0 {
		return
	}
	c := make([]byte, len(b))
	copy(c, b)
	q.mu.Lock()
	if q.dead {
		q.mu.Unlock()
		return
	}
	q.pending = append(q.pending, c)
	q.unwritten += len(c)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default: // a wake-up is already pending; the writer will take everything.
	}
}

// take removes and returns everything queued, in order (nil once killed).
func (q *writeQueue) take() [][]byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.dead {
		return nil
	}
	batch := q.pending
	q.pending = nil
	return batch
}

// kill drops what is queued and makes later pushes no-ops.
func (q *writeQueue) kill() {
	q.mu.Lock()
	q.dead = true
	q.pending = nil
	q.unwritten = 0
	q.settled.Broadcast()
	q.mu.Unlock()
}

// written counts n bytes as written.
func (q *writeQueue) written(n int) {
	q.mu.Lock()
	q.unwritten = max(q.unwritten-n, 0)
	q.settled.Broadcast()
	q.mu.Unlock()
}

// waitWritten returns once every byte pushed so far has been written (or the queue
// died). The terminal may echo a write before its writer has counted it written.
func (q *writeQueue) waitWritten() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.unwritten > 0 && !q.dead {
		q.settled.Wait()
	}
}

// pendingBytes returns how many bytes were pushed and are not written yet.
func (q *writeQueue) pendingBytes() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.unwritten
}

// run is the writer goroutine: it writes queued chunks to w in order until stop or
// gone closes, or a write fails (the terminal is gone); then it kills the queue so
// pending and later writes are dropped.
func (q *writeQueue) run(w io.Writer, stop, gone <-chan struct{}) {
	defer q.kill()
	for {
		select {
		case <-q.signal:
		case <-gone:
			return
		case <-stop:
			return
		}
		for _, b := range q.take() {
			_, err := w.Write(b)
			q.written(len(b))
			if err != nil {
				return
			}
		}
	}
}
