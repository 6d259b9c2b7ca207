package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
)

// A reserve is where a session records, when the store refuses a write (a full disk),
// that a message's submission began: a small file of the session's own, its space
// written in full while the disk had room, written again only in place, so that a full
// disk does not refuse it (on file systems that overwrite in place; a copy-on-write one
// may still). The next start of the session reads it, records those phases in the store
// and empties it. It holds reserveSlots records; more are refused.
const (
	reserveSlot  = 256
	reserveSlots = 256
)

// ErrReserveFull is returned by Reserve.Add when every slot is taken.
var ErrReserveFull = errors.New("the reserve of delivery records is full")

// Reserve is a session's reserve file. Safe for concurrent use.
type Reserve struct {
	mu   sync.Mutex
	f    *os.File
	used int // slots taken
}

// Reserved is one record of a reserve: message id's submission to recipient to began.
type Reserved struct{ ID, To string }

// OpenReserve opens (making it when needed, in full) the reserve of session beside the
// database, and returns what an earlier run recorded in it. The caller records those
// and then calls Clear.
func (s *Store) OpenReserve(session string) (*Reserve, []Reserved, error) {
	path := s.path + "." + session + ".reserve"
	if err := privateFiles(path); err != nil {
		return nil, nil, fmt.Errorf("reserve: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("reserve: %w", err)
	}
	size := int64(reserveSlot * reserveSlots)
	buf := make([]byte, size)
	n, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		f.Close()
		return nil, nil, fmt.Errorf("reserve: %w", err)
	}
	if int64(n) < size {
		// Written in full now, while there is room: later writes only overwrite.
		if _, err := f.WriteAt(make([]byte, size-int64(n)), int64(n)); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("reserve: %w", err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("reserve: %w", err)
		}
	}
	r := &Reserve{f: f}
	var got []Reserved
	for i := range reserveSlots {
		slot := buf[i*reserveSlot : (i+1)*reserveSlot]
		if slot[0] != 1 {
			continue
		}
		r.used = i + 1
		rec, _, _ := bytes.Cut(slot[1:], []byte{0, 0})
		id, to, ok := strings.Cut(string(rec), "\x00")
		if ok && id != "" && to != "" {
			got = append(got, Reserved{ID: id, To: to})
		}
	}
	return r, got, nil
}

// Add records that message id's submission to to began, in place, synced.
func (r *Reserve) Add(id, to string) error {
	rec := append(append(append([]byte{1}, id...), 0), to...)
	if len(rec)+2 > reserveSlot || strings.ContainsRune(id, 0) || strings.ContainsRune(to, 0) {
		return fmt.Errorf("reserve %s: record too long", id)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.used >= reserveSlots {
		return ErrReserveFull
	}
	slot := make([]byte, reserveSlot)
	copy(slot, rec)
	if _, err := r.f.WriteAt(slot, int64(r.used*reserveSlot)); err != nil {
		return fmt.Errorf("reserve %s: %w", id, err)
	}
	if err := r.f.Sync(); err != nil {
		return fmt.Errorf("reserve %s: %w", id, err)
	}
	r.used++
	return nil
}

// Clear empties the reserve (in place), once what it held is in the store.
func (r *Reserve) Clear() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.f.WriteAt(make([]byte, reserveSlot*reserveSlots), 0); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	if err := r.f.Sync(); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	r.used = 0
	return nil
}

// Close closes the reserve's file.
func (r *Reserve) Close() error { return r.f.Close() }
