package ui

// Strategy: the harness runs the real session over fake panes; panes print an approval
// prompt of Claude Code's shape and the test reads what the model sent its terminal
// (recordScreen). The focused pane never notifies; others do, once per change of state,
// several in one batch as one; the modes give their sequences, and a pane's words can
// neither end the OSC string nor add control characters.

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/session"
)

const approvalScreen = "\x1b[2J\x1b[H Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel"

func TestTerminalNotifiesOthersOnly(t *testing.T) {
	hs := newHarness(t, 120, 40, "claude", "claude")
	rec := &recordScreen{}
	hs.m.scr = rec
	hs.output(1, approvalScreen) // the focused pane: the person sees it
	require.Equal(t, session.NeedsYou, hs.m.views[1].member.State)
	assert.Empty(t, rec.sent, "no notification for the pane in front of the person")

	hs.output(2, approvalScreen)
	require.Equal(t, session.NeedsYou, hs.m.views[2].member.State)
	require.Len(t, rec.sent, 1)
	assert.Equal(t, "\x1b]9;claude (2) needs you: Do you want to proceed? 1 Yes 2 No\x1b\\", rec.sent[0])

	hs.output(2, approvalScreen) // redrawn: still the same state
	assert.Len(t, rec.sent, 1, "one notification per change of state")
}

func TestTerminalNoteModes(t *testing.T) {
	one := []session.Member{{Pane: 3, Name: "codex", State: session.NeedsYou,
		Asks: &session.Asks{Question: "Run it?\x1b]0;pwned\x07;x", Options: []parser.Option{{Key: "1", Label: "Yes"}}}}}
	assert.Equal(t, "\x1b]9;codex (3) needs you: Run it? ]0 pwned  x 1 Yes\x1b\\", terminalNote(NotifyOSC9, one))
	assert.Equal(t, "\x1b]777;notify;codex (3) needs you;Run it? ]0 pwned  x 1 Yes\x1b\\", terminalNote(NotifyOSC777, one))
	assert.Equal(t, "\a", terminalNote(NotifyBell, one))
	six := make([]session.Member, 6)
	for i := range six {
		six[i] = session.Member{Pane: i + 1, Name: "p" + string(rune('1'+i))}
	}
	got := terminalNote("", six)
	assert.Equal(t, "\x1b]9;6 panes need you: p1, p2, p3, p4, p5, p6\x1b\\", got)
	assert.Equal(t, 1, strings.Count(got, "\x1b]"), "six panes: one notification")
}
