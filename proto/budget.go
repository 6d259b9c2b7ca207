package proto

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"
)

// DefaultFrameBudget is the bytes every frame being read on a socket may hold in total
// unless configured otherwise (32 MiB): a frame's bytes are held while they arrive, and
// given back once the frame is whole.
const DefaultFrameBudget = 32 << 20

// ErrBudget is returned by ReadFrameIn and ReadBody when the frames being read would
// hold more bytes than their shared budget allows: the connection should be closed.
var ErrBudget = errors.New("frames being read hold too many bytes")

// Budget bounds the bytes held by frames being read, across every connection that
// shares it, so that many peers each announcing a large frame and sending it slowly (or
// never finishing it) hold at most its limit between them. Safe for concurrent use.
type Budget struct {
	limit int64
	used  atomic.Int64
	peak  atomic.Int64 // the most held since TakePeak
}

// NewBudget is a budget of limit bytes (DefaultFrameBudget when limit <= 0).
func NewBudget(limit int) *Budget {
	if limit <= 0 {
		limit = DefaultFrameBudget
	}
	return &Budget{limit: int64(limit)}
}

// Limit is the budget's size in bytes.
func (b *Budget) Limit() int { return int(b.limit) }

// Used is the bytes held now.
func (b *Budget) Used() int { return int(b.used.Load()) }

// TakePeak returns the most bytes held at once since it was last called, and starts
// counting again from what is held now.
func (b *Budget) TakePeak() int { return int(b.peak.Swap(b.used.Load())) }

// take holds n bytes, or none and false when that would pass the limit.
func (b *Budget) take(n int) bool {
	u := b.used.Add(int64(n))
	if u > b.limit {
		b.used.Add(-int64(n))
		return false
	}
	for p := b.peak.Load(); u > p && !b.peak.CompareAndSwap(p, u); p = b.peak.Load() {
	}
	return true
}

// give gives back n bytes held.
func (b *Budget) give(n int) { b.used.Add(-int64(n)) }

// ReadFrameIn is ReadFrame with the frame's bytes held in budget while they arrive: a
// frame that would pass it ends with ErrBudget (its bytes not all read). Every byte is
// given back when it returns. A new buffer is allocated for each frame, sized to what
// arrived, so a connection keeps no memory between frames.
func ReadFrameIn(r io.Reader, limit int, budget *Budget) ([]byte, error) {
	n, err := readHeader(r, limit)
	if err != nil {
		return nil, err
	}
	body, err := ReadBody(r, n, budget)
	if err != nil {
		return nil, unexpected(err)
	}
	return body, nil
}

// ReadBody reads size bytes of a frame's body, grown as they arrive (at most frameChunk,
// or what was already read, ahead of them) and held in budget meanwhile; all are given
// back when it returns. On an error it returns what was read so far.
func ReadBody(r io.Reader, size int, budget *Budget) ([]byte, error) {
	var buf []byte
	held := 0
	defer func() { budget.give(held) }()
	for len(buf) < size {
		have := len(buf)
		want := min(size-have, max(frameChunk, have))
		if !budget.take(want) {
			return buf, fmt.Errorf("%w: a frame of %d bytes with %d held, limit %d in all", ErrBudget, size, budget.Used(), budget.Limit())
		}
		held += want
		buf = slices.Grow(buf, want)[:have+want]
		m, err := io.ReadFull(r, buf[have:])
		if err != nil {
			return buf[:have+m], err
		}
	}
	return buf, nil
}
