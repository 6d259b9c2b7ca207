package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/proto"
)

func TestVisible(t *testing.T) {
	cases := []struct{ in, body, one string }{
		{"plain text", "plain text", "plain text"},
		{"a\x1b]52;c;aGk=\x07b", `a\x1b]52;c;aGk=\x07b`, `a\x1b]52;c;aGk=\x07b`},
		{"two\nlines\tand tab", "two\nlines\tand tab", `two\x0alines\x09and tab`},
		{"csi\u009b31m del\x7f", `csi\u009b31m del\x7f`, `csi\u009b31m del\x7f`},
		{"bidi\u202eevil\u2066", `bidi\u202eevil\u2066`, `bidi\u202eevil\u2066`},
		{"tag\U000E0041 zws\u200b", `tag\U000e0041 zws\u200b`, `tag\U000e0041 zws\u200b`},
		{"bad \xff utf8", `bad \xff utf8`, `bad \xff utf8`},
		{"emoji 👩\u200d💻 é 日本", "emoji 👩\u200d💻 é 日本", "emoji 👩\u200d💻 é 日本"},
		{"cr\r", `cr\x0d`, `cr\x0d`},
	}
	for _, c := range cases {
		assert.Equal(t, c.body, visible(c.in, true), "%q", c.in)
		assert.Equal(t, c.one, line(c.in), "%q", c.in)
	}
}

// capture --escapes keeps the styles the server wrote and shows what the cells hold
// that a terminal would obey (a bidi override reordering the line, a C1 CSI).
func TestVisibleStyled(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[0;1;38;2;1:2:3mred\x1b[0m \u202eevil\n":     "\x1b[0;1;38;2;1:2:3mred\x1b[0m \\u202eevil\n",
		"csi\u009b31m \x1b[0mok\x1b]0;t\x07 \x1b[2J\x1b[": `csi\u009b31m ` + "\x1b[0m" + `ok\x1b]0;t\x07 \x1b[2J\x1b[`,
		"plain": "plain",
		"":      "",
	} {
		assert.Equal(t, want, visibleStyled(in), "%q", in)
	}
}

func TestSafeJSON(t *testing.T) {
	in := map[string]string{"body": "esc\x1b csi\u009b del\x7f bidi\u202e tag\U000E0041 nl\n ok é"}
	var raw strings.Builder
	require.NoError(t, printJSON(&raw, in))
	out := raw.String()
	for _, bad := range []string{"\x1b", "\u009b", "\x7f", "\u202e", "\U000E0041"} {
		assert.NotContains(t, out, bad)
	}
	assert.Contains(t, out, `\u009b`)
	assert.Contains(t, out, `\udb40\udc41`)
	var back map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &back))
	assert.Equal(t, in, back, "the JSON still says the same")
	assert.Equal(t, `{"a":"\ufffd"}`, string(safeJSON([]byte("{\"a\":\"\xff\"}"))))
}

// What the person reads must not be obeyed by their terminal: a body that writes the
// clipboard (OSC 52) and sets the title (a sender name with an escape is refused), a
// program name with a C1 CSI, all shown escaped by ls, history and read, in text and --json; newlines
// and tabs of a body stay readable.
func TestClientOutputShowsEscapes(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_NAME", "")
	dir := startSession(t, "esc")
	bot, err := client.Dial(dirs.SocketPath(dir, "esc"), proto.Hello{Agent: "bot", Program: "evil\u009b2J\x1b]0;title\x07"})
	require.NoError(t, err)
	defer bot.Raw().Close()
	bot.SetDeadline(time.Now().Add(5 * time.Second))
	ctl, err := client.DialControl(dirs.SocketPath(dir, "esc"))
	require.NoError(t, err)
	defer ctl.Close()
	evil := "hi\x1b]52;c;cm0gLXJmIH4=\x07 \x1b]0;pwned\x07there\nline two\ttabbed \u202eevil"
	_, err = ctl.Send("mal\x1b[8mlory", "bot", evil)
	require.ErrorContains(t, err, "invisible or control character", "the session refuses such a sender name")
	id, err := ctl.Send("mallory", "bot", evil)
	require.NoError(t, err)
	next(t, bot)

	raw := []string{"\x1b", "\x07", "\u009b", "\u202e"}
	for _, args := range [][]string{
		{"ls"}, {"ls", "--json"}, {"history"}, {"history", "--json"}, {"read", id}, {"read", id, "--json"},
	} {
		code, out, err := runCmd(t, "", args...)
		require.NoError(t, err, "%v", args)
		require.Equal(t, 0, code, "%v", args)
		for _, r := range raw {
			assert.NotContains(t, out, r, "%v prints %q raw:\n%s", args, r, out)
		}
		if args[0] == "ls" {
			assert.Contains(t, out, `\u009b2J`, "%v", args)
		}
	}
	_, out, _ := runCmd(t, "", "ls")
	assert.Contains(t, out, `evil\u009b2J\x1b]0;title\x07`)
	_, out, _ = runCmd(t, "", "history")
	assert.Contains(t, out, `mallory → bot`)
	assert.Contains(t, out, `hi\x1b]52;c;cm0gLXJmIH4=\x07 \x1b]0;pwned\x07there…`)
	_, out, _ = runCmd(t, "", "read", id)
	assert.Contains(t, out, "from:   mallory\n")
	assert.Contains(t, out, "there\nline two\ttabbed \\u202eevil\n")
	_, out, _ = runCmd(t, "", "read", id, "--json")
	var ms []proto.Message
	require.NoError(t, json.Unmarshal([]byte(out), &ms))
	assert.Equal(t, evil, ms[0].Body, "--json keeps the exact text, escaped")
}

// events prints the session's events as JSON lines: what a message says is escaped there
// too (Go's encoder leaves C1 controls and bidi overrides raw).
func TestEventsCommandEscapes(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_SESSION", "ev")
	dir := startSession(t, "ev")
	bot, err := client.Dial(dirs.SocketPath(dir, "ev"), proto.Hello{Agent: "bot"})
	require.NoError(t, err)
	defer bot.Raw().Close()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		code, _ := run(ctx, []string{"events"}, strings.NewReader(""), pw, io.Discard)
		pw.Close()
		done <- code
	}()
	lines := bufio.NewReader(pr)
	l, err := lines.ReadString('\n')
	require.NoError(t, err)
	require.Contains(t, l, "subscribed")
	ctl, err := client.DialControl(dirs.SocketPath(dir, "ev"))
	require.NoError(t, err)
	defer ctl.Close()
	_, err = ctl.Send("you", "bot", "csi\u009b2J bidi\u202e del\x7f")
	require.NoError(t, err)
	for !strings.Contains(l, `"message"`) {
		l, err = lines.ReadString('\n')
		require.NoError(t, err)
	}
	for _, r := range []string{"\u009b", "\u202e", "\x7f"} {
		assert.NotContains(t, l, r)
	}
	var ev proto.Event
	require.NoError(t, json.Unmarshal([]byte(l), &ev))
	assert.Contains(t, ev.Text, "csi\u009b2J")
	cancel()
	go io.Copy(io.Discard, pr)
	assert.Equal(t, 0, <-done)
}

// Names a person would be shown must be visible: a member's HELLO name and send --from
// with a control or format character are refused with a clear error.
func TestInvisibleNamesRefused(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_NAME", "")
	dir := startSession(t, "names")
	for _, name := range []string{"bo\x1bb", "bob\u202e", "zero\u200bwidth", "del\x7f", "c1\u0085", "nb\u00a0sp"} {
		_, err := client.Dial(dirs.SocketPath(dir, "names"), proto.Hello{Agent: name})
		var pe *client.Error
		require.ErrorAs(t, err, &pe, "%q", name)
		assert.Equal(t, proto.CodeBadRequest, pe.Code, "%q", name)
		assert.Contains(t, pe.Message, "name", "%q", name)

		code, _, err := runCmd(t, "", "send", "bot", "hi", "--from", name)
		assert.Equal(t, 2, code, "%q", name)
		assert.ErrorContains(t, err, "--from", "%q", name)
	}
	code, _, err := runCmd(t, "", "send", "bot", "hi", "--from", "bad\xff")
	assert.Equal(t, 2, code)
	assert.ErrorContains(t, err, "not UTF-8")
	// Names are ASCII letters, digits, _ . and -: no other script can pass for a pane's
	// or the person's name (yоu with a Cyrillic о).
	for _, name := range []string{"bøb-日本", "yоu", "cаrol"} {
		_, err = client.Dial(dirs.SocketPath(dir, "names"), proto.Hello{Agent: name})
		assert.ErrorContains(t, err, "ASCII letters", "%q", name)
		code, _, err := runCmd(t, "", "send", "bot", "hi", "--from", name)
		assert.Equal(t, 2, code, "%q", name)
		assert.ErrorContains(t, err, "ASCII letters", "%q", name)
	}
}
