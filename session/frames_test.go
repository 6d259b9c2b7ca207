package session

// A full-screen program's turn scrolls through its alternate screen faster than the loop
// reads it: the pacing holds the pane's output until its interval passes (the fake
// clock stands still meanwhile), so the relay reads the screen once for nineteen frames.
// The test waits for that reading before it moves the clock on to alice's quiet: the
// output's signal may reach the loop only after the clock passed the slot.
// The pane's emulator keeps those frames (keptFrames), so the turn relayed to the linked
// peer has every line, the ones that scrolled away unread included; without them it had
// the first line and the last six.

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatFrame draws one synchronized frame of a full-screen chat on a 40×10 screen: a
// header, the last six lines of the transcript, and the prompt row with the cursor.
func chatFrame(lines []string) string {
	var b strings.Builder
	b.WriteString("\x1b[?2026h\x1b[H\x1b[2Jbot -- chat\r\n\r\n")
	for _, l := range lines[max(len(lines)-6, 0):] {
		b.WriteString(l + "\r\n")
	}
	b.WriteString("\x1b[9;1H> \x1b[?2026l")
	return b.String()
}

func TestFramesTheLoopDidNotReadAreRelayed(t *testing.T) {
	r := newRig(t, Options{Idle: time.Second, Turns: 6}, "alice", "bob")
	r.printed(1, "\x1b[?1049h"+chatFrame(nil))
	r.printed(2, "> ")
	r.advance(2 * time.Second) // both started
	require.NoError(t, r.s.Link(1, 2))

	var answer []string
	for i, w := range strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet " +
		"kilo lima mike november oscar papa quebec romeo sierra tango") {
		answer = append(answer, w+" is said")
		if i == 0 {
			r.printed(1, chatFrame(answer)) // observed at once: the pane was quiet
			continue
		}
		r.procs[1].Print(chatFrame(answer)) // held by the pacing: the clock stands still
	}
	// One reading for nineteen frames: in the slot the pacing held them for, or, when
	// their signal reaches the loop only after the clock passed it, as it comes. Either
	// way it is after the last frame was written, and before alice's quiet is judged.
	r.advance(defaultInterval)
	r.await(func(ev Event) bool { o, ok := ev.(Output); return ok && o.Pane == 1 })
	r.advance(2 * time.Second) // alice is quiet: her turn goes to bob
	r.advance(time.Second)
	sent := r.procs[2].Sent()
	for _, l := range answer {
		assert.Contains(t, sent, l)
	}
	assert.Contains(t, sent, "alice (1):")
}
