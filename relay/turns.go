package relay

import "time"

// Turn is a pane's finished turn, linked or not: the words the relay delivers for it
// to the other members of its group, sanitized and cut as they would be typed (the
// hook's answer when its program has one, else what the screen showed). A turn that
// was only relay commands is none; one under way (something was typed into the pane)
// that printed nothing new, or only the echo of what was typed, has no Words. The host
// hands turns to its subscribers (agentmux send --reply waits on them).
type Turn struct {
	Pane  int
	Name  string
	At    time.Time
	Words string
}

// TakeTurns returns the turns finished since the last call, in order, and forgets them.
func (r *Relay) TakeTurns() []Turn {
	t := r.turns
	r.turns = nil
	return t
}
