package ui

// The border says what a pane spent: its cost, "+?" when part had no price, its tokens
// when none had; nothing before anything was read.

import (
	"testing"

	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/usage"
)

func TestBorderShowsSpend(t *testing.T) {
	for _, tc := range []struct {
		spend session.Spend
		want  string
	}{
		{session.Spend{}, "idle · linked"},
		{session.Spend{Tokens: usage.Tokens{Input: 100_000, Output: 20_000}, USD: 0.42, Priced: true}, "idle · linked · $0.42"},
		{session.Spend{Tokens: usage.Tokens{Input: 100_000, Output: 20_000}, USD: 0.42, Priced: true, Unpriced: true}, "idle · linked · $0.42+?"},
		{session.Spend{Tokens: usage.Tokens{Input: 100_000, Output: 20_000}, Unpriced: true}, "idle · linked · 120k tok"},
	} {
		got, _ := borderState(session.Member{State: session.Idle, Group: 1, Spend: tc.spend}, false)
		if got != tc.want {
			t.Errorf("border %q, want %q", got, tc.want)
		}
	}
}
