//go:build !linux

package session

import (
	"errors"
	"time"
)

// writeWatch is not available here: usage is read at each hook report only.
type writeWatch struct{}

// watchWrites is not available here.
func watchWrites(path string) (*writeWatch, error) { return nil, errors.ErrUnsupported }

func (w *writeWatch) run(d time.Duration, done <-chan struct{}, wrote func()) error { return nil }

func (w *writeWatch) close() {}

// watchable reports whether watchWrites works here.
func watchable() bool { return false }
