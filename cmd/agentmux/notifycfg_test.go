package main

// Strategy: config.toml's [notify] texts and --notify-* flags → the notifier settings,
// or the one-line error a person reads; flags win over the file where they speak.

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseNotifyConfig(t *testing.T) {
	conf, err := parseConfig([]byte(`[notify]
terminal = "osc777"
command = ["notify-send", "agentmux"]
webhook = "http://127.0.0.1:8080/hook"
ntfy = "https://ntfy.sh/topic"
events = ["needs-you", "turn"]
`))
	require.NoError(t, err)
	assert.Equal(t, notifyFlags{terminal: "osc777", command: []string{"notify-send", "agentmux"},
		webhook: "http://127.0.0.1:8080/hook", ntfy: "https://ntfy.sh/topic", events: []string{"needs-you", "turn"}}, conf.Notify)

	for _, tc := range []struct{ in, err string }{
		{"[notify]\nterminal = \"popup\"\n", `notify terminal "popup": want osc9, osc777, bell or off`},
		{"[notify]\nterminal = true\n", `[notify] terminal = true: want "osc9"`},
		{"[notify]\ncommand = \"notify-send hi\"\n", `[notify] command = "notify-send hi": want a list of strings`},
		{"[notify]\ncommand = []\n", "[notify] command = []: name a program"},
		{"[notify]\nwebhook = \"ftp://x/\"\n", `notify webhook: "ftp://x/": want an http:// or https:// URL`},
		{"[notify]\nntfy = \"ntfy.sh/topic\"\n", `notify ntfy: "ntfy.sh/topic": want an http:// or https:// URL`},
		{"[notify]\nevents = [\"needs-you\", \"lunch\"]\n", `unknown event "lunch"`},
		{"[notify]\nsound = true\n", "unknown keys: notify.sound"},
	} {
		_, err := parseConfig([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line with %q", tc.in, err, tc.err)
		}
	}
}

func TestNotifyFlags(t *testing.T) {
	o, err := parseArgs([]string{"--notify-command", "my-notify --loud", "--notify-webhook", "http://127.0.0.1:1/x",
		"--notify-events", "needs-you,exited", "--notify-terminal", "bell", "bash"})
	require.NoError(t, err)
	got := o.notify.or(notifyFlags{terminal: "osc9", ntfy: "https://ntfy.sh/t", command: []string{"other"}})
	assert.Equal(t, []string{"my-notify", "--loud"}, got.command, "the flag wins")
	assert.Equal(t, "bell", got.terminal)
	assert.Equal(t, "http://127.0.0.1:1/x", got.webhook)
	assert.Equal(t, "https://ntfy.sh/t", got.ntfy, "the file fills what no flag said")
	assert.Equal(t, []string{"needs-you", "exited"}, got.events)

	for _, args := range [][]string{
		{"--notify-terminal", "loud", "bash"},
		{"--notify-webhook", "localhost:80", "bash"},
		{"--notify-events", "needs-you,lunch", "bash"},
	} {
		_, err := parseArgs(args)
		require.Error(t, err, "%v", args)
		assert.ErrorIs(t, err, errUsage)
	}
}
