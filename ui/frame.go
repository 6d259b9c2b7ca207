package ui

import "time"

// This file is the model's frame bookkeeping as two small types: frameState says whether
// the composed frame is current and whether the screen writer has it; framePacer says
// when the next frame may be drawn (the frame rate, and the early frame a key's echo
// gets).

// frameState tracks the composed frame. Owned by the event loop.
type frameState struct {
	ok    bool   // the composed frame matches the model
	gen   uint64 // frames composed so far
	shown uint64 // the frame last handed to the screen writer
}

// invalidate says something visible changed: the next View composes again.
func (f *frameState) invalidate() { f.ok = false }

// current reports whether the composed frame is still right.
func (f *frameState) current() bool { return f.ok }

// composed records that a new frame was composed.
func (f *frameState) composed() {
	f.ok = true
	f.gen++
}

// unshown reports whether the newest frame has not been handed to the screen writer,
// and marks it handed.
func (f *frameState) unshown() bool {
	if f.gen == f.shown {
		return false
	}
	f.shown = f.gen
	return true
}

// framePacer decides when frames built from pane output are drawn: at most one per
// interval, except the echo of a key (the first output of the pane a key was just
// written to, within echoWindow), which draws once echoGap has passed since the last
// frame, once per key (spent by the first frame that carries the echo, so a flood's
// full frame between the key and its echo leaves it). An echo's early frame takes only the echo's pane (echoFrame), so
// it never carries a flooding pane's picture: that keeps its own cadence, one frame per
// interval counted from the last full frame. Output observed at a pause of its program
// (session.Output.Quiet: the end of a burst) draws a full frame at once too, once
// between two frames in their slots, so the last of a command's or an agent's output
// never waits for the next tick. Owned by the event loop.
//
// The session's pacing (session/pacing.go) keeps the same rule for observing output, but
// it is a second rule, not a copy: it paces each pane on its own where this paces the one
// screen all panes share; its echo is taken at once and its credit lasts until used,
// where here the echo waits echoGap so its bytes share a frame and counts only within
// echoWindow (output long after a key is not its echo and must not cut the frame rate);
// and it feeds the session loop's one timer where this arms bubbletea ticks. The part
// they share (one per interval, at once after a quiet interval, an early slot for the
// keyed pane's next output, spent once; a paused burst's end at once, once a slot) is
// the script in internal/pacecase that both packages' tests run.
type framePacer struct {
	interval, echoGap, echoWindow time.Duration

	last     time.Time // when the last frame (full or early) was taken
	lastFull time.Time // when the last full frame was taken
	armed    bool      // the frame timer is armed for at
	at       time.Time
	echoPane int // the pane a key was just written to (0: none), until echoBy
	echoBy   time.Time
	echoIn   bool // echoPane's output came since the key: the next frame carries the echo
	paused   bool // a frame was drawn at a pause since the last one in its slot
}

// expectEcho grants pane id one early frame for output arriving by now+echoWindow.
func (p *framePacer) expectEcho(id int, now time.Time) {
	p.echoPane, p.echoBy, p.echoIn = id, now.Add(p.echoWindow), false
}

// output says pane id printed at now; quiet says its program had paused (the end of a
// burst). It returns true to draw now; otherwise, when arm is set, the caller arms a
// frame tick at at (a tick no later than that is already coming when both are false).
// A pause draws now once a slot: the tick armed for the held output is then not needed
// (armed is false; a firing already on its way finds nothing left to draw).
func (p *framePacer) output(id int, now time.Time, quiet bool) (drawNow bool, at time.Time, arm bool) {
	due := p.lastFull.Add(p.interval)
	if p.echoPane == id && !now.After(p.echoBy) {
		p.echoIn = true
		due = p.last.Add(p.echoGap)
	}
	if !due.After(now) {
		p.paused = false
		return true, time.Time{}, false
	}
	if quiet && !p.paused {
		p.paused, p.armed = true, false
		return true, time.Time{}, false
	}
	return false, due, p.arm(due)
}

// arm reports whether a tick must be armed for due: not when one no later is coming.
func (p *framePacer) arm(due time.Time) bool {
	if p.armed && !p.at.After(due) {
		return false
	}
	p.armed, p.at = true, due
	return true
}

// tick handles the frame timer firing, seen at now. It returns false when the firing
// is stale: the timer was armed again since, for later (it fires again then).
func (p *framePacer) tick(now time.Time) bool {
	if p.armed && now.Before(p.at) {
		return false
	}
	p.armed, p.paused = false, false
	return true
}

// echoFrame returns the pane whose echo came and waits for its frame at now (0: none):
// a frame taken now need only take that pane. That holds also when a full frame is due
// (a flood in another pane keeps one due every interval): the echo's small frame goes
// first and the full one right after it, so the echo never waits behind a whole screen
// of the flood's rows.
func (p *framePacer) echoFrame(now time.Time) int {
	if p.echoPane == 0 || !p.echoIn || now.After(p.echoBy) {
		return 0
	}
	return p.echoPane
}

// took records a full frame taken at now: it spends the echo credit when the echo came
// (the frame carries it). A full frame taken between a key and its echo (another pane's
// flood keeps them coming every interval) leaves the credit: the echo, when it comes, is
// not held to the next full frame.
func (p *framePacer) took(now time.Time) {
	p.last, p.lastFull = now, now
	if p.echoIn {
		p.echoPane, p.echoIn = 0, false
	}
}

// tookEcho records an echo's early frame taken at now: it spends the echo credit and
// leaves the full frames' cadence as it was.
func (p *framePacer) tookEcho(now time.Time) {
	p.last = now
	p.echoPane, p.echoIn = 0, false
}

// frameTimer is the program's one frame timer, for its whole life: the event loop arms
// it for the pacer's due time and forwardSession, which waits on its channel, hands the
// program a frameMsg when it fires. One timer armed again and again, where a tea.Tick
// per frame cost a goroutine, a timer and a trip through bubbletea's command queue
// each, up to 60 a second under a flood. Arming it again before it fired moves it (no
// firing is left over for the old time); a firing already taken by the forwarder when
// it was armed again reaches the model, which sees it is early (framePacer.tick).
type frameTimer struct{ t *time.Timer }

// newFrameTimer returns a frame timer, not armed.
func newFrameTimer() *frameTimer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &frameTimer{t: t}
}

// arm makes the timer fire in d.
func (f *frameTimer) arm(d time.Duration) { f.t.Reset(d) }

// fired is the channel that receives when the timer fires.
func (f *frameTimer) fired() <-chan time.Time { return f.t.C }

// stop disarms the timer.
func (f *frameTimer) stop() { f.t.Stop() }
