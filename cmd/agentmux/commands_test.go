package main

// Every subcommand of the table prints its usage (help CMD, CMD --help, CMD -h) with
// exit 0, a session command's with the common flags; agentmux's hidden ones are not
// shown; a command help does not know is exit 2 naming the ones it does; `agentmux version` is
// --version; and send --wait blocks until the message's last phase.

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/action"
	"github.com/agentmux/agentmux/attach"
	"github.com/agentmux/agentmux/client"
	"github.com/agentmux/agentmux/dirs"
	"github.com/agentmux/agentmux/docs"
	"github.com/agentmux/agentmux/mcp"
	"github.com/agentmux/agentmux/proto"
	"github.com/agentmux/agentmux/ui"
	"github.com/agentmux/agentmux/web"
)

func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commandTable {
		if !c.session {
			continue
		}
		for _, args := range [][]string{{"help", c.name}, {c.name, "--help"}, {c.name, "-h"}, {"--session", "x", c.name, "--help"}} {
			code, out, err := runCmd(t, "", args...)
			require.NoError(t, err, args)
			assert.Equal(t, 0, code, args)
			name := c.name
			if name == "wake" { // remind's other name
				name = "remind"
			}
			assert.Contains(t, out, "usage: agentmux "+name, args)
			assert.Contains(t, out, "common flags: --session NAME", args)
		}
	}
	shown := 0
	for _, c := range commandTable {
		if c.session || c.hidden {
			continue
		}
		shown++
		for _, args := range [][]string{{"help", c.name}, {c.name, "--help"}, {c.name, "-h"}} {
			code, out, err := runCmd(t, "", args...)
			require.NoError(t, err, args)
			assert.Equal(t, 0, code, args)
			assert.Contains(t, out, "usage: agentmux "+c.name, args)
			assert.NotContains(t, out, "common flags", args)
		}
	}
	assert.Equal(t, 11, shown, "attach, kill-session, restore, mesh, mcp, spend, worktree, parse, demo, help, version")
	for _, hidden := range []string{agentCommand, serverCommand, "hook"} {
		code, _, err := runCmd(t, "", "help", hidden)
		assert.Equal(t, 2, code, hidden)
		assert.ErrorContains(t, err, "no command", hidden)
	}
	code, out, err := runCmd(t, "", "help")
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Equal(t, mainHelp()+guidesLine(), out)
	assert.Contains(t, out, "Guides (agentmux help TOPIC): architecture, ")

	code, _, err = runCmd(t, "", "help", "frobnicate")
	assert.Equal(t, 2, code)
	assert.True(t, errors.Is(err, errUsage))
	assert.ErrorContains(t, err, `no command or topic "frobnicate" (commands: answer, attach, capture, demo, diff, events, help, history, hold, inbox`)
	assert.ErrorContains(t, err, "topics: architecture,")

	// A guide prints whole; a command that has one says where it is.
	relay, ok := docs.Topic("relay")
	require.True(t, ok)
	code, out, err = runCmd(t, "", "help", "relay")
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Equal(t, relay, out)
	code, out, err = runCmd(t, "", "help", "web")
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "usage: agentmux web")
	assert.Contains(t, out, "The whole guide: agentmux help web.md")
	web, _ := docs.Topic("web")
	_, out, _ = runCmd(t, "", "help", "web.md")
	assert.Equal(t, web, out)

	code, out, err = runCmd(t, "", "version")
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	assert.Equal(t, versionLine()+"\n", out)
}

func TestSendWait(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_NAME", "")
	dir := startSession(t, "proj")
	bot, err := client.Dial(dirs.SocketPath(dir, "proj"), proto.Hello{Agent: "bot", CLI: "script"})
	require.NoError(t, err)
	defer bot.Raw().Close()
	bot.SetDeadline(time.Now().Add(10 * time.Second))

	type result struct {
		code int
		out  string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, out, err := runCmd(t, "", "send", "--wait", "bot", "hello")
		done <- result{code, out, err}
	}()
	d := next(t, bot) // read and acknowledged: confirmed
	r := <-done
	require.NoError(t, r.err)
	assert.Equal(t, 0, r.code)
	assert.Equal(t, d.ID+" queued\n"+d.ID+" confirmed\n", r.out)

	code, _, err := runCmd(t, "", "send", "--wait", "*", "hello")
	assert.Equal(t, 2, code)
	assert.ErrorContains(t, err, "--wait waits for one recipient")
}

// The session ending before the message is delivered is a failure (exit 1) that says so.
func TestSendWaitSessionEnds(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	t.Setenv("AGENTMUX_SOCKET", "")
	t.Setenv("AGENTMUX_NAME", "")
	dir, h := startSessionHub(t, "proj")
	bot, err := client.Dial(dirs.SocketPath(dir, "proj"), proto.Hello{Agent: "bot", CLI: "script"})
	require.NoError(t, err)
	defer bot.Raw().Close()
	bot.SetDeadline(time.Now().Add(10 * time.Second))
	ctl, err := client.DialControl(dirs.SocketPath(dir, "proj"))
	require.NoError(t, err)
	defer ctl.Close()
	_, err = ctl.Request(proto.TypeEvents, struct{}{})
	require.NoError(t, err)

	done := make(chan error, 1)
	codes := make(chan int, 1)
	go func() {
		code, _, err := runCmd(t, "", "send", "--wait", "bot", "never read")
		codes <- code
		done <- err
	}()
	for { // the message is queued: the waiting client has subscribed and sent
		e, err := ctl.Read()
		require.NoError(t, err)
		if e.Type == proto.TypeEvent && strings.Contains(string(e.Payload), `"kind":"message"`) {
			break
		}
	}
	h.Close()
	assert.Equal(t, 1, <-codes)
	assert.ErrorContains(t, <-done, "the session ended before")
}

// A session command's bad value says what the flag takes, as the main flags do.
func TestClientValueErrorsSayWhatIsWanted(t *testing.T) {
	for args, want := range map[string]string{
		"history --since 1":       "agentmux history: --since 1 needs a unit, e.g. 1s or 1m",
		"send --timeout 3 bot x":  "agentmux send: --timeout 3 needs a unit, e.g. 3s or 3m",
		"send --timeout 0s bot x": "agentmux send: --timeout must be a positive duration, not 0s",
		"history --since soon":    `agentmux history: --since "soon": want a duration such as 90s, 10m or 1h`,
		"history --since -1h":     "agentmux history: --since must be a positive duration, not -1h",
		"capture 1 --lines -5":    "agentmux capture: --lines -5: want a whole number, 0 or more",
		"history --limit x":       "agentmux history: --limit x: want a whole number, 0 or more",
	} {
		code, _, err := runCmd(t, "", strings.Fields(args)...)
		assert.Equal(t, 2, code, args)
		assert.EqualError(t, err, want, args)
	}
}

// agentmux help names every command of the table a person can run, and the flags a
// newcomer looks for; the flags' help says what the code does.
func TestHelpListsEveryCommand(t *testing.T) {
	_, out, err := runCmd(t, "", "help")
	require.NoError(t, err)
	for _, c := range commandTable {
		if c.hidden {
			continue
		}
		switch c.name {
		case "version":
			assert.Contains(t, out, "--version", c.name)
		default:
			assert.Regexp(t, `(agentmux|\|) `+regexp.QuoteMeta(c.name)+`\b`, out, c.name) // link A B | unlink A
		}
	}
	for _, x := range []string{"sessions [--all]", "[--wait | --reply]", "--detached", "[--worktree]", "qwen (Qwen Code)"} {
		assert.Contains(t, out, x)
	}
	_, out, err = runCmd(t, "", "send", "--help")
	require.NoError(t, err)
	assert.NotContains(t, out, "interrupt a person's stale draft", "--important waits for a draft like any message")
	assert.Contains(t, out, "never typed over a person's draft")
	assert.Contains(t, out, "--reply")
	for _, cmd := range []string{"attach", "kill-session"} {
		_, out, err = runCmd(t, "", cmd, "--help")
		require.NoError(t, err)
		assert.Contains(t, out, "--session NAME", cmd)
	}
}

// attach and kill-session take --session NAME, as every other command does; a second,
// different name is a usage error before anything is asked of a session.
func TestAttachAndKillTakeSession(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("AGENTMUX_PANE", "")
	for _, cmd := range []string{"attach", "kill-session"} {
		code, _, err := runCmd(t, "", cmd, "--session", "nope")
		assert.Equal(t, 1, code, cmd)
		assert.ErrorContains(t, err, `no session "nope" is running`, cmd)
		code, _, err = runCmd(t, "", cmd, "one", "--session", "two")
		assert.Equal(t, 2, code, cmd)
		assert.ErrorContains(t, err, "two sessions named (one and --session two)", cmd)
	}
}

// kill-session returns once the session has ended, which its server says by closing
// the connection it answered on, not as soon as the session is answered: a script may
// start the same session, with the same worktrees, right after.
func TestKillSessionWaitsForTheSessionToEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	l, err := net.Listen("unix", path)
	require.NoError(t, err)
	defer l.Close()
	leftEarly := make(chan bool, 1)
	go func() {
		nc, err := l.Accept()
		if err != nil {
			leftEarly <- true
			return
		}
		defer nc.Close()
		if _, err := proto.ReadFrame(nc, proto.DefaultMaxFrameBytes, nil); err != nil {
			leftEarly <- true
			return
		}
		body, _ := attach.Handshake(attach.TypeAttached, attach.Accepted{Version: attach.Version, Session: "s"})
		_ = proto.WriteFrame(nc, body)
		// The session still ends: a client that waits for it is still there.
		_ = nc.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		_, err = nc.Read(make([]byte, 1))
		leftEarly <- !errors.Is(err, os.ErrDeadlineExceeded)
	}()
	require.NoError(t, killSession(path, false))
	assert.False(t, <-leftEarly, "kill-session returned before the session closed its connection")
}

// A first attach that fails after the session started says the session runs on, and
// how to see or end it, when its server still answers; otherwise the failure alone.
func TestAFailedFirstAttachSaysTheSessionRunsOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	failed := errors.New("session s refused this terminal: bad size")
	assert.Equal(t, failed, stillRuns(failed, "s", path), "no server: the failure alone")
	l, err := net.Listen("unix", path)
	require.NoError(t, err)
	defer l.Close()
	err = stillRuns(failed, "s", path)
	assert.ErrorIs(t, err, failed)
	assert.ErrorContains(t, err, "session s runs on without a terminal: agentmux attach s shows it, agentmux kill-session s ends it")
	assert.NoError(t, stillRuns(nil, "s", path), "attached and ended well")
}

// The table is the help: every command a person can run has a synopsis, a line and a
// longer help; its synopsis names every flag it takes, so agentmux --help, which shows
// every synopsis, names every flag of every command; the overview fits 100 columns;
// and docs/usage.md's list of commands is the table's, one a line.
func TestTheTableMakesEveryHelp(t *testing.T) {
	overview := mainHelp()
	shown := map[string]bool{}
	for _, c := range commandTable {
		if c.hidden {
			continue
		}
		shown[c.name] = true
		c, _ = lookupCommand(c.name)
		assert.NotEmpty(t, c.help, "%s: its help", c.name)
		if c.sameAs == "" {
			assert.NotEmpty(t, c.short, "%s: its line in agentmux --help", c.name)
			assert.NotContains(t, c.short, "\n", c.name)
		}
		lines := synopsisLines(c.synopsis)
		assert.Regexp(t, `(^|\n)agentmux `+regexp.QuoteMeta(c.name)+`\b`, c.synopsis, "%s: its synopsis", c.name)
		for _, l := range lines {
			assert.Contains(t, overview, "\n  "+l, "agentmux --help shows %s's synopsis", c.name)
		}
		specs := c.flags
		for _, p := range c.parts {
			specs = append(specs, p.flags...)
			assert.Contains(t, c.synopsis, "agentmux "+c.name+" "+p.name, "%s %s: in its command's synopsis", c.name, p.name)
		}
		for _, f := range specs {
			for _, n := range append([]string{f.name}, f.aliases...) {
				assert.True(t, listsFlag(c.synopsis, dashed(n)), "the synopsis of %s does not name %s", c.name, dashed(n))
			}
		}
	}
	for _, l := range strings.Split(overview, "\n") {
		assert.LessOrEqual(t, len([]rune(l)), 100, "agentmux --help: %q", l)
	}
	for _, f := range commonFlags {
		assert.True(t, listsFlag(overview, dashed(f.name)), "agentmux --help: the common flag %s", f.name)
	}

	// docs/usage.md's Usage lists each command on a line of its own, as agentmux NAME,
	// before it says what an AGENT is.
	text, ok := docs.Topic("usage")
	require.True(t, ok)
	_, text, ok = strings.Cut(text, "\n## Usage\n")
	require.True(t, ok)
	text, _, ok = strings.Cut(text, "\n`AGENT` is")
	require.True(t, ok)
	named := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		words := strings.Fields(l)
		if !strings.HasPrefix(l, "    agentmux ") || len(words) < 2 || !regexp.MustCompile(`^[a-z][a-z-]*$`).MatchString(words[1]) {
			continue
		}
		assert.False(t, named[words[1]], "docs/usage.md lists %s twice", words[1])
		named[words[1]] = true
	}
	assert.Equal(t, shown, named, "docs/usage.md's commands are the table's")
}

// Every road names its actions in the one vocabulary: the command table's, the keys',
// the web page's control and the MCP tools' names are each an action of it (a road
// naming one it does not have fails), and every action of it is taken by at least one
// road (an action no road takes fails). A session command takes one unless it asks no
// session anything, and one named like an action takes that action.
func TestEveryRoadNamesTheVocabulary(t *testing.T) {
	taken := map[action.Name][]string{}
	take := func(road string, acts ...action.Name) {
		for _, a := range acts {
			assert.True(t, a.Known(), "%s takes %q, no action of the vocabulary", road, a)
			taken[a] = append(taken[a], road)
		}
	}
	var walk func(cs []command)
	walk = func(cs []command) {
		for _, c := range cs {
			take("command "+c.name, c.acts...)
			if c.session && c.name != "sessions" {
				assert.NotEmpty(t, c.acts, "session command %s takes no action", c.name)
			}
			if a := action.Name(c.name); a.Known() && c.session {
				assert.Contains(t, c.acts, a, "command %s does not take the action of its name", c.name)
			}
			walk(c.parts)
		}
	}
	walk(commandTable)
	take("the keys", ui.KeyActions()...)
	take("the web page", web.Actions()...)
	for tool, a := range mcp.ToolActions() {
		take("MCP tool "+tool, a)
	}
	for _, a := range action.All() {
		assert.NotEmpty(t, taken[a], "no road takes %s", a)
	}
	for _, n := range []string{"link", "unlink", "hold", "respawn", "rename", "diff"} {
		assert.NoError(t, ui.CheckAction(n), "a key binds %s by the vocabulary's name", n)
	}
}

// docs/usage.md's table of agentmux's own flags names every one agentmux --help lists.
func TestUsageDocNamesEveryOwnFlag(t *testing.T) {
	text, ok := docs.Topic("usage")
	require.True(t, ok)
	named := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		if first, _, ok := strings.Cut(strings.TrimPrefix(l, "| "), " | "); ok && strings.HasPrefix(l, "| `-") {
			for _, m := range regexp.MustCompile("`(--?[a-z-]+)").FindAllStringSubmatch(first, -1) {
				named[m[1]] = true
			}
		}
	}
	for _, f := range mainFlagTable {
		for _, n := range append([]string{f.name}, f.aliases...) {
			assert.True(t, named[dashed(n)], "docs/usage.md's table of flags does not name %s", dashed(n))
		}
	}
}
