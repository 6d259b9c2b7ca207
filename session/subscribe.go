package session

import (
	"errors"
	"sync"
)

// ErrSlow ends a subscription whose reader let its queue overflow.
var ErrSlow = errors.New("session: subscriber too slow: events dropped")

// errUnsubscribed ends a subscription its owner closed.
var errUnsubscribed = errors.New("session: unsubscribed")

// DefaultQueue is a subscription's queue limit when Subscribe is given none.
const DefaultQueue = 4096

// Subscription is one subscriber's stream of events. The loop appends to its queue
// without ever blocking; the reader waits on Ready and takes everything pending with
// Next (the eventbox pattern: one wake-up, a batch of events, in order). Output events
// coalesce: at most one per pane is pending. A queue that grows past its limit ends the
// subscription with ErrSlow (Ready is closed, Next returns nil, Err says why).
type Subscription struct {
	mu      sync.Mutex
	q       []Event
	outputs map[int]bool // panes with an Output pending in q
	limit   int
	err     error
	ready   chan struct{} // capacity 1; closed when the subscription ends
}

// newSubscription returns an open subscription of queue limit n.
func newSubscription(n int) *Subscription {
	if n <= 0 {
		n = DefaultQueue
	}
	return &Subscription{outputs: map[int]bool{}, limit: n, ready: make(chan struct{}, 1)}
}

// Ready receives when events are pending, and is closed when the subscription ends.
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Next returns every pending event, in order (nil when none, or once ended).
func (s *Subscription) Next() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.q
	s.q = nil
	clear(s.outputs)
	return q
}

// Err returns why the subscription ended (ErrSlow), or nil while it is open or after
// Close.
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if errors.Is(s.err, errUnsubscribed) {
		return nil
	}
	return s.err
}

// Close ends the subscription; the session forgets it at its next event.
func (s *Subscription) Close() { s.end(errUnsubscribed) }

// end closes the subscription with err, once.
func (s *Subscription) end(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	s.err = err
	s.q = nil
	close(s.ready)
}

// quietPending marks pane id's pending Output as observed at a pause, as the output
// coalesced into it was. A later Output that is not quiet leaves the mark (the reader
// draws the pane at once either way, once per interval) and costs no scan of the queue.
// Called with mu held.
func (s *Subscription) quietPending(id int) {
	for i, ev := range s.q {
		if o, ok := ev.(Output); ok && o.Pane == id {
			o.Quiet = true
			s.q[i] = o
			return
		}
	}
}

// push appends ev without blocking and reports whether the subscription is still open.
func (s *Subscription) push(ev Event) bool {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return false
	}
	if o, ok := ev.(Output); ok {
		if s.outputs[o.Pane] {
			if o.Quiet {
				s.quietPending(o.Pane)
			}
			s.mu.Unlock()
			return true
		}
		s.outputs[o.Pane] = true
	}
	if len(s.q) >= s.limit {
		s.mu.Unlock()
		s.end(ErrSlow)
		return false
	}
	s.q = append(s.q, ev)
	select {
	case s.ready <- struct{}{}:
	default:
	}
	s.mu.Unlock()
	return true
}
