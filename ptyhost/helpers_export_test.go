package ptyhost

// Helpers only tests use, kept out of the package's code.

// len reports how many chunks are waiting (for tests).
func (q *writeQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending)
}
