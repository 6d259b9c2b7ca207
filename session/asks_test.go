package session

// Strategy: a fake claude pane prints an approval prompt; the member the session
// publishes (its event, Members, the socket's Panes and events) must say "needs you"
// with the question and choices read from its screen, keep Since while the prompt is
// redrawn, and drop Asks once the prompt is gone.

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
)

const claudePrompt = "\x1b[2J\x1b[H Bash command\r\n   touch probe\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel"

func TestAsksFromScreen(t *testing.T) {
	r := newRig(t, Options{OutputInterval: -1}, "claude")
	start := r.clock.Now()
	r.procs[1].Print(claudePrompt)
	ev := r.await(func(ev Event) bool { m, ok := ev.(MemberChanged); return ok && m.Member.State == NeedsYou })
	m := ev.(MemberChanged).Member
	require.NotNil(t, m.Asks)
	assert.Equal(t, "Do you want to proceed?", m.Asks.Question)
	assert.Equal(t, []parser.Option{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}, m.Asks.Options)
	assert.Equal(t, []string{"Bash command", "touch probe", "Do you want to proceed?", "❯ 1. Yes", "2. No"}, m.Asks.Context)
	assert.Equal(t, start, m.Asks.Since)
	assert.Equal(t, "Do you want to proceed? 1 Yes 2 No", m.Asks.Short())

	w := r.s.Panes()
	require.Len(t, w, 1)
	require.NotNil(t, w[0].Asks)
	assert.Equal(t, "needs you", w[0].State)
	assert.Equal(t, start.UnixMilli(), w[0].Asks.Since)
	assert.Equal(t, "2", w[0].Asks.Options[1].Key)
	evs := wireEvent(ev)
	require.Len(t, evs, 1)
	assert.Equal(t, "Do you want to proceed?", evs[0].Asks.Question)

	// Redrawn a second later: the same ask, waiting since the start.
	r.advance(time.Second)
	r.printed(1, claudePrompt)
	assert.Equal(t, start, r.s.Members()[0].Asks.Since)

	// Answered: the prompt is gone, and so is the ask.
	r.printed(1, "\x1b[2J\x1b[H● done\r\n\r\n❯ \r\n")
	got := r.s.Members()[0]
	assert.NotEqual(t, NeedsYou, got.State)
	assert.Nil(t, got.Asks)
}
