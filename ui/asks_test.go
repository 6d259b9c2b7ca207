package ui

// Strategy: borderState is a pure function of the member; a pane that needs the person
// must say what it asks on its border, short and bounded, and say only "needs you" when
// nothing was read.

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/session"
)

func TestBorderStateAsks(t *testing.T) {
	mb := session.Member{State: session.NeedsYou, Asks: &session.Asks{Question: "Do you want to proceed?",
		Options: []parser.Option{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}}}
	got, kind := borderState(mb, false)
	assert.Equal(t, "needs you · Do you want to proceed? 1 Yes 2 No", got)
	assert.Equal(t, kindNeedsYou, kind)

	long := "Would you like to run the following command and everything after it?"
	mb.Asks.Question = long
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you · "+long+" 1 Yes 2 No", got)

	// Linked with a delivery waiting: the flags first, the ask last, as much of it as
	// the border has room for; a border with too little room for a useful part of it
	// keeps the flags, one too narrow for them "needs you".
	mb.Group, mb.Waiting = 1, 1
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you · linked · 1 waiting · "+long+" 1 Yes 2 No", got)
	st := newStyles(lipgloss.NewRenderer(io.Discard))
	border := func(w int) string {
		return ansi.Strip(st.topBorder(w, "2 gemini", got, "", false, kindNeedsYou, false, ""))
	}
	assert.Contains(t, border(200), "─ needs you · linked · 1 waiting · "+long+" 1 Yes 2 No ─")
	assert.Contains(t, border(60), "─ needs you · linked · 1 waiting · Would you l… ╮")
	assert.Contains(t, border(50), "─ needs you · linked · 1 waiting ─")
	assert.Contains(t, border(30), "─ needs you ─")
	for _, w := range []int{200, 60, 50, 30} {
		assert.Equal(t, w, ansi.StringWidth(border(w)), "border width %d", w)
	}

	mb.Asks = nil
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you · linked · 1 waiting", got, "nothing read: nothing said of it")

	// What a pane's hook says it asks is its program's text: escape sequences (OSC 52
	// would write the person's clipboard, OSC 0 retitle their terminal), C1 controls
	// and bidi overrides are shown as nothing, never reach the terminal.
	mb.Group, mb.Waiting = 0, 0
	mb.Asks = &session.Asks{Question: "Allow \x1b]52;c;cHduZWQ=\x07\x1b]0;T\x07\x1b[31mRED\u009b2J \u202eit?"}
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you · Allow ]52;c;cHduZWQ=]0;T[31mRED2J it?", got)
	assert.NotContains(t, border(200), "\x1b]")
}
