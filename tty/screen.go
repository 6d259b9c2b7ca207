package tty

import (
	"io"
	"strconv"
	"sync"
)

// This file draws frames on the outer terminal. bubbletea's own renderer is not used
// (the ui runs it with tea.WithoutRenderer): it repaints on a 60 Hz ticker even when nothing changed, and it
// measures every line with its own width tables, truncating or erasing the end of a row
// when they disagree with the emulator's (an emoji with a variation selector is enough
// to lose a border). This writer is event-driven and never measures: each changed row
// is written at its absolute position, exactly as composed.
//
//	ui's Update ──Present(frame)──▶ [latest frame slot] ──kick──▶ writer goroutine ──▶ outer
//
// The slot holds only the newest frame, so a slow terminal skips intermediate frames
// instead of queueing them. Each write is one synchronized update (mode 2026), so a
// terminal that supports it never shows half a frame.

// Screen owns the goroutine that writes frames to the outer terminal.
type Screen struct {
	out io.Writer

	mu   sync.Mutex
	next []string // newest frame not yet written; nil when none
	w, h int

	kick chan struct{} // capacity 1: "a frame is waiting"
	stop chan struct{}
	done chan struct{}

	// Owned by the writer goroutine.
	last         []string
	lastW, lastH int
	buf          []byte
}

// NewScreen starts the writer goroutine drawing on out.
func NewScreen(out io.Writer) *Screen {
	s := &Screen{out: out, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

// Present hands the writer a frame of h lines of w columns. The caller must not change
// the slice afterwards (it builds a new one per frame). It never blocks.
func (s *Screen) Present(lines []string, w, h int) {
	s.mu.Lock()
	s.next, s.w, s.h = lines, w, h
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Close writes the frame still waiting, then stops the goroutine.
func (s *Screen) Close() {
	close(s.stop)
	<-s.done
}

// loop writes frames as they come.
func (s *Screen) loop() {
	defer close(s.done)
	for {
		select {
		case <-s.kick:
			s.flush()
		case <-s.stop:
			s.flush()
			return
		}
	}
}

// flush writes the newest frame: the rows that differ from the last one written, or
// everything (after clearing) when the size changed.
func (s *Screen) flush() {
	s.mu.Lock()
	lines, w, h := s.next, s.w, s.h
	s.next = nil
	s.mu.Unlock()
	if lines == nil {
		return
	}
	full := s.last == nil || w != s.lastW || h != s.lastH
	b := append(s.buf[:0], "\x1b[?2026h"...)
	if full {
		b = append(b, "\x1b[m\x1b[H\x1b[2J"...)
	}
	changed := 0
	for i, l := range lines {
		if !full && i < len(s.last) && s.last[i] == l {
			continue
		}
		changed++
		b = append(b, "\x1b["...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, ";1H"...)
		b = append(b, l...)
	}
	b = append(b, "\x1b[?2026l"...)
	s.buf = b
	if changed == 0 && !full {
		return
	}
	if _, err := s.out.Write(b); err != nil {
		s.last = nil // the next frame repaints everything
		return
	}
	s.last, s.lastW, s.lastH = lines, w, h
}
