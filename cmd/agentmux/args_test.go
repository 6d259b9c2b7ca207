package main

// Command-line tests: tables of arguments in, the parsed configuration (pane names and
// argument vectors, flags) or a one-line usage error out; run() is checked for its exit
// statuses on everything that must fail before the screen is taken over.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/agentmux/agentmux/keys"
	"github.com/agentmux/agentmux/ui"
)

func TestParseAgents(t *testing.T) {
	cases := []struct {
		args []string
		want []ui.PaneSpec
	}{
		{[]string{"claude", "codex"}, []ui.PaneSpec{{Name: "claude", Argv: []string{"claude"}}, {Name: "codex", Argv: []string{"codex"}}}},
		{[]string{"claude", "claude", "claude"}, []ui.PaneSpec{
			{Name: "claude", Argv: []string{"claude"}}, {Name: "claude-2", Argv: []string{"claude"}}, {Name: "claude-3", Argv: []string{"claude"}}}},
		{[]string{"alice=claude", `bob=codex --full-auto`}, []ui.PaneSpec{
			{Name: "alice", Argv: []string{"claude"}}, {Name: "bob", Argv: []string{"codex", "--full-auto"}}}},
		{[]string{"/usr/local/bin/gemini --yolo", "gemini"}, []ui.PaneSpec{
			{Name: "gemini", Argv: []string{"/usr/local/bin/gemini", "--yolo"}}, {Name: "gemini-2", Argv: []string{"gemini"}}}},
		{[]string{`sh -c 'echo a=b'`}, []ui.PaneSpec{{Name: "sh", Argv: []string{"sh", "-c", "echo a=b"}}}},
		{[]string{`x="a b"`}, []ui.PaneSpec{{Name: "x", Argv: []string{"a b"}}}},
		{[]string{`--opt=1 prog`}, []ui.PaneSpec{{Name: "pane", Argv: []string{"--opt=1", "prog"}}}},
		// A base name the name rule refuses is "pane", as for a pane added at run time
		// (proto.DefaultName): a name a person could not give, type in @relay: or rename
		// back to.
		{[]string{`'/tmp/my bot.sh'`, "/tmp/.hidden.sh", "./-x", "/tmp/日本.sh", "/tmp/ok.sh"}, []ui.PaneSpec{
			{Name: "pane", Argv: []string{"/tmp/my bot.sh"}}, {Name: "pane-2", Argv: []string{"/tmp/.hidden.sh"}},
			{Name: "pane-3", Argv: []string{"./-x"}}, {Name: "pane-4", Argv: []string{"/tmp/日本.sh"}},
			{Name: "ok.sh", Argv: []string{"/tmp/ok.sh"}}}},
		// A name given is kept: default names step past it.
		{[]string{"bash", "bash", "bash-2=python3 -q"}, []ui.PaneSpec{
			{Name: "bash", Argv: []string{"bash"}}, {Name: "bash-3", Argv: []string{"bash"}}, {Name: "bash-2", Argv: []string{"python3", "-q"}}}},
		{[]string{"Claude=sh", "claude"}, []ui.PaneSpec{
			{Name: "Claude", Argv: []string{"sh"}}, {Name: "claude-2", Argv: []string{"claude"}}}},
		// Leading upper-case NAME=VALUE words are environment assignments, as in a shell.
		{[]string{"FOO=bar bash"}, []ui.PaneSpec{{Name: "bash", Argv: []string{"bash"}, Env: []string{"FOO=bar"}}}},
		{[]string{`A=1 B_2="x y" sh -c 'echo $A'`}, []ui.PaneSpec{
			{Name: "sh", Argv: []string{"sh", "-c", "echo $A"}, Env: []string{"A=1", "B_2=x y"}}}},
		{[]string{"alice=ANTHROPIC_BASE_URL=http://127.0.0.1:9 claude"}, []ui.PaneSpec{
			{Name: "alice", Argv: []string{"claude"}, Env: []string{"ANTHROPIC_BASE_URL=http://127.0.0.1:9"}}}},
		{[]string{"Alice=claude", "my-agent=sh x=1"}, []ui.PaneSpec{
			{Name: "Alice", Argv: []string{"claude"}}, {Name: "my-agent", Argv: []string{"sh", "x=1"}}}},
		{[]string{"sh FOO=1"}, []ui.PaneSpec{{Name: "sh", Argv: []string{"sh", "FOO=1"}}}},
	}
	for _, c := range cases {
		got, err := parseAgents(c.args)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.args, got, c.want)
		}
	}
}

// A name given twice, in any case, is refused: the session could not tell the panes
// apart by it (send Bot would reach bot).
func TestParseAgentsRefusesANameGivenTwice(t *testing.T) {
	for _, args := range [][]string{{"a=sh", "a=sh"}, {"bot=bash", "Bot=bash"}} {
		_, err := parseAgents(args)
		if assert.ErrorIs(t, err, errUsage, "%q", args) {
			assert.Contains(t, err.Error(), "is given twice", "%q", args)
		}
	}
}

func TestParseArgs(t *testing.T) {
	o, err := parseArgs([]string{"--link", "--turns", "3", "--idle", "2s", "--prefix", "ctrl+b", "--layout", "rows", "--log-level", "debug", "a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	c := o.cfg
	if !o.sess.Link || o.sess.Turns != 3 || o.sess.Idle != 2*time.Second || c.Layout != ui.LayoutRows || c.PrefixSpec != "ctrl+b" || o.logLevel.String() != "DEBUG" {
		t.Errorf("parsed %+v %+v level %v", c, o.sess, o.logLevel)
	}
	if want := (keys.Key{Code: keys.KeyRune, Rune: 'b', Mod: keys.ModCtrl}); !c.Prefix.Matches(want) {
		t.Errorf("prefix %v, want ctrl+b", c.Prefix)
	}
	o, err = parseArgs([]string{"a"})
	if err != nil || o.sess.Turns != 8 || o.sess.Idle != 1500*time.Millisecond || o.sess.Link || o.cfg.PrefixSpec != "ctrl+a" || o.cfg.Layout != ui.LayoutAuto {
		t.Errorf("defaults: %+v, %v", o.cfg, err)
	}
	if o, err := parseArgs([]string{"demo"}); err != nil || !o.demo {
		t.Errorf("demo: %+v %v", o, err)
	}
}

// Flags may stand anywhere before "--", as in most command-line programs.
func TestFlagsAnywhere(t *testing.T) {
	o, err := parseArgs([]string{"bash", "sh", "--link"})
	if err != nil || !o.sess.Link || len(o.sess.Panes) != 2 || o.sess.Panes[1].Name != "sh" {
		t.Errorf("bash sh --link: %+v %v", o.cfg, err)
	}
	o, err = parseArgs([]string{"demo", "--turns", "3"})
	if err != nil || !o.demo || o.sess.Turns != 3 {
		t.Errorf("demo --turns 3: demo %v turns %d %v", o.demo, o.sess.Turns, err)
	}
	o, err = parseArgs([]string{"a", "-turns=4", "b", "--idle=2s", "--link=false"})
	if err != nil || o.sess.Turns != 4 || o.sess.Idle != 2*time.Second || o.sess.Link || len(o.sess.Panes) != 2 {
		t.Errorf("a -turns=4 b --idle=2s --link=false: %+v %v", o.cfg, err)
	}
	o, err = parseArgs([]string{"a", "--", "--link", "-"})
	if err != nil || o.sess.Link || len(o.sess.Panes) != 3 || o.sess.Panes[1].Argv[0] != "--link" || o.sess.Panes[2].Argv[0] != "-" {
		t.Errorf("a -- --link -: %+v %v", o.cfg, err)
	}
	o, err = parseArgs([]string{"a", "--session", "proj", "b"})
	if err != nil || o.session != "proj" || len(o.sess.Panes) != 2 {
		t.Errorf("a --session proj b: session %q %+v %v", o.session, o.sess.Panes, err)
	}
	if o, err := parseArgs([]string{"a", "--help"}); err != nil || !o.help {
		t.Errorf("a --help: %+v %v", o, err)
	}
}

func TestPrefixChoices(t *testing.T) {
	for _, p := range []string{"ctrl+b", "C-a", "alt+a", "f12", "`", "ctrl+space"} {
		if _, err := parseArgs([]string{"--prefix", p, "a"}); err != nil {
			t.Errorf("--prefix %q refused: %v", p, err)
		}
	}
	for _, p := range []string{"a", "A", "shift+a", "1", "space", "enter", "tab", "esc", "é"} {
		_, err := parseArgs([]string{"--prefix", p, "a"})
		if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "use a modifier, e.g. ctrl+a") {
			t.Errorf("--prefix %q: %v, want it refused with a hint", p, err)
		}
	}
}

func TestPrefixAnOrdinaryTerminalCannotSend(t *testing.T) {
	cases := map[string]string{
		"ctrl+m":  "send it as enter",
		"ctrl+i":  "send it as tab",
		"ctrl+[":  "send it as esc",
		"ctrl+1":  "send it as 1",
		"f13":     "send it as shift+f1",
		"super+a": "never send this key",
		"hyper+x": "never send this key",
	}
	for p, want := range cases {
		_, err := parseArgs([]string{"--prefix", p, "a"})
		if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), want) {
			t.Errorf("--prefix %q: %v, want it refused: %q", p, err, want)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--bogus", "a"}, "unknown flag --bogus (agentmux --help lists them)"},
		{[]string{"-bogus=1", "a"}, "unknown flag -bogus "},
		{[]string{"a", "codex", "--full-auto"}, "unknown flag --full-auto (if it is for codex, put it inside the quotes: 'codex --full-auto')"},
		{[]string{"---link", "a"}, "malformed flag ---link"},
		{[]string{}, "no agents given"},
		{[]string{"--link"}, "no agents given"},
		{[]string{"demo", "a"}, `demo takes no agents, only flags (got "a")`},
		{[]string{"--turns", "0", "a"}, "--turns must be at least 1"},
		{[]string{"--turns", "x", "a"}, `--turns "x": want a whole number`},
		{[]string{"a", "--turns"}, "--turns needs a value"},
		{[]string{"--idle", "5", "a"}, "--idle 5 needs a unit, e.g. 5s"},
		{[]string{"--idle=0.5", "a"}, "--idle 0.5 needs a unit, e.g. 0.5s"},
		{[]string{"--idle", "soon", "a"}, `--idle "soon": want a duration such as 1.5s`},
		{[]string{"--link=maybe", "a"}, "--link=maybe: want true or false"},
		{[]string{"--idle", "-1s", "a"}, "--idle must be a positive duration"},
		{[]string{"--prefix", "ctrl+nonsense", "a"}, "--prefix"},
		{[]string{"--layout", "grid", "a"}, "--layout"},
		{[]string{"--log-level", "loud", "a"}, "--log-level"},
		{[]string{"--web", "--web-listen", "8080", "a"}, `--web-listen "8080": want HOST:PORT, e.g. 127.0.0.1:8080`},
		{[]string{"--web-listen", "localhost:http", "a"}, `--web-listen "localhost:http": want HOST:PORT`},
		{[]string{"--web-listen=127.0.0.1:70000", "a"}, `--web-listen "127.0.0.1:70000": want HOST:PORT`},
		{[]string{"--session", " ", "a"}, "--session needs a name"},
		{[]string{"a", "--session"}, "--session needs a value"},
		{[]string{""}, "empty command"},
		{[]string{"name="}, "empty command"},
		{[]string{"'unterminated"}, "unterminated"},
		{[]string{"FOO=bar"}, `agent "FOO=bar": FOO=… sets an environment variable and no command follows`},
		{[]string{"BOB=codex"}, "to name a pane, use a name with a lower-case letter: bob=codex"},
		{[]string{"alice=FOO=1"}, "no command follows"},
		{[]string{"ünï=cat"}, `"ünï" is not a pane name: a name may hold only ASCII letters, digits, _ . and -`},
	}
	for _, c := range cases {
		_, err := parseArgs(c.args)
		if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line containing %q", c.args, err, c.msg)
		}
	}
}

func TestRunFailsBeforeTheScreen(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--bogus"}, 2, "unknown flag --bogus"},
		{[]string{"no-such-program-agentmux-test"}, 2, "program not found"},
		// a first argument that is no program but a command mistyped is named
		{[]string{"atach"}, 2, `"atach": program not found; did you mean ` + "`agentmux attach`?"},
		{[]string{"sned", "bot", "hi"}, 2, "did you mean `agentmux send`?"},
		{[]string{"sh", "no-such-program-agentmux-test --flag"}, 2, `"no-such-program-agentmux-test": program not found`},
		{[]string{"my bot=no-such-program-agentmux-test"}, 2, "to name a pane write NAME=COMMAND; a name may hold only"},
		{[]string{"sh"}, 2, "needs a terminal"}, // a bytes.Buffer is not a terminal
		// "you" is the person and a number addresses a pane: neither names one.
		{[]string{"you=sh", "sh"}, 2, "a pane cannot be named you"},
		{[]string{"You=sh", "sh"}, 2, "a pane cannot be named You"},
		{[]string{"sh", "3=sh"}, 2, "a pane cannot be named 3"},
		{[]string{"agentmux=sh", "sh"}, 2, "a pane cannot be named agentmux"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code, err := run(context.Background(), c.args, strings.NewReader(""), &out, &errb)
		if code != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: exit %d, %v; want %d and %q", c.args, code, err, c.code, c.msg)
		}
		if out.Len() != 0 {
			t.Errorf("%q: wrote to stdout: %q", c.args, out.String())
		}
	}
}

func TestNearCommand(t *testing.T) {
	for word, want := range map[string]string{"atach": "attach", "sned": "send", "HISTROY": "history", "lss": "ls", "captur": "capture",
		"x": "", "kil": "", "claude2": "", "": "", "__server": ""} {
		got, ok := nearCommand(word)
		if got != want || ok != (want != "") {
			t.Errorf("nearCommand(%q) = %q, %v; want %q", word, got, ok, want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"abc", "", 3}, {"send", "sned", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"same", "same", 0}} {
		if got := typoDistance(c.a, c.b); got != c.d {
			t.Errorf("typoDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

func TestRunHelpAndVersion(t *testing.T) {
	var out bytes.Buffer
	if code, err := run(context.Background(), []string{"--version"}, nil, &out, &out); code != 0 || err != nil || !strings.HasPrefix(out.String(), "agentmux ") {
		t.Errorf("--version: %d %v %q", code, err, out.String())
	}
	out.Reset()
	if code, err := run(context.Background(), []string{"--help"}, nil, &out, &out); code != 0 || err != nil || !strings.Contains(out.String(), "usage: agentmux") {
		t.Errorf("--help: %d %v %q", code, err, out.String())
	}
}

func TestVersionFromBuildInfo(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	rev := "3dc3fed1a2b4c5d6e7f80910111213141516171a"
	cases := []struct {
		set  string
		bi   *debug.BuildInfo
		want string
	}{
		{"v9.9.9", &debug.BuildInfo{GoVersion: "go1.26.8"}, "v9.9.9"},
		{"", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.4.0"}}, "v0.4.0"},
		{"", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.modified", "true")}, "devel-3dc3fed1a2b4-dirty"},
		{"", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", rev, "vcs.modified", "false")}, "devel-3dc3fed1a2b4"},
		{"", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"", nil, "devel"},
	}
	for _, c := range cases {
		if got := versionOf(c.set, c.bi); got != c.want {
			t.Errorf("versionOf(%q, %+v) = %q, want %q", c.set, c.bi, got, c.want)
		}
	}
}

func TestLogPathFollowsXDG(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state")
	if p, err := logPath(); err != nil || p != "/state/agentmux/agentmux.log" {
		t.Errorf("logPath = %q, %v", p, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/x")
	if p, err := logPath(); err != nil || p != "/home/x/.local/state/agentmux/agentmux.log" {
		t.Errorf("logPath = %q, %v", p, err)
	}
}

func TestOpenLogWritesTheFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	log, f := openLog(-4)
	log.Debug("hello log")
	f.Close()
	p, _ := logPath()
	if b, err := readFile(p); err != nil || !strings.Contains(b, "hello log") {
		t.Errorf("log file: %q %v", b, err)
	}
}

// readFile reads a whole file as a string.
func readFile(p string) (string, error) {
	b, err := os.ReadFile(p)
	return string(b), err
}

// A state folder an older agentmux left 0755 and a log file left 0644 are made private
// (0700, 0600) when the log opens, and the log says so.
func TestOpenLogMakesStatePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	state := filepath.Join(dir, "agentmux")
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	p, _ := logPath()
	if err := os.WriteFile(p, []byte("old line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, f := openLog(0)
	f.Close()
	if st, err := os.Stat(state); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("state folder: %v %v, want 0700", st.Mode().Perm(), err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("log file: %v %v, want 0600", st.Mode().Perm(), err)
	}
	b, _ := readFile(p)
	if !strings.Contains(b, "state folder was open to other users") || !strings.Contains(b, "was=0755") ||
		!strings.Contains(b, "log file was open to other users") {
		t.Errorf("the log does not say what was fixed:\n%s", b)
	}
}

// An error is said with agentmux's name once: a subcommand's usage error already
// starts with it.
func TestErrorLineNamesAgentmuxOnce(t *testing.T) {
	for err, want := range map[error]string{
		usagef("agentmux send: unknown flag --x"): "agentmux send: unknown flag --x",
		errors.New("no session is running"):       "agentmux: no session is running",
		errors.New("line one\nline two"):          "agentmux: " + line("line one\nline two"),
	} {
		if got := errorLine(err); got != want {
			t.Errorf("errorLine(%q) = %q, want %q", err, got, want)
		}
	}
}
