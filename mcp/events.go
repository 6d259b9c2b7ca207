package mcp

import (
	"encoding/json"
	"sync"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/proto"
)

// logCap bounds the events kept for wait: a wait resumed with a token looks at the
// events after its cursor, and an older cursor than the log holds starts at the
// oldest kept (a phase is then read from the store anyway; only an answer so old is
// missed).
const logCap = 4096

// eventLog is the session's events as the events connection reads them, numbered
// from 1, for the waits to read from any cursor. One goroutine (follow) appends;
// waits read under mu and sleep on changed, which is closed and replaced on every
// append and at the end: no polling.
type eventLog struct {
	mu      sync.Mutex
	first   uint64 // the number of evs[0]
	evs     []proto.Event
	changed chan struct{}
	ended   bool
}

func newEventLog() *eventLog {
	return &eventLog{first: 1, changed: make(chan struct{})}
}

// add appends ev and wakes every wait.
func (l *eventLog) add(ev proto.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.evs) >= logCap {
		drop := logCap / 2
		l.evs = append(l.evs[:0:0], l.evs[drop:]...)
		l.first += uint64(drop)
	}
	l.evs = append(l.evs, ev)
	close(l.changed)
	l.changed = make(chan struct{})
}

// end marks the session ended (its events connection closed) and wakes every wait.
func (l *eventLog) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ended {
		l.ended = true
		close(l.changed)
	}
}

// cursor is the number the next event will have.
func (l *eventLog) cursor() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.first + uint64(len(l.evs))
}

// since returns the events numbered from cursor on (from the oldest kept when cursor
// is older), the cursor after them, a channel closed at the next change, and whether
// the session ended.
func (l *eventLog) since(cursor uint64) ([]proto.Event, uint64, <-chan struct{}, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	end := l.first + uint64(len(l.evs))
	if cursor < l.first {
		cursor = l.first
	}
	if cursor > end {
		cursor = end
	}
	evs := append([]proto.Event(nil), l.evs[cursor-l.first:]...)
	return evs, end, l.changed, l.ended
}

// follow reads c (subscribed to X_EVENTS) into l until the session says BYE or the
// connection fails or is closed; then l ends.
func follow(c *client.Conn, l *eventLog) {
	defer l.end()
	for {
		e, err := c.Read()
		if err != nil {
			return
		}
		switch e.Type {
		case proto.TypeEvent:
			var ev proto.Event
			if json.Unmarshal(e.Payload, &ev) == nil {
				l.add(ev)
			}
		case proto.TypeBye:
			return
		}
	}
}
