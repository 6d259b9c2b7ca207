// The session commands run in-process (run with their arguments) against a real hub on
// a socket in a temp XDG_RUNTIME_DIR, with a protocol member "bot" to receive: output,
// attribution, exit statuses for misuse (2) and failures (1), and session discovery.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/hub"
	"github.com/agentmux/agentmux/internal/hubtest"
	"github.com/agentmux/agentmux/proto"
)

// startSession serves a hub named name in the runtime dir; it returns the dir.
func startSession(t *testing.T, name string) string {
	t.Helper()
	dir, _ := startSessionHub(t, name)
	return dir
}

// startSessionHub is startSession that also returns the hub, to stop it early.
func startSessionHub(t *testing.T, name string) (string, *hub.Hub) {
	t.Helper()
	dir, err := dirs.RuntimeDir()
	require.NoError(t, err)
	return dir, hubtest.Start(t, dir, hub.Config{Session: name}).Hub
}

func runCmd(t *testing.T, stdin string, args ...string) (int, string, error) {
	t.Helper()
	var out bytes.Buffer
	code, err := run(context.Background(), args, strings.NewReader(stdin), &out, io.Discard)
	return code, out.String(), err
}

func TestClientCommands(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_NAME", "")
	dir := startSession(t, "proj")
	bot, err := client.Dial(dirs.SocketPath(dir, "proj"), proto.Hello{Agent: "bot", CLI: "script"})
	require.NoError(t, err)
	defer bot.Raw().Close()
	bot.SetDeadline(time.Now().Add(5 * time.Second))

	code, out, err := runCmd(t, "", "send", "bot", "hello", "there")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	id, status, _ := strings.Cut(strings.TrimSpace(out), " ")
	assert.Equal(t, "queued", status)
	d := next(t, bot)
	assert.Equal(t, id, d.ID)
	assert.Equal(t, "you", d.From)
	assert.Equal(t, "hello there", body(t, d))

	t.Setenv("AGENTMUX_NAME", "alice")
	_, _, err = runCmd(t, "from stdin\n", "send", "--session", "proj", "bot", "-")
	require.NoError(t, err)
	d = next(t, bot)
	assert.Equal(t, "you", d.From, "$AGENTMUX_NAME alone proves no pane: the person sent it")
	assert.Equal(t, "from stdin", body(t, d))
	_, out, err = runCmd(t, "", "send", "bot", "--from=carol", "--json", "--", "--not a flag")
	require.NoError(t, err)
	var sent map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &sent))
	assert.Equal(t, "queued", sent["status"])
	d = next(t, bot)
	assert.Equal(t, "carol", d.From)
	assert.Equal(t, "--not a flag", body(t, d))
	// Names that would pass for the person, a pane, or forge a header line.
	for _, from := range []string{"you", "YOU", "3", "a\nb", "agentmux", "x\x1b[8m", "two words"} {
		code, _, err := runCmd(t, "", "send", "bot", "--from", from, "spoofed")
		require.Error(t, err, "--from %q", from)
		assert.Equal(t, 2, code, "--from %q", from)
	}

	_, out, err = runCmd(t, "", "ls")
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^#\s+NAME\s+PROGRAM\s+PROFILE\s+STATE\s+GROUP\s+WAITING\s+TOKENS\s+COST\n-\s+bot\s+script\s+-\s+connected\s+-\s+0\s+-\s+-$`, strings.TrimSpace(out))
	_, out, err = runCmd(t, "", "ls", "--json")
	require.NoError(t, err)
	var ms []proto.Member
	require.NoError(t, json.Unmarshal([]byte(out), &ms))
	require.Len(t, ms, 1)
	assert.True(t, ms[0].Client)

	_, out, err = runCmd(t, "", "history", "--member", "bot", "--since", "1h", "--limit", "2")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], "you → bot  confirmed  from stdin")
	assert.Contains(t, lines[1], "carol → bot")
	_, out, err = runCmd(t, "", "read", id)
	require.NoError(t, err)
	assert.Contains(t, out, "from:   you\n")
	assert.Contains(t, out, "to:     bot (confirmed)\n")
	assert.True(t, strings.HasSuffix(out, "\nhello there\n"))

	_, out, err = runCmd(t, "", "sessions")
	require.NoError(t, err)
	assert.Regexp(t, `^NAME +STATE +TERMINALS +MESSAGES +LAST +SOCKET\nproj +in its terminal +- +.* +`+regexp.QuoteMeta(dirs.SocketPath(dir, "proj"))+`\n$`, out)

	// Without a core, pane commands fail with the hub's reason.
	code, _, err = runCmd(t, "", "hold", "1")
	assert.Equal(t, 1, code)
	assert.EqualError(t, err, "hold: this session has no panes")
}

func TestClientCommandErrors(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	for _, args := range [][]string{
		{"send", "bot"}, {"send", "bot", "   "}, {"send", "--lines", "3", "bot", "x"}, {"ls", "extra"},
		{"link", "a"}, {"link"}, {"link", "--accept", "a@b", "c"}, {"link", "--pending", "a@b"}, {"link", "--accept", "--refuse"}, {"capture", "1", "--lines", "-1"}, {"history", "--since", "yesterday"}, {"read"}, {"ls", "--json=1"},
		{"history", "--limit"},
	} {
		code, _, err := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.ErrorIs(t, err, errUsage, "%v", args)
	}
	code, _, err := runCmd(t, "", "ls")
	assert.Equal(t, 1, code)
	assert.ErrorIs(t, err, client.ErrNoSession)

	startSession(t, "one")
	startSession(t, "two")
	code, _, err = runCmd(t, "", "ls")
	assert.Equal(t, 1, code)
	assert.EqualError(t, err, "2 sessions are running (one two); name one with --session")
	for _, cmd := range []string{"attach", "kill-session"} {
		_, _, err = runCmd(t, "", cmd)
		assert.ErrorContains(t, err, "2 sessions are running: one, two; name one (agentmux "+cmd+" NAME)")
	}
	code, _, err = runCmd(t, "", "send", "--session", "one", "nobody", "hi")
	assert.Equal(t, 1, code)
	assert.EqualError(t, err, `send to nobody: no member "nobody"`)
	code, _, err = runCmd(t, "", "ls", "--session", "three")
	assert.Equal(t, 1, code)
	assert.ErrorContains(t, err, `no session "three"`)
	// The session flag may stand before the command too.
	code, _, err = runCmd(t, "", "--session", "three", "ls")
	assert.Equal(t, 1, code)
	assert.ErrorContains(t, err, `no session "three"`)
	code, out, err := runCmd(t, "", "--session=one", "--json", "ls")
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Equal(t, "[]\n", out)
}

func TestClientInvocation(t *testing.T) {
	for _, c := range []struct {
		args []string
		cmd  string
		rest []string
	}{
		{[]string{"ls"}, "ls", []string{}},
		{[]string{"attach", "-r", "s"}, "attach", []string{"-r", "s"}},
		{[]string{"worktree", "ls"}, "worktree", []string{"ls"}},
		{[]string{"--session", "s", "attach"}, "", nil}, // session flags lead session commands only
		{[]string{"--session", "s", "send", "bob", "hi"}, "send", []string{"--session", "s", "bob", "hi"}},
		{[]string{"--json", "--session=s", "ls", "-x"}, "ls", []string{"--json", "--session=s", "-x"}},
		{[]string{"--session", "s", "bash", "ls"}, "", nil},
		{[]string{"--link", "ls"}, "", nil},
		{[]string{"--session"}, "", nil},
	} {
		cmd, rest, ok := invocation(c.args)
		assert.Equal(t, c.cmd != "", ok, "%v", c.args)
		assert.Equal(t, c.cmd, cmd.name, "%v", c.args)
		if ok {
			assert.Equal(t, c.rest, rest, "%v", c.args)
		}
	}
}

func TestEventsCommand(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_SESSION", "ev")
	dir := startSession(t, "ev")
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		code, _ := run(ctx, []string{"events"}, strings.NewReader(""), pw, io.Discard)
		pw.Close()
		done <- code
	}()
	dec := json.NewDecoder(pr)
	var ev proto.Event
	require.NoError(t, dec.Decode(&ev))
	assert.Equal(t, proto.EventSubscribed, ev.Kind)
	bot, err := client.Dial(dirs.SocketPath(dir, "ev"), proto.Hello{Agent: "bot"})
	require.NoError(t, err)
	defer bot.Raw().Close()
	require.NoError(t, dec.Decode(&ev))
	assert.Equal(t, proto.Event{TS: ev.TS, Kind: "member", Member: "bot", State: "connected", Session: "ev"}, ev)
	cancel()
	go io.Copy(io.Discard, pr)
	assert.Equal(t, 0, <-done)
}

func next(t *testing.T, c *client.Conn) *proto.Envelope {
	t.Helper()
	e, err := c.Read()
	require.NoError(t, err)
	require.Equal(t, proto.TypeDeliver, e.Type)
	require.NoError(t, c.Ack(e))
	_, err = c.Request(proto.TypeList, struct{}{}) // the hub has the ACK
	require.NoError(t, err)
	return e
}

func body(t *testing.T, e *proto.Envelope) string {
	t.Helper()
	p, err := proto.DecodePayload[proto.Send](e)
	require.NoError(t, err)
	return p.Body
}

func TestSendOptionsAndRemindOnTheWire(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_NAME", "")
	t.Setenv("AGENTMUX_PANE", "")
	dir := startSession(t, "proj")
	bot, err := client.Dial(dirs.SocketPath(dir, "proj"), proto.Hello{Agent: "bot", CLI: "script"})
	require.NoError(t, err)
	defer bot.Raw().Close()
	bot.SetDeadline(time.Now().Add(5 * time.Second))

	_, _, err = runCmd(t, "", "send", "--urgent", "--timeout", "30s", "--notify-on-delivery", "--notify-after=2m", "bot", "stop")
	require.NoError(t, err)
	d := next(t, bot)
	require.NotNil(t, d.PayloadMeta)
	assert.Equal(t, proto.SendMeta{Mode: "urgent", TTLMs: 30000, XNotifyOnDelivery: true, XNotifyAfterMs: 120000}, *d.PayloadMeta)
	_, _, err = runCmd(t, "", "send", "--important", "bot", "soon")
	require.NoError(t, err)
	assert.Equal(t, "important", next(t, bot).PayloadMeta.Mode)
	_, _, err = runCmd(t, "", "send", "bot", "plain")
	require.NoError(t, err)
	assert.Nil(t, next(t, bot).PayloadMeta)

	code, out, err := runCmd(t, "", "wake", "10m", "--to", "bot", "check", "the", "build")
	require.NoError(t, err, out)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, " scheduled for ")
	d = next(t, bot)
	assert.Equal(t, "check the build", body(t, d))
	assert.Equal(t, int64(600000), d.PayloadMeta.XRemindMs)
	assert.Equal(t, "you", d.From, "set by the person, outside every pane")

	for _, args := range [][]string{
		{"send", "--urgent", "--important", "bot", "x"}, {"send", "--timeout", "soon", "bot", "x"},
		{"send", "--timeout", "-1s", "bot", "x"}, {"send", "--urgent=1", "bot", "x"},
		{"remind", "10m", "x"}, {"remind", "later", "--to", "bot", "x"}, {"remind", "--to", "bot", "1m"},
	} {
		code, _, err := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.ErrorIs(t, err, errUsage, "%v", args)
	}
	t.Setenv("AGENTMUX_NAME", "bot")
	_, _, err = runCmd(t, "", "remind", "1s", "myself")
	require.NoError(t, err)
	assert.Equal(t, "myself", body(t, next(t, bot)))
}

// A message too long for one frame says so before anything is sent: stdin past the
// most a message holds is a usage error (exit 2), and one just under it that grows past
// the frame limit as JSON (escaped newlines) is refused by the client before it is
// written, not cut, and not an EPIPE when the session closes the connection on it.
func TestSendTooLongSaysSo(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	dir := startSession(t, "proj")
	bot, err := client.Dial(dirs.SocketPath(dir, "proj"), proto.Hello{Agent: "bot", CLI: "script"})
	require.NoError(t, err)
	defer bot.Raw().Close()

	code, _, err := runCmd(t, strings.Repeat("x", 1_100_000), "send", "bot", "-")
	assert.Equal(t, 2, code)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "longer than 1048576 bytes")

	code, _, err = runCmd(t, strings.Repeat("x\n", 1_000_000/2)+"end", "send", "bot", "-")
	assert.Equal(t, 1, code)
	require.ErrorIs(t, err, client.ErrTooLarge)
	assert.Contains(t, err.Error(), "takes frames of up to 1048576 bytes")

	code, _, err = runCmd(t, "", "send", "bot", "still", "here")
	require.NoError(t, err)
	assert.Equal(t, 0, code)
}

// An empty target, message id or command (an unset "$VAR", say) is a usage error that
// says which argument, before any session is asked: exit 2, not a protocol error.
func TestAnEmptyArgumentIsAUsageError(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	for _, args := range [][]string{{"capture", ""}, {"read", " "}, {"send", "", "x"}, {"send", "bot", ""}, {"new", ""}, {"answer", "bot", ""}} {
		code, _, err := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%q", args)
		if assert.Error(t, err, "%q", args) {
			assert.Contains(t, err.Error(), "is empty", "%q", args)
		}
	}
}

// A number out of its range is refused, saying the range, never clamped without a word;
// one too large to read says it is too large.
func TestNumbersOutOfRangeAreRefused(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"resize", "bot", "--width", "10"}, "from 20 to 500"},
		{[]string{"resize", "bot", "--height", "501"}, "too large: want a percentage of an even share from 20 to 500"},
		{[]string{"capture", "bot", "--lines", "99999999999999999999"}, "too large: want a whole number, 0 or more"},
		{[]string{"link", "a", "b", "--turns", "99999999999999999999"}, "too large"},
	} {
		code, _, err := runCmd(t, "", c.args...)
		assert.Equal(t, 2, code, "%q", c.args)
		if assert.Error(t, err, "%q", c.args) {
			assert.Contains(t, err.Error(), c.want, "%q", c.args)
		}
	}
}
