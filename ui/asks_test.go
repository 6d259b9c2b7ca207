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

	mb.Asks.Question = "Would you like to run the following command and everything after it?"
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you · Would you like to run the following command and…", got)

	// Linked with a delivery waiting: the flags first, the ask last; a border too
	// narrow for the ask keeps the flags, one too narrow for them "needs you".
	mb.Group, mb.Waiting = 1, 1
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you · linked · 1 waiting · Would you like to run the following command and…", got)
	st := newStyles(lipgloss.NewRenderer(io.Discard))
	assert.Contains(t, ansi.Strip(st.topBorder(60, "2 gemini", got, false, kindNeedsYou, false, "")), "─ needs you · linked · 1 waiting ─")
	assert.Contains(t, ansi.Strip(st.topBorder(30, "2 gemini", got, false, kindNeedsYou, false, "")), "─ needs you ─")

	mb.Asks = nil
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you · linked · 1 waiting", got, "nothing read: nothing said of it")
}
