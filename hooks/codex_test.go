package hooks

// Strategy: a CODEX_HOME of rollout files laid out as Codex writes them; the notify's
// turn id must pick the one file whose turn_context carries it, and a turn id that is
// no id (a glob, a path) must find nothing; codexTurnID agrees with the expression it
// replaced on edge cases.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodexRolloutByTurnID(t *testing.T) {
	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	now := time.Now()
	dir := filepath.Join(home, "sessions", now.Format("2006"), now.Format("01"), now.Format("02"))
	require.NoError(t, os.MkdirAll(dir, 0o700))
	write := func(name, turn string) string {
		p := filepath.Join(dir, name)
		line := `{"timestamp":"x","type":"turn_context","payload":{"turn_id":"` + turn + `","model":"gpt-5"}}` + "\n"
		require.NoError(t, os.WriteFile(p, []byte(line), 0o600))
		return p
	}
	a := write("rollout-2026-01-01T10-00-00-aaa.jsonl", "01a-turn-1")
	b := write("rollout-2026-01-01T10-00-01-bbb.jsonl", "01b-turn-9")
	assert.Equal(t, a, codexRollout("01a-turn-1", now))
	assert.Equal(t, b, codexRollout("01b-turn-9", now))
	assert.Equal(t, "", codexRollout("01c", now))
	assert.Equal(t, "", codexRollout("*", now))
	assert.Equal(t, "", codexRollout("../x", now))
	h, ok := hookReport("codex-notify", []byte(`{"type":"agent-turn-complete","turn-id":"01b-turn-9","input-messages":["x"],"last-assistant-message":"ok"}`))
	assert.True(t, ok)
	assert.Equal(t, b, h.Usage)
}

func TestCodexTurnIDForm(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)
	for _, s := range []string{"", "a", "01a-turn_9", "Z", strings.Repeat("x", 128), strings.Repeat("x", 129),
		"a b", "a/b", "../x", "*", "é", "a\n", "a.b", "019a7c2e-3f0b-7d12-9c44-5b1e2f3a4b5c"} {
		assert.Equal(t, re.MatchString(s), codexTurnID(s), "%q", s)
	}
}
