package hooks

// pi's extension: the pane's command gets -e with a file of agentmux's that names this
// agentmux and reports the session id on agent_end, and pi's turns still end by the
// screen (Spec says no hooks). `agentmux hook conversation` reads the id of the CLIs
// that report that way, and no other's.

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

func TestPiGetsTheConversationExtension(t *testing.T) {
	h := &Setup{bin: `/opt/agent "mux"/agentmux`, dir: t.TempDir()}
	spec, ok := h.Spec(5, session.PaneSpec{Argv: []string{"pi", "--offline"}}, parser.Builtins()["pi"])
	assert.False(t, ok, "pi's turns end by its screen")
	ext := filepath.Join(h.dir, "5-pi-agentmux.mjs")
	require.Equal(t, []string{"pi", "-e", ext, "--offline"}, spec.Argv)
	src, err := os.ReadFile(ext)
	require.NoError(t, err)
	assert.Contains(t, string(src), "const agentmux = "+strconv.Quote(h.bin)+";")
	assert.Contains(t, string(src), `pi.on("agent_end"`)
	assert.Contains(t, string(src), `["hook", "conversation", payload]`)

	h.noHooks = true
	spec, _ = h.Spec(6, session.PaneSpec{Argv: []string{"pi"}}, parser.Builtins()["pi"])
	assert.Equal(t, []string{"pi"}, spec.Argv, "--no-hooks: no extension")
}

func TestConversationReport(t *testing.T) {
	h, ok := hookReport(proto.HookConversation, []byte(`{"cli":"pi","session_id":"019ac2f3-8e1d"}`))
	require.True(t, ok)
	assert.Equal(t, proto.Hook{Event: proto.HookConversation, CLI: "pi", Conversation: "019ac2f3-8e1d"}, h)
	h, ok = hookReport(proto.HookConversation, []byte(`{"cli":"pi","session_id":"019ac2f3-8e1d","transcript_path":"/p/s.jsonl"}`))
	require.True(t, ok)
	assert.Equal(t, "/p/s.jsonl", h.Usage, "the session file, where the turn's usage is read")
	for _, bad := range []string{`{"cli":"claude","session_id":"x"}`, `{"cli":"pi"}`, `{"session_id":"x"}`, `nope`} {
		_, ok := hookReport(proto.HookConversation, []byte(bad))
		assert.False(t, ok, bad)
	}
}
