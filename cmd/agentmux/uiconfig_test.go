package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConfigUITable(t *testing.T) {
	st, err := parseConfig([]byte("[ui]\nprefix = \"ctrl+b\"\nlayout = \"rows\"\nturns = 3\nidle = \"2s\"\nscrollback = 500\n[ui.keys]\n\"n\" = \"new-pane\"\n\"ctrl+t\" = \"sync\"\n"))
	require.NoError(t, err)
	o, err := parseArgs([]string{"--turns", "5", "cat"})
	require.NoError(t, err)
	applyUI(&o, st.UI, o.set)
	assert.Equal(t, "ctrl+b", o.cfg.PrefixSpec)
	assert.Equal(t, "rows", o.cfg.Layout.String())
	assert.Equal(t, 5, o.sess.Turns, "the flag wins")
	assert.Equal(t, 2*time.Second, o.sess.Idle)
	assert.Equal(t, 500, o.sess.HistoryLimit)
	require.Len(t, o.cfg.Bindings, 2)
	assert.Equal(t, "sync", o.cfg.Bindings[0].Action)
	assert.Equal(t, "new-pane", o.cfg.Bindings[1].Action)

	for text, want := range map[string]string{
		"[ui]\nprefix = \"a\"":             `[ui] prefix = "a": `,
		"[ui]\nprefix = 1":                 `[ui] prefix = 1: write it in quotes`,
		"[ui]\nlayout = \"diagonal\"":      `[ui] layout: unknown layout "diagonal"`,
		"[ui]\nturns = 0":                  `[ui] turns must be at least 1, not 0`,
		"[ui]\nidle = 2":                   `[ui] idle = 2 needs a unit`,
		"[ui]\nscrollback = -1":            `[ui] scrollback must be 0 or more lines`,
		"[ui.keys]\n\"n\" = \"fly\"":       `[ui.keys] "n": no action "fly" (one of: `,
		"[ui.keys]\n\"nope+x\" = \"sync\"": `[ui.keys] "nope+x": `,
	} {
		_, err := parseConfig([]byte(text))
		if assert.Error(t, err, text) {
			assert.Contains(t, err.Error(), want, text)
		}
	}
}

func TestWorktreeFlagForms(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []bool
	}{
		{[]string{"--worktree", "a=cat", "b=cat"}, []bool{true, true}},
		{[]string{"--worktree", "b", "a=cat", "b=cat"}, []bool{false, true}},
		{[]string{"--worktree=a", "a=cat", "b=cat"}, []bool{true, false}},
		{[]string{"--worktree", "cat", "b=cat"}, []bool{true, true}}, // cat names no pane: an agent
	} {
		o, err := parseArgs(c.args)
		require.NoError(t, err, c.args)
		assert.Equal(t, c.want, o.trees, c.args)
	}
	_, err := parseArgs([]string{"--worktree=zed", "a=cat"})
	assert.ErrorContains(t, err, "--worktree zed: no pane is named zed")
	_, err = parseArgs([]string{"--cwd", "a=/no/such/folder", "a=cat"})
	assert.ErrorContains(t, err, "--cwd a=/no/such/folder")
}
