package web

// The page names its control frames by the action vocabulary's names: every name app.js
// sends as a frame's t (auth aside, which is no action) is one the control takes, every
// one it takes is the vocabulary's and app.js sends it, so the page, the keys, the
// command line and the MCP tools name an action alike.

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/action"
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
		if name == "auth" {
			continue
		}
		assert.True(t, slices.Contains(Actions(), action.Name(name)), "app.js sends %q, which the control does not take", name)
	}
	for _, a := range Actions() {
		assert.True(t, a.Known(), "the control takes %q, no action of the vocabulary", a)
		assert.Contains(t, sent, string(a), "the control takes %s, which the page never sends", a)
	}
}
