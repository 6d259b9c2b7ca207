package web

// The page shows spend as the terminal does: each pane's bar what its program spent
// (read from the file its CLI records usage in, through Session.Usage), each linked
// pane's bar its link with what the link spent of its spend budget; both follow as
// more is read. In real Chromium, as the other browser tests.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/session"
	"github.com/agentmux/agentmux/usage"
)

func TestBrowserShowsSpend(t *testing.T) {
	r := newRig(t, Options{}, "alice", "bob")
	require.NoError(t, r.sess.LinkRestored(session.RestoredLink{Members: []int{1, 2}, Used: 1, Budget: 8,
		Limit: usage.Budget{Tokens: 5000}, Spent: session.SpendTotal{Tokens: usage.Tokens{Input: 1200}}}))
	p := chromeTab(r, r.url())
	bar := func(pane string) string { return `document.querySelector('.pane[data-pane="` + pane + `"] .bar')` }
	r.waitOn(p, bar("2")+`.querySelector('.group').textContent === 'group 1⇄2 1/8 1.2k/5k tok'`)
	r.waitOn(p, bar("1")+`.querySelector('.spend') === null`)

	// alice's CLI records a request (claude-sonnet-4-5 at the shipped prices: $0.0079).
	path := filepath.Join(t.TempDir(), "t.jsonl")
	line := `{"type":"assistant","requestId":"r1","message":{"id":"m1","model":"claude-sonnet-4-5","usage":{"input_tokens":1000,"output_tokens":200,"cache_read_input_tokens":5000,"cache_creation_input_tokens":100}}}` + "\n"
	require.NoError(t, os.WriteFile(path, []byte(line), 0o600))
	require.NoError(t, r.sess.Usage("alice", "claude", path))
	r.waitOn(p, bar("1")+`.querySelector('.spend') && `+bar("1")+`.querySelector('.spend').textContent === '$0.0079'`)
	r.waitOn(p, bar("2")+`.querySelector('.spend') === null`)
}
