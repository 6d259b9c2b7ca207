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
// terminal that supports it never shows half a frame. A frame carries the cursor too:
// hidden while rows are drawn, then put where the focused program has it, in its shape
// (DECSCUSR), and shown, or left hidden. Other sequences for the outer terminal (OSC 52
// clipboard writes) are queued with Send and written by the same goroutine after the
// frame, never inside one.

// Cursor is where a frame leaves the outer terminal's cursor: 0-based column X and row
// Y, shown when Visible, in DECSCUSR shape Shape (0: the terminal's default).
type Cursor struct {
	X, Y    int
	Visible bool
	Shape   int
}

// Screen owns the goroutine that writes frames to the outer terminal.
type Screen struct {
	out io.Writer

	mu      sync.Mutex
	next    []string // newest frame not yet written; nil when none
	w, h    int
	cur     Cursor
	fresh   bool     // cur changed since the last flush
	repaint bool     // the terminal's picture is unknown: draw the next frame whole
	extra   []string // sequences to write after the frame (Send)

	kick chan struct{} // capacity 1: "a frame is waiting"
	stop chan struct{}
	done chan struct{}

	// Owned by the writer goroutine.
	last         []string
	lastW, lastH int
	lastCur      Cursor
	curKnown     bool // lastCur is what the terminal has (false: write it again)
	buf          []byte
}

// NewScreen starts the writer goroutine drawing on out.
func NewScreen(out io.Writer) *Screen {
	s := &Screen{out: out, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

// Present hands the writer a frame of h lines of w columns and where the cursor goes.
// The caller must not change the slice afterwards (it builds a new one per frame). It
// never blocks.
func (s *Screen) Present(lines []string, w, h int, cur Cursor) {
	s.mu.Lock()
	s.next, s.w, s.h = lines, w, h
	s.cur, s.fresh = cur, true
	s.mu.Unlock()
	s.wake()
}

// Send queues seq (an OSC 52 clipboard write, say) to be written whole after the frame
// being drawn, outside its synchronized update. It never blocks.
func (s *Screen) Send(seq string) {
	s.mu.Lock()
	s.extra = append(s.extra, seq)
	s.mu.Unlock()
	s.wake()
}

// Repaint makes the next frame a whole one (clear, every row, the cursor): the
// terminal's picture is no longer what was drawn (it was resized, and a terminal may
// cut or reflow what it shows). It never blocks.
func (s *Screen) Repaint() {
	s.mu.Lock()
	s.repaint = true
	s.mu.Unlock()
	s.wake()
}

// wake tells the writer goroutine there is work.
func (s *Screen) wake() {
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
// everything (after clearing) when the size changed, and the cursor when it moved; then
// the queued sequences.
func (s *Screen) flush() {
	s.mu.Lock()
	lines, w, h, cur, fresh := s.next, s.w, s.h, s.cur, s.fresh
	extra, repaint := s.extra, s.repaint
	s.next, s.fresh, s.extra, s.repaint = nil, false, nil, false
	s.mu.Unlock()
	if repaint {
		if lines == nil {
			lines, w, h = s.last, s.lastW, s.lastH // draw the last frame again, whole
		}
		s.last, s.curKnown = nil, false
	}
	if lines != nil || fresh {
		s.frame(lines, w, h, cur)
	}
	for _, seq := range extra {
		if _, err := io.WriteString(s.out, seq); err != nil {
			return
		}
	}
}

// frame writes one frame (lines nil: only the cursor changed) as one synchronized
// update.
func (s *Screen) frame(lines []string, w, h int, cur Cursor) {
	full := lines != nil && (s.last == nil || w != s.lastW || h != s.lastH)
	b := append(s.buf[:0], "\x1b[?2026h"...)
	if full {
		b = append(b, "\x1b[m\x1b[H\x1b[2J"...)
	}
	changed := 0
	for i, l := range lines {
		if !full && i < len(s.last) && s.last[i] == l {
			continue
		}
		if changed == 0 && (!s.curKnown || s.lastCur.Visible) {
			b = append(b, "\x1b[?25l"...) // no cursor flitting over rows being drawn
			s.lastCur.Visible = false
		}
		changed++
		b = append(b, "\x1b["...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, ";1H"...)
		b = append(b, l...)
	}
	moved := !s.curKnown || cur != s.lastCur // (hiding it for the rows counts as a move)
	if moved {
		b = appendCursor(b, cur, s.lastCur, s.curKnown)
	}
	b = append(b, "\x1b[?2026l"...)
	s.buf = b
	if changed == 0 && !full && !moved {
		return
	}
	if _, err := s.out.Write(b); err != nil {
		s.last, s.curKnown = nil, false // the next frame repaints everything
		return
	}
	if lines != nil {
		s.last, s.lastW, s.lastH = lines, w, h
	}
	s.lastCur, s.curKnown = cur, true
}

// appendCursor appends what puts the cursor in state cur after state last (known:
// last is what the terminal has): its shape when it changed, then its position and
// CSI ?25h, or CSI ?25l.
func appendCursor(b []byte, cur, last Cursor, known bool) []byte {
	if !cur.Visible {
		return append(b, "\x1b[?25l"...)
	}
	if !known || cur.Shape != last.Shape {
		b = append(b, "\x1b["...)
		b = strconv.AppendInt(b, int64(cur.Shape), 10)
		b = append(b, " q"...)
	}
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(cur.Y+1), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(cur.X+1), 10)
	b = append(b, 'H')
	return append(b, "\x1b[?25h"...)
}
