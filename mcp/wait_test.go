package mcp

// The wait's logic without a socket: the event log read from cursors (and trimmed
// past its cap), a message's phases folded over its recipients, an answer taken only
// after the message landed, and tokens that carry a wait from one call to the next.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/proto"
)

func TestEventLogCursors(t *testing.T) {
	l := newEventLog()
	c0 := l.cursor()
	_, _, changed, ended := l.since(c0)
	require.False(t, ended)
	l.add(proto.Event{Kind: "a"})
	select {
	case <-changed:
	default:
		t.Fatal("an event did not wake the waits")
	}
	evs, next, _, _ := l.since(c0)
	require.Len(t, evs, 1)
	assert.Equal(t, c0+1, next)
	for range logCap + 10 {
		l.add(proto.Event{Kind: "b"})
	}
	evs, next, _, _ = l.since(c0) // older than the log holds: from the oldest kept
	assert.LessOrEqual(t, len(evs), logCap)
	assert.Equal(t, l.cursor(), next)
	assert.Equal(t, proto.EventKind("b"), evs[len(evs)-1].Kind)
	_, _, changed, _ = l.since(next)
	l.end()
	<-changed
	_, _, _, ended = l.since(next)
	assert.True(t, ended)
}

func TestWaitPhases(t *testing.T) {
	st := &waitState{spec: waitSpec{ID: "m1", Phase: "submitted"}, phases: map[string]string{}, why: map[string]string{}}
	st.setPhase("bob", "queued", "")
	done, _ := st.done()
	assert.False(t, done)
	done, out := st.apply(proto.Event{Kind: "delivery", ID: "m2", Member: "bob", Phase: "confirmed"})
	assert.False(t, done, "another message's phase: %+v", out)
	done, _ = st.apply(proto.Event{Kind: "delivery", ID: "m1", Member: "bob", Phase: "typed"})
	assert.False(t, done)
	done, out = st.apply(proto.Event{Kind: "delivery", ID: "m1", Member: "bob", Phase: "confirmed"})
	assert.True(t, done)
	assert.Equal(t, waitOut{Status: "confirmed", ID: "m1", Member: "bob", Phase: "confirmed"}, out)
	// A phase never goes back.
	st.setPhase("bob", "typed", "")
	assert.Equal(t, "confirmed", st.phases["bob"])

	// Expired ends a wait for confirmed, with why.
	st = &waitState{spec: waitSpec{ID: "m1", Phase: "confirmed"}, phases: map[string]string{}, why: map[string]string{}}
	done, out = st.apply(proto.Event{Kind: "delivery", ID: "m1", Member: "bob", Phase: "expired", Text: "not typed within its timeout"})
	assert.True(t, done)
	assert.Equal(t, "expired", out.Status)
	assert.Equal(t, "not typed within its timeout", out.Text)

	// Two recipients: done when both are.
	// (the store named both when the wait began).
	st = &waitState{spec: waitSpec{ID: "m1", Phase: "typed"}, phases: map[string]string{}, why: map[string]string{}}
	st.setPhase("a", "queued", "")
	st.setPhase("b", "queued", "")
	done, _ = st.apply(proto.Event{Kind: "delivery", ID: "m1", Member: "a", Phase: "typed"})
	assert.False(t, done)
	done, out = st.apply(proto.Event{Kind: "delivery", ID: "m1", Member: "b", Phase: "submitted"})
	assert.True(t, done)
	assert.Equal(t, "typed", out.Status, "the least advanced")
	assert.Empty(t, out.Member)
}

func TestWaitAnswer(t *testing.T) {
	st := &waitState{spec: waitSpec{ID: "m1", Answer: true}, phases: map[string]string{}, why: map[string]string{}}
	done, _ := st.apply(proto.Event{Kind: "turn", Member: "bob", Text: "an earlier turn", TS: 5})
	assert.False(t, done, "a turn before the message landed is no answer")
	done, _ = st.apply(proto.Event{Kind: "delivery", ID: "m1", Member: "bob", Phase: "submitted", TS: 10})
	assert.False(t, done)
	done, _ = st.apply(proto.Event{Kind: "turn", Member: "alice", Text: "not bob", TS: 11})
	assert.False(t, done)
	done, out := st.apply(proto.Event{Kind: "turn", Member: "Bob", Text: "four", TS: 12})
	assert.True(t, done)
	assert.Equal(t, waitOut{Status: "answered", ID: "m1", Member: "Bob", Phase: "submitted", Text: "four"}, out)

	// A message that failed ends the wait for its answer.
	st = &waitState{spec: waitSpec{ID: "m1", Answer: true}, phases: map[string]string{}, why: map[string]string{}}
	done, out = st.apply(proto.Event{Kind: "delivery", ID: "m1", Member: "bob", Phase: "dropped", Text: "the pane exited"})
	assert.True(t, done)
	assert.Equal(t, "dropped", out.Status)
}

func TestWaitTokens(t *testing.T) {
	w := waitSpec{Instance: "i", Cursor: 42, ID: "m1", Answer: true, Member: "bob", Landed: true, LandedAt: 7}
	got, err := parseToken(w.token())
	require.NoError(t, err)
	assert.Equal(t, w, got)
	for _, bad := range []string{"", "!!", "e30"} { // e30 is {}: it names nothing
		_, err := parseToken(bad)
		assert.ErrorContains(t, err, "token:", bad)
	}
}
