package main

// Strategy: the one flag parser (flags.go) is checked on a command of its own making
// (every kind of flag, every error form, flags among operands, "--", "-", aliases, the
// first operand ending the flags) and on the real table: every subcommand that parses
// its words refuses an unknown flag, a value flag without its value and a switch given
// a value in the same words, through run; and every command's help lists every flag it
// takes, made from the table (agentmux --help: every one of agentmux's own).

import (
	"cmp"
	"errors"
	"flag"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frobArgs are testCommand's own flags.
type frobArgs struct {
	force, jsonl, meshOn bool
	to, meshURL          string
	timeout              time.Duration
	lines                int
	prefixes             []string
}

// testCommand takes one flag of each kind.
func testCommand() command {
	return command{name: "frob", minArgs: 1, maxArgs: 5, flags: []flagSpec{
		switchFlag("force", "do it anyway", func(a *frobArgs) *bool { return &a.force }).alias("f"),
		boolFlag("jsonl", "one a line", func(a *frobArgs) *bool { return &a.jsonl }),
		stringFlag("to", "TARGET", "where it goes\nand more", func(a *frobArgs) *string { return &a.to }),
		durationFlag("timeout", "D", "give up after D", true, func(a *frobArgs) *time.Duration { return &a.timeout }),
		countFlag("lines", "N", "N lines", 0, "want a whole number, 0 or more", func(a *frobArgs) *int { return &a.lines }),
		listFlag("prefix", "P", "a marker (repeat)", func(a *frobArgs) *[]string { return &a.prefixes }),
		ownFlag("mesh", "URL", lsMeshFlags[0].usage, kindOptional, func(a *frobArgs, val string, given bool) error {
			a.meshOn = true
			if given {
				a.meshURL = val
			}
			return nil
		}),
	}}
}

func TestFlagsParseAmongOperands(t *testing.T) {
	c := testCommand()
	a, err := c.parseFlags([]string{"x", "--to", "bob", "-", "-f", "--timeout=2m", "-lines", "3", "y", "--prefix", "a", "--prefix=b", "--jsonl=false", "--", "--to", "-f"})
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "-", "y", "--to", "-f"}, a.operands, `"-" is an operand; "--" ends the flags`)
	f := own[frobArgs](a)
	assert.Equal(t, "bob", f.to)
	assert.True(t, f.force, "-f is --force")
	assert.Equal(t, 2*time.Minute, f.timeout)
	assert.Equal(t, 3, f.lines)
	assert.Equal(t, []string{"a", "b"}, f.prefixes)
	assert.False(t, f.jsonl)
	assert.Equal(t, map[string]bool{"to": true, "force": true, "timeout": true, "lines": true, "prefix": true, "jsonl": true}, a.given, "by their first names")

	a, err = c.parseFlags([]string{"--mesh", "x", "--jsonl"})
	require.NoError(t, err)
	f = own[frobArgs](a)
	assert.True(t, f.meshOn)
	assert.Empty(t, f.meshURL, "a value flag's optional value comes after = only")
	assert.Equal(t, []string{"x"}, a.operands)
	assert.True(t, f.jsonl)
	a, err = c.parseFlags([]string{"--mesh=nats://h:4222", "x"})
	require.NoError(t, err)
	assert.Equal(t, "nats://h:4222", own[frobArgs](a).meshURL)

	c.flagsFirst = true // agentmux new COMMAND: the command's own flags follow it
	a, err = c.parseFlags([]string{"--to", "bob", "bash", "--to", "-f", "--"})
	require.NoError(t, err)
	f = own[frobArgs](a)
	assert.Equal(t, "bob", f.to)
	assert.False(t, f.force)
	assert.Equal(t, []string{"bash", "--to", "-f", "--"}, a.operands)
}

func TestFlagErrorsReadTheSame(t *testing.T) {
	c := testCommand()
	for args, want := range map[string]string{
		"x --nope":         "agentmux frob: unknown flag --nope (agentmux frob --help lists them)",
		"x -nope=1":        "agentmux frob: unknown flag -nope (agentmux frob --help lists them)",
		"x --to":           "agentmux frob: --to needs a value",
		"x --force=yes":    "agentmux frob: --force takes no value",
		"x -f=1":           "agentmux frob: -f takes no value",
		"x ---to bob":      "agentmux frob: malformed flag ---to",
		"x --=1":           "agentmux frob: malformed flag --=1",
		"x --jsonl=maybe":  "agentmux frob: --jsonl=maybe: want true or false",
		"x --timeout 5":    "agentmux frob: --timeout 5 needs a unit, e.g. 5s or 5m",
		"x --timeout -1s":  "agentmux frob: --timeout must be a positive duration, not -1s",
		"x --timeout soon": `agentmux frob: --timeout "soon": want a duration such as 90s, 10m or 1h`,
		"x --lines -2":     "agentmux frob: --lines -2: want a whole number, 0 or more",
		"--force":          "agentmux frob: wrong number of arguments (agentmux help frob shows the usage)",
		"a b c d e f":      "agentmux frob: wrong number of arguments (agentmux help frob shows the usage)",
	} {
		_, err := c.parseFlags(strings.Fields(args))
		require.Error(t, err, args)
		assert.True(t, errors.Is(err, errUsage), args)
		assert.Equal(t, want, err.Error(), args)
	}
}

func TestFlagHelpIsMadeFromTheTable(t *testing.T) {
	c := testCommand()
	c.synopsis = "agentmux frob X"
	assert.Equal(t, `usage: agentmux frob X

flags:
  --force, -f    do it anyway
  --jsonl        one a line
  --to TARGET    where it goes
                 and more
  --timeout D    give up after D
  --lines N      N lines
  --prefix P     a marker (repeat)
  --mesh[=URL]   the mesh's sessions (live or away) and members instead, at URL
                 (else config.toml's [mesh] url, else the mesh the running session joined)`, commandHelp(c))
	c.session = true
	assert.True(t, strings.HasSuffix(commandHelp(c), "\n\ncommon flags: --session NAME (else $AGENTMUX_SESSION, else the only running session), --json"))
}

// listsFlag reports whether help names flag as a word of its own (--web, not only
// --web-listen).
func listsFlag(help, flag string) bool {
	for i := 0; ; {
		j := strings.Index(help[i:], flag)
		if j < 0 {
			return false
		}
		end := i + j + len(flag)
		if start := i + j; (start == 0 || !isFlagChar(help[start-1])) && (end == len(help) || !isFlagChar(help[end])) {
			return true
		}
		i = end
	}
}

func isFlagChar(b byte) bool {
	return b == '-' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

// flagsOf is each command of the table with the flags it takes, a part on its own.
func flagsOf(t *testing.T) map[string][]flagSpec {
	t.Helper()
	out := map[string][]flagSpec{}
	for _, c := range commandTable {
		if c.hidden || c.run != nil {
			continue
		}
		if c.parts == nil {
			out[c.name] = c.takes()
		}
		for _, p := range c.parts {
			out[c.name+" "+p.name] = p.takes()
		}
	}
	return out
}

func TestEveryHelpListsEveryFlag(t *testing.T) {
	for _, c := range commandTable {
		if c.hidden {
			continue
		}
		c, _ = lookupCommand(c.name) // wake: remind's help
		help := commandHelp(c)
		specs := c.takes()
		for _, p := range c.parts {
			specs = append(specs, p.takes()...)
		}
		for _, f := range specs {
			for _, n := range append([]string{f.name}, f.aliases...) {
				assert.True(t, listsFlag(help, dashed(n)), "agentmux help %s does not list %s", c.name, dashed(n))
			}
			if f.usage != "" {
				assert.Contains(t, help, strings.Split(f.usage, "\n")[0], "%s %s: its usage", c.name, f.name)
			}
		}
		if c.run == nil {
			_, out, err := runCmd(t, "", "help", c.name)
			require.NoError(t, err)
			assert.Equal(t, help+"\n", out, "agentmux help %s", c.name)
		}
	}
	for name, specs := range flagsOf(t) {
		for _, f := range specs {
			if !strings.HasPrefix(f.name, "json") && f.name != "session" {
				assert.NotEmpty(t, f.usage, "%s --%s says what it does", name, f.name)
			}
		}
	}
	// agentmux demo takes agentmux's own flags: agentmux --help lists every one (in
	// its flags, not the session commands' below).
	_, own, ok := strings.Cut(mainHelp(), "\nflags:\n")
	require.True(t, ok)
	own, _, ok = strings.Cut(own, "\nKeys:")
	require.True(t, ok)
	mainFlags(&options{}, &mainValues{}).VisitAll(func(f *flag.Flag) {
		lists := listsFlag(own, "--"+f.Name) || len(f.Name) == 1 && listsFlag(own, "-"+f.Name) // -d
		assert.True(t, lists, "agentmux --help does not list --%s", f.Name)
	})
}

// Through run, every command that parses its words words each error alike, before it
// does anything (no session is running here).
func TestEveryCommandRefusesBadFlagsAlike(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("AGENTMUX_SESSION", "")
	for name, specs := range flagsOf(t) {
		c, _ := lookupCommand(strings.Fields(name)[0])
		if len(c.parts) > 0 {
			for _, p := range c.parts {
				if name == c.name+" "+p.name {
					c = p
				}
			}
		}
		words := strings.Fields(name)
		try := func(want string, args ...string) {
			t.Helper()
			code, out, err := runCmd(t, "", append(words, args...)...)
			assert.Equal(t, 2, code, "%s %q", name, args)
			assert.Empty(t, out)
			if assert.Error(t, err, "%s %q", name, args) {
				assert.Equal(t, want, err.Error(), "%s %q", name, args)
			}
		}
		try(c.errName()+": unknown flag --no-such-flag (agentmux "+c.helpName()+" --help lists them)", "--no-such-flag")
		for _, f := range specs {
			switch f.kind {
			case kindValue:
				try(c.errName()+": "+dashed(f.name)+" needs a value", dashed(f.name))
			case kindSwitch:
				try(c.errName()+": "+dashed(f.name)+" takes no value", dashed(f.name)+"=1")
			}
		}
	}
	// The session flags before a session command's name are its own.
	code, _, err := runCmd(t, "", "--session", "x", "ls", "--bogus")
	assert.Equal(t, 2, code)
	assert.EqualError(t, err, "agentmux ls: unknown flag --bogus (agentmux ls --help lists them)")
	// ls's mesh settings list the mesh: without --mesh they are refused.
	code, _, err = runCmd(t, "", "ls", "--mesh-creds", "f")
	assert.Equal(t, 2, code)
	assert.EqualError(t, err, "agentmux ls: --mesh-creds, --mesh-nkey and --mesh-ca go with --mesh")
	// A command of parts names the one it lacks.
	code, _, err = runCmd(t, "", "worktree", "mv")
	assert.Equal(t, 2, code)
	assert.EqualError(t, err, `agentmux worktree: unknown command "mv" (ls, rm)`)
	code, _, err = runCmd(t, "", "mesh", "creds")
	assert.Equal(t, 2, code)
	assert.EqualError(t, err, "agentmux mesh creds: wrong number of arguments (agentmux help mesh shows the usage)")
	code, _, err = runCmd(t, "", "attach", "-r", "-d")
	assert.Equal(t, 2, code, "the alias is the flag")
	assert.EqualError(t, err, "agentmux attach: --read-only and -d do not go together")
}

// Each command's flags are its own: every flag of the table sets either the common
// arguments (clientArgs) or its command's own type, one type a command, and no two
// commands share one (but wake, remind's other name). A flag set on the wrong type
// would panic when given; one shared would let a command read another's flags.
func TestEveryCommandsFlagsAreItsOwn(t *testing.T) {
	common := reflect.TypeFor[clientArgs]()
	ownedBy := map[reflect.Type]string{}
	var walk func(cs []command)
	walk = func(cs []command) {
		for _, c := range cs {
			var mine reflect.Type
			for _, f := range c.takes() {
				if !assert.NotNil(t, f.owner, "%s --%s: no owner", c.name, f.name) || f.owner == common {
					continue
				}
				if mine != nil {
					assert.Equal(t, mine, f.owner, "%s --%s sets another type than its other flags", c.name, f.name)
				}
				mine = f.owner
			}
			if mine != nil {
				name := cmp.Or(c.sameAs, c.name)
				if other, ok := ownedBy[mine]; ok {
					assert.Equal(t, other, name, "%s and %s share their flags (%s)", other, c.name, mine)
				}
				ownedBy[mine] = name
			}
			walk(c.parts)
		}
	}
	walk(commandTable)
	assert.Greater(t, len(ownedBy), 15, "the commands with flags of their own")
}
