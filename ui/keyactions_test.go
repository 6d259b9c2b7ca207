package ui

// The keys name their actions in the one vocabulary: every command of the key map has
// its action in keyActions, every action there is the vocabulary's, and the names
// config.toml binds are those it always took (a renamed one would break a person's
// config).

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEveryKeyCommandIsAnActionOfTheVocabulary(t *testing.T) {
	named := map[command]bool{}
	for _, k := range keyActions {
		assert.True(t, k.name.Known(), "key command %d (%q) names %q, no action", k.act, k.bind, k.name)
		named[k.act] = true
	}
	for _, b := range keymap {
		assert.True(t, named[b.act], "key %s runs command %d, which keyActions does not name", b.label, b.act)
	}
	for _, k := range keyActions {
		assert.True(t, slices.ContainsFunc(keymap, func(b binding) bool { return b.act == k.act }), "%q: no key runs it", k.bind)
	}
	assert.Equal(t, []string{"address", "brief", "close", "diff", "focus-down", "focus-left", "focus-next", "focus-right",
		"focus-up", "help", "hold", "link", "link-all", "narrower", "new-pane", "next-layout", "quit", "relay-log", "rename",
		"respawn", "scroll", "send-prefix", "shorter", "swap-next", "swap-prev", "sync", "taller", "unlink", "wider", "zoom"},
		ActionNames(), "the names a binding takes")
}
