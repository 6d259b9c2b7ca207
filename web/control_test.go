package web

// The page names its control frames by the session's action names: every name app.js
// sends as a frame's t (auth and input aside, the page's own) is a session.Action, so
// the page, the keys and the command line name an action alike.

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/session"
)

func TestThePageSendsActionsByTheirNames(t *testing.T) {
	js, err := os.ReadFile("assets/app.js")
	require.NoError(t, err)
	var sent []string
	for _, m := range regexp.MustCompile(`\bt: ([^,}]*)`).FindAllSubmatch(js, -1) {
		for _, q := range regexp.MustCompile(`'([a-z-]+)'`).FindAllSubmatch(m[1], -1) {
			sent = append(sent, string(q[1]))
		}
	}
	require.Contains(t, sent, "release", "the hold button's other name is read too")
	for _, name := range sent {
		if name == "auth" || name == string(actInput) {
			continue
		}
		assert.True(t, slices.Contains(session.Actions, session.Action(name)), "app.js sends %q, no session.Action", name)
	}
}
