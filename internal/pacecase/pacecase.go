// Package pacecase is the rule the two output pacers share, as a script their tests
// both run: the session's (when the loop observes a pane's output) and the ui's (when a
// frame built from pane output is drawn). Each is at most one per Interval, at once
// after a quiet Interval, early for the first output of the pane a key was just written
// to, once per key, and early for held output whose program paused (the end of a
// burst), once between two slots. They differ past that (per pane against per screen; an echo
// at once against after a short gap and within a window), which is why they are two
// types; see session/pacing.go and ui/frame.go. It imports nothing of the project.
package pacecase

import "time"

// Rate is the least time between two observations of one pane's output, and between two
// frames, by default: 60 a second.
const Rate = time.Second / 60

// Interval is the interval Steps are written for.
const Interval = 16 * time.Millisecond

// Kind is what happens at a Step.
type Kind int

// The kinds of Step.
const (
	// Output: the pane printed; Now says whether the pacer lets it through at once
	// (then the test records it taken at At), else it is held.
	Output Kind = iota
	// Key: a person's key was written to the pane (nothing is held then).
	Key
	// Due: the held output's slot comes at At exactly; the test records it taken then.
	Due
	// Pause: the pane's program paused with its output held; Now says whether the pacer
	// takes it at once (then the test records it taken at At), else it stays held.
	Pause
)

// Step is one event of the script.
type Step struct {
	At   time.Duration // since the script's start
	Pane int
	Kind Kind
	Now  bool // Output and Pause: taken at once
}

// EchoGapUnder and EchoWindowOver bound an echo's short gap and its window: an echo
// waits less than EchoGapUnder after the last output taken, and counts as the echo for
// more than EchoWindowOver after its key.
const (
	EchoGapUnder   = 3 * time.Millisecond
	EchoWindowOver = 50 * time.Millisecond
)

// Steps is the script: one pane's flood, a key's echo, the echo's credit spent, a key
// to another pane that gives this one nothing, and bursts whose ends are taken at once,
// once a slot. Echoes come EchoGapUnder or more after
// the last output taken and EchoWindowOver or less after their key.
var Steps = []Step{
	{At: 0, Pane: 1, Kind: Output, Now: true},                      // the first output: at once
	{At: 5 * time.Millisecond, Pane: 1, Kind: Output},              // within the interval: held
	{At: 7 * time.Millisecond, Pane: 1, Kind: Output},              // still held
	{At: 16 * time.Millisecond, Pane: 1, Kind: Due},                // one slot for both
	{At: 40 * time.Millisecond, Pane: 1, Kind: Output, Now: true},  // after a quiet interval: at once
	{At: 44 * time.Millisecond, Pane: 1, Kind: Key},                // a key to pane 1
	{At: 46 * time.Millisecond, Pane: 1, Kind: Output, Now: true},  // its echo: early
	{At: 50 * time.Millisecond, Pane: 1, Kind: Output},             // the credit is spent: held
	{At: 62 * time.Millisecond, Pane: 1, Kind: Due},                // the echo's frame set the slot
	{At: 66 * time.Millisecond, Pane: 2, Kind: Key},                // a key to pane 2
	{At: 70 * time.Millisecond, Pane: 1, Kind: Output},             // pane 1 gets no early slot
	{At: 78 * time.Millisecond, Pane: 1, Kind: Due},                // its slot
	{At: 100 * time.Millisecond, Pane: 1, Kind: Output, Now: true}, // quiet again: at once
	{At: 104 * time.Millisecond, Pane: 1, Kind: Output},            // held
	{At: 106 * time.Millisecond, Pane: 1, Kind: Pause, Now: true},  // the burst ended: at once
	{At: 110 * time.Millisecond, Pane: 1, Kind: Output},            // held: its slot is 122
	{At: 112 * time.Millisecond, Pane: 1, Kind: Pause},             // one pause a slot: held
	{At: 122 * time.Millisecond, Pane: 1, Kind: Due},               // its slot
	{At: 126 * time.Millisecond, Pane: 1, Kind: Output},            // held
	{At: 127 * time.Millisecond, Pane: 1, Kind: Pause, Now: true},  // a slot since: at once
}
