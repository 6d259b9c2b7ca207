package hooks

// The hook settings agentmux gives claude, codex and gemini, and `agentmux hook`
// reading each program's payload (fake payloads shaped as each CLI sends them) and
// reporting X_HOOK to a session, exiting 0 whatever happens.

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/parser"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/session"
)

func TestHookSettingsPerProgram(t *testing.T) {
	h := &Setup{bin: "/opt/agent mux/agentmux", dir: t.TempDir()}
	b := parser.Builtins()

	spec, ok := h.Spec(1, session.PaneSpec{Name: "claude", Argv: []string{"claude", "--model", "x"}}, b["claude"])
	require.True(t, ok)
	require.Equal(t, []string{"claude", "--settings", filepath.Join(h.dir, "1-claude-settings.json"), "--model", "x"}, spec.Argv)
	var settings struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	data, err := os.ReadFile(spec.Argv[2])
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &settings))
	assert.Equal(t, `'/opt/agent mux/agentmux' hook stop`, settings.Hooks["Stop"][0].Hooks[0].Command)
	assert.Equal(t, "command", settings.Hooks["Stop"][0].Hooks[0].Type)
	assert.Equal(t, `'/opt/agent mux/agentmux' hook notification`, settings.Hooks["Notification"][0].Hooks[0].Command)

	spec, ok = h.Spec(2, session.PaneSpec{Argv: []string{"codex", "--full-auto"}}, b["codex"])
	require.True(t, ok)
	assert.Equal(t, []string{"codex", "-c", `notify=["/opt/agent mux/agentmux","hook","codex-notify"]`, "--full-auto"}, spec.Argv)

	person := t.TempDir()
	gem := session.PaneSpec{Argv: []string{"gemini"}, Env: []string{"A=1", "HOME=" + person}}
	spec, ok = h.Spec(3, gem, b["gemini"])
	require.True(t, ok)
	assert.Equal(t, gem.Argv, spec.Argv, "Gemini takes no hook flag: its home is its own")
	require.Len(t, spec.Env, 4)
	home, found := strings.CutPrefix(spec.Env[2], "GEMINI_CLI_HOME=")
	require.True(t, found, spec.Env)
	assert.Equal(t, "GEMINI_CLI_TRUSTED_FOLDERS_PATH="+filepath.Join(person, ".gemini", "trustedFolders.json"), spec.Env[3],
		"Gemini renames over its trust file: it writes the person's own, nothing to copy back")
	t.Setenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH", "/etc/trust.json")
	spec2, ok := h.Spec(4, gem, b["gemini"])
	require.True(t, ok)
	assert.Len(t, spec2.Env, 3, "a trust file the person names stays theirs")
	assert.Equal(t, h.dir, filepath.Dir(home))
	data, err = os.ReadFile(filepath.Join(home, ".gemini", "extensions", geminiHookExtension, "hooks", "hooks.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &settings))
	assert.Equal(t, `'/opt/agent mux/agentmux' hook after-agent`, settings.Hooks["AfterAgent"][0].Hooks[0].Command)
	assert.Equal(t, `'/opt/agent mux/agentmux' hook gemini-notification`, settings.Hooks["Notification"][0].Hooks[0].Command,
		"its tools' approval prompts")
	var named struct {
		Hooks map[string][]struct{ Hooks []struct{ Name string } }
	}
	require.NoError(t, json.Unmarshal(data, &named))
	assert.Equal(t, "agentmux", named.Hooks["AfterAgent"][0].Hooks[0].Name, "what Gemini shows while it runs")

	_, ok = h.Spec(4, session.PaneSpec{Argv: []string{"bash"}}, b["generic"])
	assert.False(t, ok)
}

func TestHookReports(t *testing.T) {
	transcript := filepath.Join(t.TempDir(), "t.jsonl")
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"first question"}}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"old answer"}]}}`,
		`{"type":"user","message":{"role":"user","content":"make a table"}}`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t","name":"Read","input":{}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}}`,
		`{"type":"assistant","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"| a | b |\n|---|---|\n| 1 | 2 |"}]}}`,
		`{"type":"assistant","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"` + "```go\\nfmt.Println(1)\\n```" + `"}]}}`,
		`{"type":"system","subtype":"stop_hook_summary"}`,
	}
	require.NoError(t, os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	stop, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": transcript, "hook_event_name": "Stop", "stop_hook_active": false})
	chat := filepath.Join(t.TempDir(), "session-1.jsonl")
	require.NoError(t, os.WriteFile(chat, []byte(`{"sessionId":"s","kind":"main"}
{"id":"u1","type":"user","content":[{"text":"hi"}]}
{"id":"g1","type":"gemini","content":"**hello**\n\n- a\n\tb","thoughts":[],"model":"m"}
`), 0o600))
	// Gemini's own prompt_response is the streamed chunks joined with spaces: not read.
	afterAgent, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": chat, "hook_event_name": "AfterAgent",
		"prompt": "hi", "prompt_response": "**hello** \n\n- a \n\tb"})

	for _, tc := range []struct {
		event, payload string
		ok             bool
		cli, text      string
		conversation   string
	}{
		{"stop", string(stop), true, "claude", "| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfmt.Println(1)\n```", "s"},
		{"stop", `{"last_assistant_message":"given **whole**","transcript_path":"/nonexistent"}`, true, "claude", "given **whole**", ""},
		{"stop", `{"transcript_path":"/nonexistent"}`, true, "claude", "", ""},
		{"stop", `not json`, true, "claude", "", ""},
		{"notification", `{"message":"Claude needs your permission"}`, false, "", "", ""},
		{"notification", `{"message":"Claude needs your permission to use Bash","notification_type":"permission_prompt"}`, true, "claude", "Claude needs your permission to use Bash", ""},
		{"notification", `{"message":"Claude is waiting for your input","notification_type":"idle_prompt"}`, false, "", "", ""},
		{"gemini-notification", `{"notification_type":"ToolPermission","message":"Tool Shell requires confirmation","details":{}}`, true, "gemini", "Tool Shell requires confirmation", ""},
		{"qwen-notification", `{"notification_type":"permission_prompt","message":"Qwen Code needs your permission to use Shell","title":"x"}`, true, "qwen", "Qwen Code needs your permission to use Shell", ""},
		{"codex-notify", `{"type":"agent-turn-complete","thread-id":"019a-t","turn-id":"1","input-messages":["make a table"],"last-assistant-message":"| a |\n|---|\n| 1 |"}`, true, "codex", "| a |\n|---|\n| 1 |", "019a-t"},
		{"qwen-stop", `{"session_id":"q-1","last_assistant_message":"done"}`, true, "qwen", "done", "q-1"},
		{"codex-notify", `{"type":"agent-turn-complete","turn-id":"0","input-messages":[],"last-assistant-message":"{\"title\":\"Tables\"}"}`, false, "", "", ""},
		{"codex-notify", `{"type":"agent-turn-complete","input-messages":["x"],"last-assistant-message":"{\"title\":\"Tables\"}"}`, false, "", "", ""},
		{"codex-notify", `{"type":"approval-requested"}`, false, "", "", ""},
		{"after-agent", string(afterAgent), true, "gemini", "**hello**\n\n- a\n\tb", "s"},
		{"after-agent", `{"prompt_response":"**hello** \n\n- a \n\tb","transcript_path":"/nonexistent"}`, true, "gemini", "", ""},
		{"whatever", `{}`, false, "", "", ""},
	} {
		h, ok := hookReport(tc.event, []byte(tc.payload))
		assert.Equal(t, tc.ok, ok, "%s %s", tc.event, tc.payload)
		if ok {
			assert.Equal(t, tc.cli, h.CLI, tc.payload)
			assert.Equal(t, tc.text, h.Text, tc.payload)
			assert.Equal(t, tc.conversation, h.Conversation, tc.payload)
			assert.Equal(t, strings.HasSuffix(tc.event, "notification"), h.Event == proto.HookAsk, tc.payload)
		}
	}
	// The transcript a hook names is where the session reads the turn's usage.
	for event, payload := range map[string][]byte{"stop": stop, "after-agent": afterAgent} {
		h, _ := hookReport(event, payload)
		assert.NotEmpty(t, h.Usage, event)
		assert.Contains(t, string(payload), h.Usage, event)
	}
}

// A socket that accepts and never answers (a hung session, or not agentmux at all) costs
// a hook at most its time bound, with the reason on stderr.
func TestClientsGiveUpOnASilentSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "silent.sock")
	l, err := net.Listen("unix", path)
	require.NoError(t, err)
	accepted := make(chan net.Conn, 16)
	go func() {
		defer close(accepted)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	defer func() {
		l.Close()
		for c := range accepted {
			c.Close()
		}
	}()
	t.Setenv("AGENTMUX_PANE", "1")
	t.Setenv("AGENTMUX_SOCKET", path)
	var stderr bytes.Buffer
	start := time.Now()
	done := make(chan int, 1)
	go func() {
		done <- Run([]string{"after-agent", `{"prompt_response":"x"}`}, strings.NewReader(""), &stderr)
	}()
	select {
	case code := <-done:
		assert.Equal(t, 0, code)
		assert.Less(t, time.Since(start), hookTimeout+time.Second)
		assert.Contains(t, stderr.String(), "no answer to HELLO")
	case <-time.After(hookTimeout + 5*time.Second):
		t.Fatal("the hook hangs on a socket that says nothing")
	}
}
