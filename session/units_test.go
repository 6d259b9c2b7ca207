package session

// The loop's small parts on their own: the typing gate, output pacing, subscriptions
// and drafts.

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/relay"
)

func TestGateHoldsInOrderWhileClosed(t *testing.T) {
	var g gate
	assert.False(t, g.hold(1, []byte("a")), "an open gate holds nothing")
	g.close(1)
	g.close(1) // closing twice keeps what is held
	buf := []byte("b")
	require.True(t, g.hold(1, buf))
	buf[0] = 'X' // the gate keeps its own copy
	require.True(t, g.hold(1, []byte("c")))
	assert.False(t, g.hold(2, []byte("d")), "other panes' gates stay open")
	assert.True(t, g.isClosed(1))
	assert.Equal(t, [][]byte{[]byte("b"), []byte("c")}, g.open(1))
	assert.False(t, g.isClosed(1))
	assert.Nil(t, g.open(1))
}

func TestPacingOncePerIntervalAndAtOnceAfterInput(t *testing.T) {
	t0 := time.Unix(0, 0)
	p := newPacing(10 * time.Millisecond)
	require.True(t, p.offer(1, t0), "the first output goes at once")
	p.observed(1, t0)
	assert.False(t, p.offer(1, t0.Add(3*time.Millisecond)), "inside the interval it is held")
	at, ok := p.next()
	require.True(t, ok)
	assert.Equal(t, t0.Add(10*time.Millisecond), at)
	assert.Empty(t, p.due(t0.Add(9*time.Millisecond)))
	assert.Equal(t, []int{1}, p.due(t0.Add(10*time.Millisecond)))
	p.observed(1, t0.Add(10*time.Millisecond))
	_, ok = p.next()
	assert.False(t, ok, "nothing held: no wake-up")

	p.grant(1)
	assert.True(t, p.offer(1, t0.Add(11*time.Millisecond)), "the echo of input goes at once")
	p.observed(1, t0.Add(11*time.Millisecond))
	assert.False(t, p.offer(1, t0.Add(12*time.Millisecond)), "the credit is spent")
	assert.True(t, p.isHeld(1))
	p.forget(1)
	assert.False(t, p.isHeld(1))
}

func TestSubscriptionCoalescesOutputAndDropsTheSlow(t *testing.T) {
	s := newSubscription(3)
	require.True(t, s.push(Output{Pane: 1}))
	require.True(t, s.push(Output{Pane: 1}))
	require.True(t, s.push(Exit{Pane: 2}))
	<-s.Ready()
	assert.Equal(t, []Event{Output{Pane: 1}, Exit{Pane: 2}}, s.Next())
	require.True(t, s.push(Output{Pane: 1}), "taken events no longer coalesce")
	require.True(t, s.push(Alert{Pane: 1}))
	require.True(t, s.push(Alert{Pane: 1}))
	assert.False(t, s.push(Alert{Pane: 1}), "past the limit the subscriber is dropped")
	_, open := <-s.Ready()
	for open {
		_, open = <-s.Ready()
	}
	assert.ErrorIs(t, s.Err(), ErrSlow)
	assert.Nil(t, s.Next())

	// A pause coalesced into a pending Output marks it, wherever it is in the queue; a
	// later Output that is not quiet leaves the mark.
	q := newSubscription(0)
	require.True(t, q.push(Output{Pane: 1}))
	require.True(t, q.push(Output{Pane: 2}))
	require.True(t, q.push(Output{Pane: 1, Quiet: true}))
	require.True(t, q.push(Output{Pane: 1}))
	assert.Equal(t, []Event{Output{Pane: 1, Quiet: true}, Output{Pane: 2}}, q.Next())

	c := newSubscription(0)
	c.Close()
	assert.NoError(t, c.Err())
	assert.False(t, c.push(Output{Pane: 1}))
}

func TestDraftsFollowKeysAndPastes(t *testing.T) {
	d := drafts{}
	r := func(c rune) keys.Key { return keys.Key{Code: keys.KeyRune, Rune: c} }
	assert.Equal(t, relay.Keystroke{Pane: 1, Draft: true, Text: "h"}, d.key(1, r('h')))
	d.key(1, r('i'))
	d.key(1, keys.Key{Code: keys.KeyEnter, Mod: keys.ModShift})
	assert.Equal(t, []relay.Event{relay.Keystroke{Pane: 1, Draft: true, Text: "hi\nthere"}}, d.paste(1, "there", false))
	assert.Equal(t, relay.Keystroke{Pane: 1, Draft: true, Text: "hi\nther"}, d.key(1, keys.Key{Code: keys.KeyBackspace}))
	assert.Equal(t, relay.Sent{Pane: 1, Text: "hi\nther"}, d.key(1, keys.Key{Code: keys.KeyEnter}))
	assert.Equal(t, relay.Keystroke{Pane: 1}, d.key(1, keys.Key{Code: keys.KeyEnter}))
	d.key(1, r('x'))
	assert.Equal(t, relay.Keystroke{Pane: 1}, d.key(1, keys.Key{Code: keys.KeyRune, Rune: 'u', Mod: keys.ModCtrl}))
	assert.Nil(t, d.paste(1, "", false))
	assert.Nil(t, d.paste(1, "", true))
}

// An unbracketed paste reaches the program with its line breaks as Enter: each submits
// the input as it then is, and what follows the last is the draft; a bracketed one is
// draft throughout.
func TestDraftsPasteUnbracketedSubmits(t *testing.T) {
	d := drafts{}
	d.key(1, keys.Key{Code: keys.KeyRune, Rune: 'x'})
	assert.Equal(t, []relay.Event{
		relay.Sent{Pane: 1, Text: "x = 1"},
		relay.Sent{Pane: 1, Text: "y = 2"},
		relay.Keystroke{Pane: 1}, // an empty line: Enter on an empty input
		relay.Sent{Pane: 1, Text: "print(x + y)"},
	}, d.paste(1, " = 1\ny = 2\r\n\rprint(x + y)\n", true))
	assert.Empty(t, d, "nothing left in the input")
	assert.Equal(t, []relay.Event{relay.Sent{Pane: 1, Text: "alpha"}, relay.Keystroke{Pane: 1, Draft: true, Text: "be"}},
		d.paste(1, "alpha\nbe", true))
	assert.Equal(t, []relay.Event{relay.Keystroke{Pane: 1, Draft: true, Text: "beta\ngamma\n"}}, d.paste(1, "ta\ngamma\n", false))
}
