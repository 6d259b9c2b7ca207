package session

import "time"

// pacing decides when the loop observes a pane's output (hands it to the relay and tells
// subscribers): at most once per interval per pane, so a flood costs one observation
// per interval and not one per read; the first output after a person's input to the
// pane is observed at once (its echo must not wait for the interval); held output whose
// program paused (the end of a burst) is observed at once too, once between two
// observations in their slots, so a program that pauses every few milliseconds costs
// at most two observations an interval. While a pane's
// output is held its watcher stays parked, so further reads coalesce in the process's
// capacity-1 signal. Owned by the loop.
//
// The ui's framePacer (ui/frame.go) keeps the same rule for frames, but it is a second
// rule, not a copy: it paces one screen for all panes where this paces each pane (a
// flood in one pane must not delay another's observation); its echo waits a short gap
// so the echo's bytes share a frame, and counts only within a window after the key,
// where here the credit lasts until the next observation (observing early costs the
// relay nothing); and it arms bubbletea ticks, where this feeds the loop's one timer.
// The part they share (one per interval, at once after a quiet interval, an early slot
// for the keyed pane's next output, spent once; a paused burst's end at once, once per
// slot) is the script in internal/pacecase that
// both packages' tests run.
type pacing struct {
	interval time.Duration
	last     map[int]time.Time // the pane's last observation
	held     map[int]bool      // output arrived and waits for its slot
	credit   map[int]bool      // the next output is observed at once
	paused   map[int]bool      // observed at a pause since its last slot
}

// newPacing returns a pacing of interval.
func newPacing(interval time.Duration) pacing {
	return pacing{interval: interval, last: map[int]time.Time{}, held: map[int]bool{}, credit: map[int]bool{}, paused: map[int]bool{}}
}

// offer says output arrived in pane id at now and reports whether to observe it now;
// false holds it until due returns it.
func (p *pacing) offer(id int, now time.Time) bool {
	if p.credit[id] || !now.Before(p.last[id].Add(p.interval)) {
		delete(p.paused, id)
		return true
	}
	p.held[id] = true
	return false
}

// observed records that pane id's output was observed at now; it spends the pane's
// credit.
func (p *pacing) observed(id int, now time.Time) {
	p.last[id] = now
	delete(p.held, id)
	delete(p.credit, id)
}

// quiet says pane id's program paused and reports whether to observe its held output
// now: yes when output is held and the pane was not observed at a pause since its last
// slot.
func (p *pacing) quiet(id int) bool {
	if !p.held[id] || p.paused[id] {
		return false
	}
	p.paused[id] = true
	return true
}

// isHeld reports whether pane id's output waits for its slot.
func (p *pacing) isHeld(id int) bool { return p.held[id] }

// grant gives pane id a credit: a person's input was just written to it, so its next
// output (the echo) is observed at once. Output already held is not the echo: the
// caller observes it first, then grants.
func (p *pacing) grant(id int) { p.credit[id] = true }

// due returns the panes whose held output may be observed at now.
func (p *pacing) due(now time.Time) []int {
	var ids []int
	for id := range p.held {
		if !now.Before(p.last[id].Add(p.interval)) {
			ids = append(ids, id)
			delete(p.paused, id)
		}
	}
	return ids
}

// next returns when the earliest held output is due, false when none is held.
func (p *pacing) next() (time.Time, bool) {
	var best time.Time
	ok := false
	for id := range p.held {
		if at := p.last[id].Add(p.interval); !ok || at.Before(best) {
			best, ok = at, true
		}
	}
	return best, ok
}

// forget drops pane id.
func (p *pacing) forget(id int) {
	delete(p.last, id)
	delete(p.held, id)
	delete(p.credit, id)
	delete(p.paused, id)
}
