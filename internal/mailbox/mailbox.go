// Package mailbox is the queue between goroutines that must never wait and one that
// takes everything at once: Put appends under a mutex and sends on a capacity-1 signal
// without blocking, so any number of puts coalesce into one wake-up; the taker waits on
// Ready, then Take returns all that was put, oldest first. It imports nothing of the
// project.
package mailbox

import "sync"

// Box is a mailbox of T. Make one with New; its methods are safe from any goroutine.
type Box[T any] struct {
	mu    sync.Mutex
	items []T
	ready chan struct{} // capacity 1
}

// New returns an empty box.
func New[T any]() *Box[T] { return &Box[T]{ready: make(chan struct{}, 1)} }

// Put appends v and wakes the taker. It never blocks.
func (b *Box[T]) Put(v T) {
	b.mu.Lock()
	b.items = append(b.items, v)
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default: // a wake-up is pending already; the taker will take this too
	}
}

// Ready receives after a Put whose item has not been taken by a Take begun after it.
// A receive may find the box empty (a Take took the items before the taker woke).
func (b *Box[T]) Ready() <-chan struct{} { return b.ready }

// Take removes and returns everything in the box, oldest first (nil when empty).
func (b *Box[T]) Take() []T {
	b.mu.Lock()
	defer b.mu.Unlock()
	items := b.items
	b.items = nil
	return items
}
