package vterm

// This file keeps the alternate screen's frames a reader has not seen: a reader that
// judges a full-screen program by what its screen shows (the relay reading a turn's text
// from frames that scroll away with no history) must see each state the program drew,
// not only the one its next reading happens to find. A reader late by many writes (a busy
// host) would miss lines that scrolled through the screen between its readings.

import "bytes"

// KeepFrames makes the terminal keep, for a reader calling ReadFrames, the alternate
// screen as it stood before each write that came while a reading was due: the states a
// reader would have seen had it read after every write. For a program that marks its
// frames (synchronized output, mode 2026), the end of each frame counts as the end of a
// write: a busy host reads several of its frames in one PTY read, and each is a state
// no reader saw. A state inside a synchronized-output frame is no frame and is not
// kept, nor one that repeats the state kept before it. At most n are held: once n are,
// every other one is let go and from then on only every other write's state is kept,
// and so on, so a reader late by any number of writes gets states spread evenly over
// them, and a flood costs a number of keepings that grows with the logarithm of its
// writes. n ≤ 0 keeps none (the default).
func (t *Terminal) KeepFrames(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.frames = frameLog{limit: max(n, 0), stride: 1}
}

// ReadFrames returns the frames kept since the last ReadFrames, oldest first, and a
// reading as ReadText(from) gives it, under one lock: no write falls between the kept
// frames and the reading, or after the reading and before the keeping starts again.
// A kept frame has no Lines.
func (t *Terminal) ReadFrames(from int64) (kept []TextReading, now TextReading) {
	t.mu.Lock()
	defer t.mu.Unlock()
	kept, t.frames.kept = t.frames.kept, nil
	t.frames.due, t.frames.stride, t.frames.skipped = false, 1, 0
	return kept, t.readText(from)
}

// frameLog is what KeepFrames keeps.
type frameLog struct {
	limit int
	// due is set by a write and cleared by ReadFrames: the state a write leaves is one
	// no reader saw yet.
	due  bool
	kept []TextReading
	// stride is how many eligible writes go by for each state kept (doubled each time
	// the log is thinned), skipped how many went by since the last one kept.
	stride, skipped int
	// synced is set once the program opened a synchronized-output frame: from then on
	// a write is split after each frame's end (frameEnd).
	synced bool
}

// syncEnd ends a synchronized-output frame (mode 2026 reset), as programs write it.
var syncEnd = []byte("\x1b[?2026l")

// frameEnd returns how much of p Write feeds before it keeps a frame again: up to the
// end of the first synchronized frame p ends before its last byte, all of p when none
// does or no frame is kept. Feeding a write in pieces is feeding it whole: the parser
// carries its state across.
func (t *Terminal) frameEnd(p []byte) int {
	if t.frames.limit == 0 || !t.frames.synced {
		return len(p)
	}
	if i := bytes.Index(p, syncEnd); i >= 0 && i+len(syncEnd) < len(p) {
		return i + len(syncEnd)
	}
	return len(p)
}

// keepFrame is called by Write, with the lock held, before the bytes are fed: it keeps
// the alternate screen's state when no reader saw it.
func (t *Terminal) keepFrame() {
	f := &t.frames
	if f.limit == 0 {
		return
	}
	if f.due && t.scr == t.alt && !t.modes.SyncOutput {
		f.skipped++
		if f.skipped >= f.stride {
			f.skipped = 0
			rd := TextReading{Title: t.title, Modes: t.modes, AltScreen: true, Cursor: t.cursor(), Top: t.pushed,
				Rows: t.screenTextOf(t.sight())}
			if n := len(f.kept); n == 0 || !sameFrame(f.kept[n-1], rd) {
				f.kept = append(f.kept, rd)
			}
			if len(f.kept) >= f.limit {
				f.thin()
			}
		}
	}
	f.due = true
}

// thin lets every other kept state go, the newest staying, and doubles the stride.
func (f *frameLog) thin() {
	out := f.kept[:0]
	for i := (len(f.kept) - 1) % 2; i < len(f.kept); i += 2 {
		out = append(out, f.kept[i])
	}
	clear(f.kept[len(out):]) // let their rows go
	f.kept = out
	f.stride *= 2
}

// sameFrame reports whether two kept frames show the same.
func sameFrame(a, b TextReading) bool {
	if a.Title != b.Title || a.Cursor != b.Cursor || len(a.Rows) != len(b.Rows) {
		return false
	}
	for i := range a.Rows {
		if a.Rows[i] != b.Rows[i] {
			return false
		}
	}
	return true
}
