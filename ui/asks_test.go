package ui

// Strategy: borderState is a pure function of the member; a pane that needs the person
// must say what it asks on its border, short and bounded, and say only "needs you" when
// nothing was read.

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/session"
)

func TestBorderStateAsks(t *testing.T) {
	mb := session.Member{State: session.NeedsYou, Asks: &session.Asks{Question: "Do you want to proceed?",
		Options: []parser.Option{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}}}
	got, kind := borderState(mb, false)
	assert.Equal(t, "needs you: Do you want to proceed? 1 Yes 2 No", got)
	assert.Equal(t, kindNeedsYou, kind)

	mb.Asks.Question = "Would you like to run the following command and everything after it?"
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you: Would you like to run the following command and…", got)

	mb.Asks = nil
	got, _ = borderState(mb, false)
	assert.Equal(t, "needs you", got)
}
